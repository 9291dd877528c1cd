"""The build package's shape: its map names what exists, no import circles, no private names
used across modules, one atomic writer, and the benchmarks live outside it."""

from __future__ import annotations

import ast
import re
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "scripts" / "coursebuild"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path, top_level_only: bool = False) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for each coursebuild import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    nodes = tree.body if top_level_only else ast.walk(tree)
    found = []
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            if not base.startswith("coursebuild"):
                continue
            for alias in node.names:  # "from . import x" may name a submodule
                sub = f"{base}.{alias.name}"
                found.append((sub if sub in MODULES else base, [alias.name], node.lineno))
        elif isinstance(node, ast.Import):
            found += [(a.name, [], node.lineno) for a in node.names if a.name.startswith("coursebuild")]
    return found


def test_the_package_docstring_names_every_folder_and_only_modules_that_exist():
    doc = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8")))
    named = set(re.findall(r":mod:`(coursebuild[\w.]*)`", doc))
    assert named, "the map names its parts with :mod:`coursebuild.…`"
    assert sorted(n for n in named if n not in MODULES) == []
    folders = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert sorted(f for f in folders if f"coursebuild.{f}" not in named) == []
    top = {p.stem for p in PACKAGE.glob("*.py") if p.name != "__init__.py"}
    assert sorted(m for m in top if f"coursebuild.{m}" not in named) == []


def find_cycles(graph: dict[str, set[str]]) -> list[str]:
    """Import cycles of ``graph`` (module -> modules it imports), a package and its own
    modules excepted (a package's __init__ may import its modules)."""
    cycles, done = [], set()

    def visit(node, stack):
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in stack:
                cycle = stack[stack.index(nxt):] + [nxt]
                if not all(a.startswith(b + ".") or b.startswith(a + ".") for a, b in zip(cycle, cycle[1:])):
                    cycles.append(" -> ".join(cycle))
            elif nxt not in done:
                visit(nxt, stack)
        stack.pop()
        done.add(node)

    for m in sorted(graph):
        if m not in done:
            visit(m, [])
    return cycles


def test_no_module_of_the_build_imports_itself_back_through_others():
    """Every import counts (function-level ones too): a cycle hidden in a function is a cycle."""
    graph = {m: {t for t, _, _ in imports_of(p) if t in MODULES and t != m} for m, p in MODULES.items()}
    assert find_cycles(graph) == []


def test_the_cycle_check_finds_a_cycle_through_a_function_level_import():
    made_up = {"coursebuild.pages.markers": {"coursebuild.content.selfcheck"},
               "coursebuild.content.selfcheck": {"coursebuild.pages.markers"},
               "coursebuild.fixes": {"coursebuild.fixes.i18n"}, "coursebuild.fixes.i18n": {"coursebuild.fixes"}}
    assert find_cycles(made_up) == ["coursebuild.content.selfcheck -> coursebuild.pages.markers -> "
                                    "coursebuild.content.selfcheck"]


def test_no_private_name_is_used_across_modules():
    offenders = []
    for m, path in MODULES.items():
        text = path.read_text(encoding="utf-8")
        for target, names, line in imports_of(path):
            offenders += [f"{m}:{line} imports {n} from {target}" for n in names
                          if n.startswith("_") and n != "__future__"]
        tree = ast.parse(text)
        imported = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and (node.level or (node.module or "").startswith("coursebuild")) for a in node.names}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in imported and node.attr.startswith("_") and not node.attr.startswith("__"):
                offenders.append(f"{m}:{node.lineno} uses {node.value.id}.{node.attr}")
    assert offenders == []


def test_files_are_written_whole_by_one_writer():
    """os.replace and mkstemp belong to coursebuild.atomic (and the pipeline's folder swap)."""
    allowed = {"coursebuild.atomic", "coursebuild.pipeline.store"}
    offenders = [m for m, p in MODULES.items() if m not in allowed
                 and re.search(r"os\.replace\(|mkstemp\(", p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_benchmarks_are_commands_outside_the_package():
    assert not [m for m in MODULES if "benchmark" in m or m.endswith("page_weight")]
    for command in ("benchmark.py", "page_weight.py", "widget_benchmark.py", "trainer_benchmark.py",
                    "cold_build_benchmark.py", "serve_benchmark.py", "presentation_benchmark.py"):
        assert "def main(" in (REPO / "scripts" / command).read_text(encoding="utf-8"), command
