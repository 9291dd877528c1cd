"""Bring a package object into a notebook with everything it needs; check a notebook's names.

A notebook source asks for the objects a student should see (``# [[code:models.DecoderOnlyTransformer]]``);
:class:`Inliner` puts before each one every function, class and constant of ``tutorial_code``
that its source refers to and the notebook does not have yet, transitively, once per notebook, in
dependency order, each under a one-line comment that says where it comes from and which object
needs it. The imports of other libraries those objects use (``torch``, ``nn``, ``F``, ``math``,
``dataclass`` …) are added where the first object that needs them arrives, unless an earlier
cell already imports them.

Names are resolved through each module's imports (``from .attention import check_mask``,
``from tutorial_code.layers import EncoderLayer``, ``as`` renames are refused), as far as the
source itself says: a name used anywhere in the object that is also a top-level name or import
of its module counts (a local variable that shadows one brings the global in too, which is
harmless). Annotations count: a reader meets ``cfg: TransformerConfig`` and finds it above.

:func:`check` is the static check that runs on every rendered notebook before any kernel:
pyflakes' undefined-name check over the cells in order (a name a cell uses must be defined by an
earlier cell or the same one), and no import of the repository's own packages.
"""

from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass, field

from pyflakes import checker as pyflakes_checker
from pyflakes import messages as pyflakes_messages

from ..content import ui
from ..pages import code

FORBIDDEN_IMPORTS = ("tutorial_code", "coursebuild")  # a fresh Colab runtime has neither
IPYTHON_NAMES = ["display", "get_ipython", "In", "Out"]  # builtins of a Jupyter kernel
# the package modules whose objects a notebook may ask for; experiments are pipeline code
NOT_TEACHING = ("experiments", "notebooks")
# the package's reading order (tutorial_code/__init__.py): pulled-in objects come in this order
# wherever the dependencies leave a choice, so a notebook reads like the package
READING_ORDER = ("attention", "masks", "multihead", "position", "layers", "models", "generate",
                 "params", "device", "tasks", "classifiers")
_MAGIC = re.compile(r"^(?P<indent>[ \t]*)[%!]")


class DependencyError(ValueError):
    """A package object that cannot be brought in, or a notebook that uses an undefined name."""


@dataclass(frozen=True)
class Needs:
    objects: list[tuple[str, str]]  # (module, name) of the package objects, in order of first use
    imports: dict[str, str]  # bound name -> import statement, for the other libraries


def path_of(module: str) -> str:
    return f"tutorial_code/{module.replace('.', '/')}.py"


