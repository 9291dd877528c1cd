"""Include code from ``tutorial_code`` in pages: ``[[code:attention.scaled_dot_product_attention]]``.

The marker names a module of the package (dotted, relative to ``tutorial_code``) and,
optionally, a top-level function, class or constant (``NAME = ...``) in it; it becomes a fenced Python block with that
object's source, decorators included, exactly as it stands in the file. An unknown module or
name fails the build with the names that exist.
"""

from __future__ import annotations

import ast
import difflib
import re
from pathlib import Path

from .paths import TUTORIAL

PACKAGE = TUTORIAL
MARKER = re.compile(r"^(?P<indent>[ \t]*)\[\[code:(?P<module>[A-Za-z_][\w.]*?)(?:\.(?P<name>[A-Za-z_]\w*))?\]\][ \t]*$", re.M)


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
                raise KeyError(f"[[code:{target}]]: only top-level names can be included, not {'.'.join(rest)}")
            return module, (rest[0] if rest else None)
    raise KeyError(f"[[code:{target}]]: no module of tutorial_code matches '{target}'")


def render_code_markers(markdown: str) -> str:
    """Replace every ``[[code:…]]`` line with a fenced Python block (keeping its indent)."""
    def replace(m: re.Match) -> str:
        target = m["module"] + (f".{m['name']}" if m["name"] else "")
        module, name = resolve(target)
        src = source_of(module, name)
        label = f"tutorial_code/{module.replace('.', '/')}.py"
        block = f'```python title="{label}"\n{src}\n```'
        return "\n".join(m["indent"] + line if line else line for line in block.splitlines())
    return MARKER.sub(replace, markdown)
