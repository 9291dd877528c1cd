"""Include code from ``tutorial_code`` in pages: ``[[code:attention.scaled_dot_product_attention]]``.

The marker (a block kind of :mod:`coursebuild.markers`: alone on its line, indent kept) names a
module of the package (dotted, relative to ``tutorial_code``) and, optionally, a top-level
function, class or constant (``NAME = ...``) in it; it becomes a fenced Python block with that
object's source, decorators included, exactly as it stands in the file. A name that a module
imports from another module of the package (``experiments.lstm_vs_attention`` imports
``FirstCellTransformer`` from ``classifiers``) is followed to where it is defined, so a moved
object keeps its old address. An unknown module or name fails the build with the closest name
that exists. The notebooks' ``# [[code:…]]`` lines (:mod:`coursebuild.notebooks`) use
:func:`resolve` and :func:`source_of` the same way.
"""

from __future__ import annotations

import ast
import difflib
import functools
from pathlib import Path

from ..paths import TUTORIAL

PACKAGE = TUTORIAL


def module_path(module: str) -> Path | None:
    path = PACKAGE.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def parsed(module: str) -> tuple[str, ast.Module]:
    path = module_path(module)
    if path is None:
        # "attention.scaled_dot_product_attention" may also be read as a module path
        raise KeyError(f"no module tutorial_code.{module} (looked for {module.replace('.', '/')}.py)")
    return _parse(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _parse(path: Path, mtime_ns: int) -> tuple[str, ast.Module]:
    # keyed by the modification time too: `mkdocs serve` keeps this process alive across edits
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text)


def definitions(module: str) -> dict[str, ast.stmt]:
    """The top-level functions, classes and constants (``NAME = ...``) of a module, by name.

    A statement that binds several names (``PAD, BOS, EOS = 0, 1, 2``) is listed under each.
    """
    tree = parsed(module)[1]
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    for n in tree.body:  # module-level constants: NAME = ..., NAME: type = ..., A, B = 1, 2
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
        names = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
        defs.update({e.id: n for e in names if isinstance(e, ast.Name) and e.id not in defs})
    return defs


def package_module(module: str, node: ast.ImportFrom | ast.Import, imported: str | None = None) -> str | None:
    """The package module (relative to ``tutorial_code``) that an import in ``module`` names, or None.

    ``from .masks import x`` and ``from tutorial_code.masks import x`` name ``masks``;
    ``from . import masks`` names ``masks`` when ``imported`` is ``"masks"``.
    """
    if isinstance(node, ast.Import):
        parts = (imported or "").split(".")
        return ".".join(parts[1:]) or None if parts[0] == PACKAGE.name else None
    if node.level:
        base = module.split(".")[: -node.level]
        parts = base + (node.module.split(".") if node.module else [])
    elif (node.module or "").split(".")[0] == PACKAGE.name:
        parts = node.module.split(".")[1:]
    else:
        return None
    if imported is not None and module_path(".".join(parts + [imported])) is not None:
        parts = parts + [imported]  # from . import masks: the name is a module
    return ".".join(parts)


def origin(module: str, name: str) -> tuple[str, str]:
    """Where ``name``, as ``tutorial_code.<module>`` sees it, is defined: (module, name).

    Follows ``from .other import name`` (and ``as`` renames) through the package.
    """
    if name in definitions(module):
        return module, name
    for node in parsed(module)[1].body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    source = package_module(module, node)
                    if source is not None and module_path(source) is not None and \
                            module_path(f"{source}.{alias.name}") is None:
                        return origin(source, alias.name)
    close = difflib.get_close_matches(name, definitions(module), n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    raise KeyError(f"tutorial_code/{module.replace('.', '/')}.py has no function, class or constant "
                   f"'{name}'.{hint} It defines: {', '.join(definitions(module))}")


def source_of(module: str, name: str | None = None) -> str:
    """The source of ``tutorial_code.<module>`` or of one top-level object in it (or imported
    into it from the package, see :func:`origin`)."""
    text = parsed(module)[0]
    if name is None:
        return text.rstrip("\n")
    module, name = origin(module, name)
    text = parsed(module)[0]
    node = definitions(module)[name]
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return "\n".join(text.splitlines()[start - 1 : node.end_lineno])


def resolve(target: str) -> tuple[str, str | None]:
    """Split ``a.b.c`` into (module, name): the longest prefix that is a module wins."""
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        if module_path(module) is not None:
            rest = parts[cut:]
            if len(rest) > 1:
                raise KeyError(f"'{target}': only top-level names can be included, not {'.'.join(rest)}")
            return module, (rest[0] if rest else None)
    modules = sorted(".".join(p.relative_to(PACKAGE).with_suffix("").parts) for p in PACKAGE.rglob("*.py")
                     if p.name != "__init__.py")
    close = difflib.get_close_matches(parts[0], modules, n=1)
    hint = f" Did you mean '{close[0]}'?" if close else ""
    raise KeyError(f"no module of tutorial_code matches '{target}'.{hint}")


def code_marker(target: str | None, fmt: str | None, ctx) -> str:
    """``[[code:module.name]]``: a fenced Python block titled with the file it comes from."""
    if not target:
        raise ValueError("needs a module or module.name of tutorial_code, "
                         "e.g. [[code:attention.scaled_dot_product_attention]]")
    if fmt is not None:
        raise ValueError(f"takes no format after '|' (got '{fmt}')")
    module, name = resolve(target)
    label = f"tutorial_code/{(origin(module, name)[0] if name else module).replace('.', '/')}.py"
    return f'```python title="{label}"\n{source_of(module, name)}\n```'
