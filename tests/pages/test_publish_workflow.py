"""The GitHub Pages workflow (.github/workflows/pages.yml) builds with the README's command,
caches pip and .build/, sets SITE_URL and the Colab repository from the repository it runs in,
pushes the open site to the branch Colab opens notebooks from, and deploys with the official
actions. The edition is an input (else the repository variable, else student in a private
repository and open in a public one); the student edition never goes to this repository's gh-pages
branch, goes to a separate student repository when one is set, and to this repository's Pages
only when the repository is private."""

import re

import yaml

from coursebuild.paths import REPO_ROOT as REPO
WORKFLOW = REPO / ".github" / "workflows" / "pages.yml"


def readme_build_command() -> str:
    """The first command of the README's first bash block (quick start, command 1)."""
    block = re.search(r"```bash\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S).group(1)
    return next(line.strip() for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#"))


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def steps(job: str) -> list[dict]:
    return workflow()["jobs"][job]["steps"]


def uses(job: str) -> dict[str, dict]:
    return {s["uses"].split("@")[0]: s for s in steps(job) if "uses" in s}


def test_the_build_step_runs_the_readme_build_command():
    command = readme_build_command()
    assert command == "bash scripts/setup.sh && .venv/bin/mkdocs build"
    runs = [s for s in steps("build") if s.get("run", "").strip() == command]
    assert len(runs) == 1, [s.get("run") for s in steps("build")]
    env = runs[0]["env"]
    pages_id = uses("build")["actions/configure-pages"]["id"]
    # the Pages address with its trailing slash, else (a student repository) that repository's
    assert env["SITE_URL"] == (f"${{{{ steps.{pages_id}.outputs.base_url && format('{{0}}/', "
                               f"steps.{pages_id}.outputs.base_url) || steps.where.outputs.site_url }}}}")
    assert env["COLAB_REPOSITORY"] == "${{ github.repository }}"
    assert env["STUDENT_COLAB_REPOSITORY"] == "${{ vars.STUDENT_REPOSITORY }}"


def test_the_edition_is_an_input_of_a_run_by_hand_or_a_repository_variable_else_the_visibility():
    dispatch = workflow()[True]["workflow_dispatch"]["inputs"]["edition"]
    assert dispatch["type"] == "choice" and dispatch["options"] == ["as-configured", "open", "student"]
    assert dispatch["default"] == "as-configured"  # a click on "Run" republishes what pushes publish
    chosen = workflow()["jobs"]["build"]["env"]["COURSE_EDITION"]
    # a private repository (the guide's for a graded class) publishes the student edition unless
    # told otherwise, so a push never puts the answer key at the address the class was given
    assert chosen == ("${{ (inputs.edition == 'open' || inputs.edition == 'student') && inputs.edition "
                      "|| vars.COURSE_EDITION || (github.event.repository.private && 'student' || 'open') }}")


def test_it_runs_on_pushes_to_main_and_by_hand():
    triggers = workflow()[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["push"]["branches"] == ["main"] and "workflow_dispatch" in triggers


def test_pip_and_the_build_folder_are_cached_by_requirements_and_code():
    python = uses("build")["actions/setup-python"]["with"]
    assert str(python["python-version"]) == "3.11" and python["cache"] == "pip"
    assert python["cache-dependency-path"] == "requirements.txt"
    cache = uses("build")["actions/cache"]["with"]
    assert cache["path"] == ".build"
    assert "hashFiles('requirements.txt', 'tutorial_code/**'" in cache["key"], cache["key"]
    order = [s.get("uses", s.get("run", "")).split("@")[0] for s in steps("build")]
    assert order.index("actions/cache") < order.index(readme_build_command())


def test_it_deploys_with_the_official_pages_actions():
    assert uses("build")["actions/upload-pages-artifact"]["with"]["path"] == "site"
    deploy = workflow()["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert "actions/deploy-pages" in uses("deploy")


def test_the_notebooks_colab_opens_are_pushed_to_the_branch_mkdocs_yml_names():
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    branch = re.search(r"^  colab:\n(?:    .*\n)*?    branch: (\S+)", text, re.M).group(1)
    pushes = [s for s in steps("build") if "ghp-import" in s.get("run", "")]
    assert len(pushes) == 2
    for push in pushes:
        assert "--push" in push["run"] and push["run"].rstrip().endswith(" site")
        named = re.search(r"(?:-b|--branch)[ =](\S+)", push["run"])
        assert (named.group(1) if named else "gh-pages") == branch  # ghp-import's default is gh-pages
    assert workflow()["jobs"]["build"]["permissions"] == {"contents": "write"}


def test_only_the_open_site_goes_to_this_repositorys_gh_pages_branch():
    pushes = {s["if"]: s["run"] for s in steps("build") if "ghp-import" in s.get("run", "")}
    assert set(pushes) == {"env.COURSE_EDITION == 'open'",
                           "env.COURSE_EDITION == 'student' && env.STUDENT_REPOSITORY != ''"}
    to_origin = pushes["env.COURSE_EDITION == 'open'"]
    assert "--remote" not in to_origin and " -r " not in to_origin  # ghp-import's default remote: origin
    student = pushes["env.COURSE_EDITION == 'student' && env.STUDENT_REPOSITORY != ''"]
    assert "--remote student" in student and "github.com/${STUDENT_REPOSITORY}.git" in student
    assert "GITHUB_SHA" not in student  # the student repository does not learn the source's commits


def test_the_student_edition_deploys_here_only_from_a_private_repository():
    where = next(s for s in steps("build") if s.get("id") == "where")
    assert where["env"]["PRIVATE"] == "${{ github.event.repository.private }}"
    script = where["run"]
    student = script[script.index("student)"):script.index("*)")]
    # a student repository: nothing deployed here; else only a private repository deploys
    assert student.index('-n "$STUDENT_REPOSITORY"') < student.index('echo "deploy=false"')
    assert '"$PRIVATE" = "true"' in student and "exit 1" in student.split('"$PRIVATE" = "true"')[1]
    # a public repository's owner page lists it: a student repository of the same owner leads there
    same_owner = student[student.index('-n "$STUDENT_REPOSITORY"'):student.index('echo "deploy=false"')]
    assert '"$PRIVATE" != "true" ] && [ "$owner" = "$source_owner" ]' in same_owner and "exit 1" in same_owner
    assert 'source_owner=$(echo "${GITHUB_REPOSITORY%%/*}"' in same_owner
    assert uses("build")["actions/configure-pages"]["if"] == "steps.where.outputs.deploy == 'true'"
    assert uses("build")["actions/upload-pages-artifact"]["if"] == "steps.where.outputs.deploy == 'true'"
    assert workflow()["jobs"]["deploy"]["if"] == "needs.build.outputs.deploy == 'true'"
    assert workflow()["jobs"]["build"]["outputs"]["deploy"] == "${{ steps.where.outputs.deploy }}"
