"""The plugin workarounds: in one package, version-checked, citing why; the language helpers."""

import inspect
import re
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from coursebuild.pages import nav
from coursebuild import fixes
from coursebuild import state
from coursebuild.course import LESSONS
from coursebuild.paths import REPO_ROOT
from coursebuild.fixes import i18n as i18n_fixes

SCRIPTS = REPO_ROOT / "scripts"


def pinned() -> dict[str, str]:
    lines = (REPO_ROOT / "requirements.txt").read_text().splitlines()
    return dict(line.strip().split("==") for line in lines if "==" in line)


# ---------------------------------------------------------------- version check

def test_the_installed_plugins_are_the_versions_the_workarounds_were_written_for():
    fixes.check_versions()  # raises otherwise
    assert {d: pinned()[d] for d in fixes.WRITTEN_FOR} == fixes.WRITTEN_FOR, "requirements.txt and WRITTEN_FOR differ"


def test_a_different_plugin_version_stops_the_build_and_names_what_to_recheck(monkeypatch):
    real = fixes.installed_version
    monkeypatch.setattr(fixes, "installed_version", lambda d: "1.4.0" if d == "mkdocs-static-i18n" else real(d))
    with pytest.raises(PluginError) as exc:
        fixes.check_versions()
    message = str(exc.value)
    assert "mkdocs-static-i18n 1.4.0 is installed" in message
    assert "written for mkdocs-static-i18n 1.3.1" in message
    for name in ("jupyter.notebooks_as_pages", "jupyter._add_alternates", "i18n.split_search_index"):
        assert name in message
    assert "jupyter.keep_cache_of_every_language" not in message  # mkdocs-jupyter's only
    assert "WRITTEN_FOR['mkdocs-static-i18n']" in message and "requirements.txt" in message


def test_a_missing_plugin_stops_the_build(monkeypatch):
    real = fixes.installed_version
    monkeypatch.setattr(fixes, "installed_version", lambda d: None if d == "mkdocs-jupyter" else real(d))
    with pytest.raises(PluginError, match="mkdocs-jupyter is not installed.*keep_cache_of_every_language"):
        fixes.check_versions()


def test_every_workaround_names_its_plugins_and_cites_an_issue_or_says_there_is_none():
    every = {d: fixes.depending_on(d) for d in fixes.WRITTEN_FOR}
    assert all(every.values()), f"a version is checked that no workaround relies on: {every}"
    from coursebuild.fixes import i18n, jupyter, material

    marked = {name for names in every.values() for name in names} - set(fixes.BROWSER)
    for name in marked:
        module, function = name.split(".")
        doc = inspect.getdoc(getattr({"i18n": i18n, "jupyter": jupyter, "material": material}[module], function)) or ""
        assert re.search(r"\w/[\w-]+#\d+|no\s+upstream\s+issue\s+found", doc, re.I), f"{name}: cite the upstream issue"
        assert "Why" in doc, f"{name}: say why it is needed"


def test_an_unknown_distribution_cannot_be_marked():
    with pytest.raises(ValueError, match="WRITTEN_FOR"):
        fixes.written_for("mkdocs-unknown-plugin")


def test_plugin_internals_are_used_only_in_the_workarounds_package():
    private = re.compile(r"create_i18n_file|_compute_cache_key|_get_cache_path|_used_cache_paths"
                         r"|import mkdocs_static_i18n|import mkdocs_jupyter|from mkdocs_(static_i18n|jupyter)")
    inside = SCRIPTS / "coursebuild" / "fixes"
    offenders = [p.relative_to(REPO_ROOT).as_posix() for p in SCRIPTS.rglob("*.py")
                 if inside not in p.parents and private.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_build_is_one_plugin_whose_events_are_ordered_in_one_file():
    """No hooks: mkdocs.yml lists the course plugin last, and only plugin.py sets event
    priorities, relative to static-i18n through coursebuild.state (no bare numbers below 0)."""
    config = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\nhooks:" not in config and not list(SCRIPTS.glob("*_hook.py"))
    plugins = re.search(r"^plugins:\n(.*?)^\S", config, re.S | re.M)[1]
    assert re.findall(r"^  - ([\w-]+)", plugins, re.M)[-1] == "course"
    package = SCRIPTS / "coursebuild"
    with_priority = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
                     if "event_priority(" in p.read_text(encoding="utf-8")]
    assert with_priority == ["plugin.py"]
    text = (package / "plugin.py").read_text(encoding="utf-8")
    assert not re.search(r"event_priority\(-\d", text), "use state.AFTER_I18N"
    assert "current_language" not in text


# ---------------------------------------------------------------- languages, once per build

def config(lang=None, default="ko", theme="ko"):
    plugins = {"i18n": SimpleNamespace(current_language=lang, default_language=default,
                                       build_languages=["ko", "en"])} if lang else {}
    return SimpleNamespace(plugins=plugins, theme={"language": theme})


def page(locale=None):
    return SimpleNamespace(file=SimpleNamespace(locale=locale) if locale else SimpleNamespace())


def test_page_language_is_the_file_locale_then_the_build_language():
    assert state.page_language(page("en"), config("ko")) == "en"
    assert state.page_language(page(), config("en")) == "en"
    assert state.page_language(page(), config(theme="en")) == "en"  # no static-i18n: the theme's
    assert state.page_language(page("fr"), config("en")) == "ko"  # not a course language: the first
    assert state.building_language(config("en")) == "en" and state.building_language(config()) == "ko"
    assert state.default_language(config("en")) == "ko" and state.default_language(config()) == "ko"


