""""Open in Colab" names only a repository the build knows (scripts/coursebuild/colab.py).

Order: COLAB_REPOSITORY, extra.colab.repository, repo_url, the git remote (GitHub addresses
only); none known: no Colab link, and the page says, in its language, how to upload the
download to Colab. A malformed value stops the build with a message that names the fix.
"""

import re
import subprocess
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest

from coursebuild.notebooks import colab
from coursebuild.notebooks import build
from coursebuild.paths import REPO_ROOT as REPO

EXTRA = {"repository": None, "branch": "gh-pages"}
HINT = {"ko": "Colab → 파일 → 노트북 업로드", "en": "Colab → File → Upload notebook"}


def git_repo(tmp_path, *remotes):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for name, url in remotes:
        subprocess.run(["git", "-C", str(tmp_path), "remote", "add", name, url], check=True)
    return tmp_path


def resolve(tmp_path, env=None, extra=EXTRA, repo_url=None, remotes=()):
    return colab.resolve(extra, repo_url, git_repo(tmp_path, *remotes), environ=env or {})


def test_the_environment_variable_comes_first(tmp_path):
    got = resolve(tmp_path, env={"COLAB_REPOSITORY": "env-owner/env.repo"},
                  extra={"repository": "extra/repo"}, repo_url="https://github.com/url/repo",
                  remotes=[("origin", "git@github.com:remote/repo.git")])
    assert (got.name, got.source, got.url) == ("env-owner/env.repo", "COLAB_REPOSITORY",
                                               "https://github.com/env-owner/env.repo")


def test_then_extra_colab_repository(tmp_path):
    got = resolve(tmp_path, env={"COLAB_REPOSITORY": ""}, extra={"repository": "extra/repo"},
                  repo_url="https://github.com/url/repo", remotes=[("origin", "git@github.com:remote/repo.git")])
    assert (got.name, got.source) == ("extra/repo", "extra.colab.repository")


@pytest.mark.parametrize("url", ["https://github.com/url-owner/repo_1", "https://github.com/url-owner/repo_1/",
                                 "https://github.com/url-owner/repo_1.git"])
def test_then_repo_url_when_it_is_on_github(tmp_path, url):
    got = resolve(tmp_path, repo_url=url, remotes=[("origin", "git@github.com:remote/repo.git")])
    assert (got.name, got.source) == ("url-owner/repo_1", "repo_url")


@pytest.mark.parametrize("url", ["git@github.com:me/course.git", "https://github.com/me/course.git",
                                 "ssh://git@github.com/me/course", "https://token@github.com/me/course"])
def test_then_the_git_remote_when_it_is_on_github(tmp_path, url):
    got = resolve(tmp_path, repo_url="https://gitlab.com/me/other", remotes=[("origin", url)])
    assert (got.name, got.source) == ("me/course", "git remote")


def test_a_remote_elsewhere_or_no_remote_means_no_repository(tmp_path):
    assert resolve(tmp_path / "a", remotes=[("origin", "https://gitlab.com/me/course.git")]) is None
    assert resolve(tmp_path / "b", remotes=[("origin", "/srv/git/course.git")]) is None
    assert resolve(tmp_path / "c") is None
    assert colab.resolve(EXTRA, None, tmp_path / "not-a-git-folder", environ={}) is None
    # two remotes, none called origin: which one is meant is not known
    assert resolve(tmp_path / "d", remotes=[("a", "git@github.com:a/x.git"), ("b", "git@github.com:b/x.git")]) is None


@pytest.mark.parametrize("env,extra,where", [
    ({"COLAB_REPOSITORY": "not a repository"}, EXTRA, "COLAB_REPOSITORY"),
    ({"COLAB_REPOSITORY": "https://github.com/me/course"}, EXTRA, "COLAB_REPOSITORY"),
    ({}, {"repository": "owner/name/extra"}, "extra.colab.repository"),
    ({}, {"repository": "-owner/name"}, "extra.colab.repository"),
])
def test_a_malformed_value_is_an_error_that_names_the_fix(tmp_path, env, extra, where):
    with pytest.raises(colab.ColabConfigError) as info:
        resolve(tmp_path, env=env, extra=extra)
    message = str(info.value)
    assert where in message and "'owner/name'" in message and "COLAB_REPOSITORY" in message, message