def binds(node: ast.stmt) -> list[str]:
    """The top-level names a statement of a module binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    targets = node.targets if isinstance(node, ast.Assign) else \
        [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def import_target(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    """What an imported name stands for: ``from torch import nn`` and ``import torch.nn as nn``
    both give ``torch.nn``; ``import torch.nn`` binds ``torch``."""
    if isinstance(node, ast.ImportFrom):
        dots = "." * node.level
        return f"{dots}{node.module}.{alias.name}" if node.module else f"{dots}{alias.name}"
    return alias.name if alias.asname else alias.name.split(".")[0]


def import_statement(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    rename = f" as {alias.asname}" if alias.asname else ""
    if isinstance(node, ast.ImportFrom):
        return f"from {node.module} import {alias.name}{rename}"
    return f"import {alias.name}{rename}"


def _imports(module: str) -> dict[str, tuple[ast.Import | ast.ImportFrom, ast.alias]]:
    tree = code.parsed(module)[1]
    found = {}
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not (
                isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            for alias in node.names:
                found[(alias.asname or alias.name).split(".")[0]] = (node, alias)
    return found


def needs(module: str, name: str) -> Needs:
    """What the source of ``tutorial_code.<module>.<name>`` refers to (see the module docstring)."""
    node = code.definitions(module)[name]
    own, defs, imports = set(binds(node)), code.definitions(module), _imports(module)
    loads = sorted((n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)),
                   key=lambda n: (n.lineno, n.col_offset))
    objects: list[tuple[str, str]] = []
    other: dict[str, str] = {}
    for used in dict.fromkeys(n.id for n in loads if n.id not in own):
        if used in defs:
            objects.append((module, used))
        elif used in imports:
            imp, alias = imports[used]
            base = code.package_module(module, imp) if isinstance(imp, ast.ImportFrom) else None
            where = f"{path_of(module)}, {name}"
            if base is None and not (isinstance(imp, ast.Import) and alias.name.startswith(code.PACKAGE.name)):
                other[used] = import_statement(imp, alias)
                continue
            if base is None or code.module_path(f"{base}.{alias.name}".lstrip(".")) is not None:
                raise DependencyError(
                    f"{where}: uses the module '{used}' ({used}.…); a notebook brings in objects by "
                    f"name, so import what it uses by name (from .{alias.name.split('.')[-1]} import …)")
            if alias.asname and alias.asname != alias.name:
                raise DependencyError(
                    f"{where}: imports {alias.name} as {alias.asname}; a notebook defines it under its "
                    f"own name, so import it without 'as'")
            objects.append(code.origin(base, alias.name))
    return Needs(objects, other)


def key_of(module: str, name: str) -> tuple[str, int]:
    """One key per statement: ``PAD``, ``BOS`` and ``EOS`` of ``PAD, BOS, EOS = 0, 1, 2`` share it."""
    return module, code.definitions(module)[name].lineno


@dataclass
class Inliner:
    """The package objects, imports and names one notebook has so far, cell by cell."""

    lang: str
    included: dict[tuple[str, int], str] = field(default_factory=dict)  # key -> where it came in
    names: dict[str, object] = field(default_factory=dict)  # name -> package key or import target

    def note(self, text: str) -> None:
        """Record what a notebook's own code (not the included code) binds at the top level."""
        try:
            tree = ast.parse(strip_magics(text))
        except SyntaxError:
            return  # an included marker inside a block; the static check reports real errors
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    self.names[(alias.asname or alias.name).split(".")[0]] = import_target(node, alias)
            else:
                for name in binds(node):
                    self.names[name] = "notebook"

    def bring(self, module: str, name: str, where: str) -> list[str]:
        """The lines that bring in ``module.name`` and what it needs, for the cell at ``where``."""
        target = code.origin(module, name)
        key = key_of(*target)
        if key in self.included:
            raise DependencyError(f"[[code:{module}.{name}]] is already in this notebook "
                                  f"({self.included[key]}); remove this line")
        order: list[tuple[tuple[str, str], Needs]] = []
        users: dict[tuple[str, int], list[str]] = {}
        seen: set[tuple[str, int]] = set()

        def visit(obj: tuple[str, str]) -> None:
            k = key_of(*obj)
            if k in self.included or k in seen:
                return
            seen.add(k)  # before the dependencies: a cycle (two functions calling each other) ends here
            need = needs(*obj)
            for dep in need.objects:
                users.setdefault(key_of(*dep), []).append(obj[1])
                visit(dep)
            order.append((obj, need))

        visit(target)
        order = reading_order(order)
        place = {o[1]: i for i, (o, _) in enumerate(order)}
        users = {k: sorted(set(names), key=lambda n: place.get(n, 0)) for k, names in users.items()}
        lines = self._imports_for(order, where)
        for obj, _ in order:
            k = key_of(*obj)
            self._claim(obj, k, explicit=obj == target, where=where)
            self.included[k] = where
            if lines:
                lines += ["", ""]
            if obj != target:
                lines.append(ui.text(self.lang, "notebook.needed_by", path=path_of(obj[0]), users=self._names(users[k])))
            lines += code.source_of(*obj).splitlines()
        return lines

    def _names(self, users: list[str], shown: int = 3) -> str:
        if len(users) <= shown:
            return ", ".join(users)
        return ui.text(self.lang, "notebook.more", names=", ".join(users[:shown]), n=len(users) - shown)

    def _imports_for(self, order, where: str) -> list[str]:
        wanted: dict[str, str] = {}
        for (module, name), need in order:
            for bound, statement in need.imports.items():
                imp = ast.parse(statement).body[0]
                meaning = import_target(imp, imp.names[0])
                have = self.names.get(bound)
                if have == meaning:
                    continue
                if have is not None:
                    raise DependencyError(
                        f"{where}: {path_of(module)}'s {name} needs '{bound}' from '{statement}', but "
                        f"the notebook already binds '{bound}' to something else; rename that")
                wanted[bound] = statement
                self.names[bound] = meaning
        plain = sorted(s for s in wanted.values() if s.startswith("import "))
        return plain + sorted(s for s in wanted.values() if s.startswith("from "))

    def _claim(self, obj: tuple[str, str], k, explicit: bool, where: str) -> None:
        for bound in binds(code.definitions(obj[0])[obj[1]]):
            if self.names.get(bound, k) != k and not explicit:
                raise DependencyError(
                    f"{where}: the notebook defines '{bound}' itself, but the package's "
                    f"{bound} ({path_of(obj[0])}) is needed here; rename the notebook's own, or "
                    f"bring the package's in before it with '# [[code:{obj[0]}.{bound}]]'")
            self.names[bound] = k


