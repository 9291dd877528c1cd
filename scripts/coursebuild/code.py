"""Include code from ``tutorial_code`` in pages: ``[[code:attention.scaled_dot_product_attention]]``.

The marker (a block kind of :mod:`coursebuild.markers`: alone on its line, indent kept) names a
module of the package (dotted, relative to ``tutorial_code``) and, optionally, a top-level
function, class or constant (``NAME = ...``) in it; it becomes a fenced Python block with that
object's source, decorators included, exactly as it stands in the file. An unknown module or
name fails the build with the closest name that exists. The notebooks' ``# [[code:…]]`` lines
(:mod:`coursebuild.notebooks`) use :func:`resolve` and :func:`source_of` the same way.
"""

from __future__ import annotations

import ast
import difflib
from pathlib import Path

from .paths import TUTORIAL

PACKAGE = TUTORIAL


def module_path(module: str) -> Path | None:
    path = PACKAGE.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def source_of(module: str, name: str | None = None) -> str:
    """The source of ``tutorial_code.<module>`` or of one top-level object in it."""
    path = module_path(module)
    if path is None:
        # "attention.scaled_dot_product_attention" may also be read as a module path
        raise KeyError(f"no module tutorial_code.{module} (looked for {module.replace('.', '/')}.py)")
    text = path.read_text(encoding="utf-8")
    if name is None:
        return text.rstrip("\n")
    tree = ast.parse(text)
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    for n in tree.body:  # module-level constants: NAME = ..., NAME: type = ..., A, B = 1, 2
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
        names = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
        defs.update({e.id: n for e in names if isinstance(e, ast.Name) and e.id not in defs})
    if name not in defs:
        close = difflib.get_close_matches(name, defs, n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        raise KeyError(f"tutorial_code/{module}.py has no function, class or constant '{name}'.{hint} "
                       f"It defines: {', '.join(defs)}")
    node = defs[name]
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
    label = f"tutorial_code/{module.replace('.', '/')}.py"
    return f'```python title="{label}"\n{source_of(module, name)}\n```'
