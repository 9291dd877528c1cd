"""The house plan: tutorial_code is what students read and run, and it never reaches into the
build machinery; experiments compute without page data or drawing code; the folders say their roles."""

import ast
from pathlib import Path

import pytest

from coursebuild.paths import TUTORIAL
from coursebuild.pipeline import keys, registry

BUILD_ONLY = {"mkdocs", "nbclient", "nbformat", "jupytext", "coursebuild", "material", "mkdocs_static_i18n"}


def imported_top_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_teaching_package_imports_nothing_of_the_build():
    offenders = {p.relative_to(TUTORIAL).as_posix(): sorted(imported_top_names(p) & BUILD_ONLY)
                 for p in sorted(TUTORIAL.rglob("*.py")) if imported_top_names(p) & BUILD_ONLY}
    assert offenders == {}


@pytest.mark.parametrize("name", registry.names())
def test_every_experiment_computes_without_page_data_or_drawing_code(name):
    files = keys.compute_sources(name)  # raises if the compute module imports page data or drawing code
    assert not any(keys.DRAWING_DIR in f.parents or keys.PAGEDATA_DIR in f.parents for f in files)
    assert keys.DRAWING_DIR / f"{name}.py" in keys.drawing_sources(name)


def test_the_experiments_folder_holds_experiments_at_its_top_and_roles_in_sub_packages():
    """Every module at the top of tutorial_code/experiments/ is a registered experiment; shared
    compute code is in common/, page data in pagedata/, drawing in drawing/; the registry reads
    the list from the folder's own __init__.py."""
    from tutorial_code import experiments

    top = sorted(p.stem for p in (TUTORIAL / "experiments").glob("*.py") if p.name != "__init__.py")
    assert top == sorted(experiments.EXPERIMENTS)
    assert registry.names() == list(experiments.EXPERIMENTS)
    subs = sorted(p.parent.name for p in (TUTORIAL / "experiments").glob("*/__init__.py"))
    assert subs == ["common", "drawing", "pagedata"]
    for name in experiments.EXPERIMENTS:  # page data, where there is any, is named for its experiment
        page = TUTORIAL / "experiments" / "pagedata" / f"{name}.py"
        assert not page.exists() or registry.load_pagedata(name) is not None


def test_every_folder_says_which_room_it_is():
    for init in (TUTORIAL / "__init__.py", TUTORIAL / "experiments" / "__init__.py",
                 TUTORIAL / "experiments" / "common" / "__init__.py",
                 TUTORIAL / "experiments" / "pagedata" / "__init__.py",
                 TUTORIAL / "experiments" / "drawing" / "__init__.py", TUTORIAL / "notebooks" / "__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text("utf-8")))
        assert doc and len(doc) > 80, init