def _rank(module: str) -> tuple[int, str]:
    top = module.split(".")[0]
    return (READING_ORDER.index(top) if top in READING_ORDER else len(READING_ORDER)), module


def reading_order(order: list[tuple[tuple[str, str], Needs]]) -> list[tuple[tuple[str, str], Needs]]:
    """``order`` (dependencies before users) rearranged: of the objects whose dependencies are
    all placed, the earliest in the package's reading order comes next (a topological sort)."""
    keys = {key_of(*obj): (obj, need) for obj, need in order}
    waiting = {k: {key_of(*d) for d in need.objects} & keys.keys() - {k} for k, (_, need) in keys.items()}
    done: list[tuple[tuple[str, str], Needs]] = []
    while waiting:
        ready = [k for k, deps in waiting.items() if not deps] or list(waiting)  # a cycle: any
        k = min(ready, key=lambda k: (_rank(k[0]), k[1]))
        done.append(keys[k])
        del waiting[k]
        for deps in waiting.values():
            deps.discard(k)
    return done


def strip_magics(text: str) -> str:
    """IPython's ``%pip …`` and ``!cmd`` lines become ``pass``, so the cell parses as Python."""
    return "\n".join(_MAGIC.sub(lambda m: m["indent"] + "pass  # ", line) for line in text.splitlines())


def teaching_definitions() -> dict[str, list[str]]:
    """name -> the teaching modules that define it, for the hint of an undefined name."""
    found: dict[str, list[str]] = {}
    for path in sorted(code.PACKAGE.rglob("*.py")):
        parts = path.relative_to(code.PACKAGE).with_suffix("").parts
        if parts[0] in NOT_TEACHING:
            continue
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if module:
            for name in code.definitions(module):
                found.setdefault(name, []).append(module)
    return found


def check(cells: list[tuple[int, str]], label: str) -> None:
    """Static check of a rendered notebook: ``cells`` are (source cell number, code), in order."""
    starts, chunks, line = [], [], 1
    for number, text in cells:
        text = strip_magics(text)
        try:
            tree = ast.parse(text)
        except SyntaxError as exc:
            raise DependencyError(f"{label}, cell {number}: not valid Python: {exc}") from None
        for node in ast.walk(tree):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            bad = [m for m in mods if m.split(".")[0] in FORBIDDEN_IMPORTS]
            if bad:
                raise DependencyError(f"{label}, cell {number}: imports {bad[0]}, which a student's "
                                      "Colab runtime does not have; bring the code in with "
                                      "'# [[code:module.name]]' instead")
        starts.append(line)
        chunks.append(text)
        line += text.count("\n") + 2
    tree = ast.parse("\n\n".join(chunks))
    flakes = pyflakes_checker.Checker(tree, filename=label, builtins=IPYTHON_NAMES)
    undefined = sorted((m for m in flakes.messages if isinstance(m, pyflakes_messages.UndefinedName)),
                       key=lambda m: m.lineno)
    if undefined:
        m = undefined[0]
        number = cells[bisect.bisect_right(starts, m.lineno) - 1][0]
        name = m.message_args[0]
        modules = teaching_definitions().get(name)
        fix = (f"add the line '# [[code:{modules[0]}.{name}]]' to that cell or an earlier one"
               if modules else "define or import it in an earlier cell")
        raise DependencyError(f"{label}, cell {number}: '{name}' is used but no earlier cell "
                              f"defines it; {fix}")