def test_the_link_points_at_the_branch_and_path():
    repo = colab.Repository("me/course", "test")
    assert colab.link(repo, {"branch": "gh-pages"}, "en/notebooks/colab/x.ipynb") == (
        "https://colab.research.google.com/github/me/course/blob/gh-pages/en/notebooks/colab/x.ipynb")
    assert colab.link(repo, {"branch": "main", "path_prefix": "site/"}, "notebooks/colab/x.ipynb").endswith(
        "/me/course/blob/main/site/notebooks/colab/x.ipynb")
    assert colab.link(None, {"branch": "gh-pages"}, "notebooks/colab/x.ipynb") is None


@pytest.fixture
def hook(monkeypatch):
    """The course plugin's on_config with mkdocs.yml loaded (no build)."""
    from mkdocs.config import load_config

    from coursebuild import plugin as course_plugin

    def configured(root=Path("/nonexistent-folder"), repo_url=None, **env):
        for key in ("COLAB_REPOSITORY", "STUDENT_COLAB_REPOSITORY", "SITE_URL", "COURSE_EDITION"):
            monkeypatch.delenv(key, raising=False)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        monkeypatch.setattr(course_plugin, "REPO_ROOT", root)  # by default: no git remote
        config = load_config(str(REPO / "mkdocs.yml"), repo_url=repo_url)
        plugin = config.plugins["course"]
        return plugin, plugin.on_config(config)

    return configured


def lesson_links(plugin, config, lang="ko"):
    source = build.sources()[0]
    prefix = "" if lang == "ko" else "en/"
    page = SimpleNamespace(file=SimpleNamespace(src_uri=f"{lang}/lessons/{source.slug}.md"),
                           url=f"{prefix}lessons/{source.slug}/")
    config.plugins["i18n"].current_language = lang  # what static-i18n sets for each language's build
    plugin._context_links({}, page, config, None)
    return page.notebook_links, source, prefix


def test_the_plugin_links_to_colab_and_sets_repo_url_from_the_variable(hook):
    module, config = hook(COLAB_REPOSITORY="me/course")
    assert config.repo_url == "https://github.com/me/course" and config.repo_name == "me/course"
    links, source, prefix = lesson_links(module, config, "en")
    assert links["colab"] == (f"https://colab.research.google.com/github/me/course/blob/gh-pages/"
                              f"en/notebooks/colab/{source.name}.ipynb")


def test_the_plugin_knows_no_repository_by_default_so_no_link_and_no_repo_url(hook):
    module, config = hook()
    assert config.repo_url is None
    links, _, _ = lesson_links(module, config)
    assert links["colab"] is None and links["download"]


def test_the_plugin_stops_the_build_on_a_malformed_variable(hook):
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="COLAB_REPOSITORY"):
        hook(COLAB_REPOSITORY="me")


def render_links(lang, colab_url):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(REPO / "docs" / "overrides")))
    page = SimpleNamespace(notebook_links={"download": "../x.ipynb", "filename": "x.ipynb", "colab": colab_url,
                                           "page": "../nb/"})
    config = SimpleNamespace(theme=SimpleNamespace(language=lang))
    return env.get_template("partials/notebook-links.html").render(page=page, config=config)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_buttons_show_colab_or_say_how_to_upload(lang):
    url = "https://colab.research.google.com/github/me/course/blob/gh-pages/notebooks/colab/x.ipynb"
    html = render_links(lang, url)
    assert f'href="{url}"' in html and HINT[lang] not in html and 'download="x.ipynb"' in html
    html = render_links(lang, None)
    assert "colab.research.google.com" not in html and "notebook-links__colab" not in html
    assert HINT[lang] in html and 'download="x.ipynb"' in html


