"""The house plan: tutorial_code is what students read and run, and it never reaches into the
build machinery; experiments compute without drawing code."""

import ast
from pathlib import Path

import pytest

from coursebuild.paths import TUTORIAL
from coursebuild.pipeline import registry, store

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
def test_every_experiment_computes_without_drawing_code(name):
    files = store.compute_sources(name)  # raises if the compute module imports drawing code
    assert not any(store.DRAWING_DIR in f.parents for f in files)
    assert store.DRAWING_DIR / f"{name}.py" in store.drawing_sources(name)


def test_every_folder_says_which_room_it_is():
    for init in (TUTORIAL / "__init__.py", TUTORIAL / "experiments" / "__init__.py",
                 TUTORIAL / "experiments" / "drawing" / "__init__.py", TUTORIAL / "notebooks" / "__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text("utf-8")))
        assert doc and len(doc) > 80, init