def test_once_per_build_is_once_per_config_object_and_name():
    first, second = SimpleNamespace(), SimpleNamespace()
    assert state.once_per_build(first, "notebooks") is True
    assert state.once_per_build(first, "notebooks") is False  # the next language's build
    assert state.once_per_build(first, "experiments") is True  # another name
    assert state.once_per_build(second, "notebooks") is True  # mkdocs serve: a new config per rebuild
    shared = state.build_state(first, "css")
    shared["a"] = 1
    assert state.build_state(first, "css") == {"a": 1} and state.build_state(second, "css") == {}


# ---------------------------------------------------------------- static-i18n and Material

def test_hreflang_links_go_and_other_languages_search_their_own_index():
    head = ('<link rel="alternate" href="./en/" hreflang="en">\n'
            '<script id="__config" type="application/json">{"base": ".."}</script>')
    out = i18n_fixes.drop_hreflang_links(head)
    assert "hreflang" not in out
    en = i18n_fixes.search_base_per_language(out, page("en"), config("en"), "en")
    assert '"base": "../en/"' in en
    assert i18n_fixes.search_base_per_language(out, page("ko"), config("ko"), "ko") == out
    with pytest.raises(RuntimeError, match="#__config"):
        i18n_fixes.search_base_per_language("<html>", SimpleNamespace(file=SimpleNamespace(src_uri="x.md")),
                                            config("en"), "en")


def test_the_merged_search_index_is_split_per_language(tmp_path):
    import json

    (tmp_path / "search").mkdir()
    merged = {"config": {"lang": ["ko", "en"]}, "docs": [
        {"location": "lessons/x/", "text": "한국어"}, {"location": "en/lessons/x/", "text": "English"}]}
    (tmp_path / "search" / "search_index.json").write_text(json.dumps(merged))
    cfg = config("ko")
    cfg.site_dir = str(tmp_path)
    i18n_fixes.split_search_index(cfg)
    ko = json.loads((tmp_path / "search" / "search_index.json").read_text())
    en = json.loads((tmp_path / "en" / "search" / "search_index.json").read_text())
    assert [d["location"] for d in ko["docs"]] == ["lessons/x/"] and ko["config"]["lang"] == ["ko", "en"]
    assert [d["location"] for d in en["docs"]] == ["lessons/x/"] and en["config"]["lang"] == ["en"]


def test_no_sitemap_without_site_url(tmp_path):
    (tmp_path / "sitemap.xml").write_text("<loc>None./</loc>")
    cfg = SimpleNamespace(site_url=None, site_dir=str(tmp_path))
    i18n_fixes.drop_sitemap_without_site_url(cfg)
    assert not (tmp_path / "sitemap.xml").exists()
    (tmp_path / "sitemap.xml").write_text("<loc>https://x/</loc>")
    i18n_fixes.drop_sitemap_without_site_url(SimpleNamespace(site_url="https://x/", site_dir=str(tmp_path)))
    assert (tmp_path / "sitemap.xml").exists()


# ---------------------------------------------------------------- the lesson list in the nav

def test_nav_placeholders_become_the_lessons_of_course_py():
    filled = nav.fill([{"홈": "index.md"}, {"강의": "[[nav:lessons]]"}, {"실습 노트북": "[[nav:notebooks]]"}])
    lessons, notebooks = filled[1]["강의"], filled[2]["실습 노트북"]
    assert lessons == [{f"{n.number}. {n.title['ko']}": n.page} for n in LESSONS]
    assert notebooks == [f"notebooks/{n.notebook}.ipynb" for n in LESSONS]
    assert nav.fill(filled) == filled  # static-i18n runs on_config once per language
    with pytest.raises(KeyError, match=r"unknown placeholder '\[\[nav:lesson\]\]'.*\[\[nav:lessons\]\]"):
        nav.fill([{"강의": "[[nav:lesson]]"}])


def test_english_nav_titles_come_from_course_py_and_a_clash_is_an_error():
    merged = nav.merge_translations({"홈": "Home"}, "en")
    assert merged["홈"] == "Home" and merged["3. 스케일드 닷프로덕트 어텐션, 한 단계씩"] == "3. Scaled dot-product attention, step by step"
    assert nav.merge_translations(merged, "en") == merged
    with pytest.raises(KeyError, match="remove the entry from mkdocs.yml"):
        nav.merge_translations({"1. 왜 어텐션인가": "1. Why?"}, "en")


def test_mkdocs_yml_lists_no_lesson_by_hand():
    text = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for lesson in LESSONS:
        assert lesson.page not in text and lesson.notebook not in text and lesson.title["en"] not in text



def test_the_browser_workarounds_are_under_the_same_version_check():
    """a11y.js fixes what Material makes in the browser: a Material upgrade names it too."""
    assert "docs/assets/javascripts/a11y.js" in fixes.depending_on("mkdocs-material")
    for path, dists in fixes.BROWSER.items():
        head = "\n".join((REPO_ROOT / path).read_text("utf-8").splitlines()[:3])  # after // @ts-check
        for dist in dists:
            assert fixes.WRITTEN_FOR[dist] in head, f"{path}: its first lines name the version it was written for"