@pytest.mark.slow
def test_the_built_site_links_only_to_the_repository_the_build_knows(built_site):
    """The test build gets whatever this checkout's settings give (usually none: no link)."""
    from mkdocs.config import load_config

    settings = load_config(str(REPO / "mkdocs.yml"))  # with this environment, as the build read it
    known = colab.resolve(settings.extra.get("colab"), settings.repo_url, REPO)
    for source in build.sources():
        for lang, prefix in (("ko", ""), ("en", "en/")):
            html = (built_site / prefix / "lessons" / source.slug / "index.html").read_text(encoding="utf-8")
            nav = re.search(r'<nav class="notebook-links".*?</nav>', html, re.S).group(0)
            hrefs = re.findall(r'href="(https://colab\.research\.google\.com/[^"]+)"', html)
            if known is None:
                assert not hrefs and HINT[lang] in nav, (source.slug, lang)
            else:
                assert hrefs and all(f"/github/{known.name}/blob/" in h for h in hrefs), hrefs
                assert HINT[lang] not in nav


# ---------------------------------------------------------------- how to get the code (both cases)

GET_CODE = {"ko": ("코드 묶음", "Colab → 파일 → 노트북 업로드"), "en": ("code archive", "Colab → File → Upload notebook")}


@pytest.mark.parametrize("settings", [
    {"COLAB_REPOSITORY": "me/course"},
    {"repo_url": "https://github.com/me/course"},
    {"remote": "git@github.com:me/course.git"},
])
def test_the_student_edition_never_names_the_source_repository(hook, tmp_path, settings):
    """However the build learns the source repository, the student edition has no header link,
    no edit link, no repository for the pages and no Colab link to it."""
    settings = dict(settings)
    root = git_repo(tmp_path, ("origin", settings.pop("remote"))) if "remote" in settings else Path("/nonexistent")
    module, config = hook(root=root, COURSE_EDITION="student", **settings)
    assert config.repo_url is None and config.edit_uri is None and config.repo_name is None
    assert config.extra["repository_url"] is None and config.extra["colab_links"] is False
    assert module.repository is None
    links, _, _ = lesson_links(module, config)
    assert links["colab"] is None and links["download"]
    _, open_config = hook(root=root, **settings)  # the open site does link it
    assert open_config.repo_url == "https://github.com/me/course"


def test_the_student_edition_opens_colab_from_the_student_publication_only(hook):
    module, config = hook(COURSE_EDITION="student", COLAB_REPOSITORY="me/course",
                          STUDENT_COLAB_REPOSITORY="me/course-student")
    assert config.repo_url is None and config.extra["repository_url"] is None and config.extra["colab_links"]
    links, source, prefix = lesson_links(module, config, "en")
    assert links["colab"] == (f"https://colab.research.google.com/github/me/course-student/blob/gh-pages/"
                              f"en/notebooks/colab/{source.name}.ipynb")
    _, open_config = hook(COLAB_REPOSITORY="me/course", STUDENT_COLAB_REPOSITORY="me/course-student")
    assert open_config.extra["repository_url"] == "https://github.com/me/course"  # the open site ignores it


@pytest.mark.parametrize("settings", [
    {"COLAB_REPOSITORY": "me/course", "STUDENT_COLAB_REPOSITORY": "Me/Course"},
    {"repo_url": "https://github.com/me/course", "STUDENT_COLAB_REPOSITORY": "me/course"},
])
def test_a_student_publication_that_is_the_source_repository_stops_the_build(hook, settings):
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="STUDENT_COLAB_REPOSITORY.*repository this site is built from"):
        hook(COURSE_EDITION="student", **settings)


def test_a_malformed_student_publication_names_the_fix():
    with pytest.raises(colab.ColabConfigError, match="'owner/name'.*student edition"):
        colab.resolve_student({}, {}, environ={"STUDENT_COLAB_REPOSITORY": "https://github.com/me/x"})
    assert colab.resolve_student({"student_repository": "me/x-student"}, {"me/x": "repo_url"}, environ={}).name == "me/x-student"
    assert colab.resolve_student({}, {}, environ={}) is None


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_get_code_in_the_student_edition_is_always_the_archive(lang):
    from coursebuild.pages import kinds, markers

    ctx = kinds.context(lang=lang, edition="student", repository_url="https://github.com/me/course",
                        source_url="../downloads/course-code.zip", colab_links=True)
    text = markers.render("[[get-code]]", ctx)
    assert "github" not in text and "git clone" not in text and "../downloads/course-code.zip" in text
    assert GET_CODE[lang][1] not in markers.render("[[get-code:notebooks]]", ctx)  # Colab from the publication
    ctx = kinds.context(lang=lang, edition="student", colab_links=False)
    assert GET_CODE[lang][1] in markers.render("[[get-code:notebooks]]", ctx)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_get_code_names_the_repository_when_one_is_known_else_the_archive(lang):
    from coursebuild.pages import markers
    from coursebuild.pages import kinds

    known = kinds.context(lang=lang, repository_url="https://github.com/me/course",
                            source_url="../downloads/course-code.zip")
    text = markers.render("[[get-code]]", known)
    assert "[me/course](https://github.com/me/course)" in text and "git clone https://github.com/me/course" in text
    assert "Colab" in markers.render("[[get-code:notebooks]]", known)
    assert GET_CODE[lang][1] not in markers.render("[[get-code:notebooks]]", known)
    unknown = kinds.context(lang=lang, source_url="../downloads/course-code.zip")
    text = markers.render("[[get-code]]", unknown)
    assert f"[{GET_CODE[lang][0]}](../downloads/course-code.zip)" in text and "github" not in text
    assert GET_CODE[lang][1] in markers.render("[[get-code:notebooks]]", unknown)
    with pytest.raises(markers.MarkerError, match="at most the argument 'notebooks' or 'archive'"):
        markers.render("[[get-code:repo]]", unknown)


def test_the_plugin_passes_the_known_repository_to_the_pages(hook):
    for value, want in (("me/course", "https://github.com/me/course"), (None, None)):
        _, config = hook(**({"COLAB_REPOSITORY": value} if value else {}))
        assert config.extra["repository_url"] == want


@pytest.mark.slow
def test_the_built_site_says_how_to_get_the_code_on_the_home_page_guide_and_assignment_2(built_site):
    from mkdocs.config import load_config

    settings = load_config(str(REPO / "mkdocs.yml"))
    known = colab.resolve(settings.extra.get("colab"), settings.repo_url, REPO)
    assert (built_site / "downloads" / "course-code.zip").is_file()
    for lang, prefix in (("ko", ""), ("en", "en/")):
        home = (built_site / prefix / "index.html").read_text(encoding="utf-8")
        guide = (built_site / prefix / "teaching" / "instructor-guide" / "index.html").read_text(encoding="utf-8")
        exercises = (built_site / prefix / "teaching" / "exercises" / "index.html").read_text(encoding="utf-8")
        assignment_2 = exercises[exercises.index('id="assignment-2"'):]
        for page, up in ((home, "" if lang == "ko" else "../"), (guide, "../../" if lang == "ko" else "../../../"),
                         (assignment_2, "../../" if lang == "ko" else "../../../")):
            assert f'href="{up}downloads/course-code.zip"' in page, lang
            if known is None:
                assert "github.com" not in page
            else:
                assert f'href="{known.url}"' in page
        if known is None:  # the guide promises no button the pages do not have
            assert GET_CODE[lang][1] in guide and GET_CODE[lang][1] in home
        for source in build.sources():
            lesson = (built_site / prefix / "lessons" / source.slug / "index.html").read_text(encoding="utf-8")
            assert 'download="course-code.zip"' in lesson
