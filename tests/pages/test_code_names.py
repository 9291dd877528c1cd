"""Every function, class, module or file a page names in code font exists where the page says.

A page that names `masks.padding_mask` sends the student to ``tutorial_code/masks.py``; one that
names `torch.nn.functional.scaled_dot_product_attention` or `nn.MultiheadAttention` sends them to
PyTorch; one that names a JavaScript function (`attendHeadBackward`) sends them to the page's own
scripts. Each such name is looked up where it points:

* ``torch.…``, ``nn.…`` and ``F.…`` in the installed PyTorch;
* ``<module>.<name>`` of a ``tutorial_code`` module in that module;
* any other identifier (snake_case, CamelCase, camelCase) as a name defined or used in the course's
  code: ``tutorial_code/``, ``scripts/`` and the page scripts under ``docs/assets/javascripts/``;
* a JavaScript function a page names must also be *called* somewhere in those scripts, not only
  defined: a page that says the trainer computes something in a function training never calls
  (a wrapper kept for tests) names the wrong function.

Names that belong to another code base the page cites (The Annotated Transformer's classes) are
listed in ``ELSEWHERE`` with the work they come from.
"""

from __future__ import annotations

import builtins
import importlib
import re
from functools import lru_cache

import pytest

from coursebuild.paths import DOCS

ROOT = DOCS.parent
JS = DOCS / "assets" / "javascripts"
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?")
# names of other code bases that a page cites, and where they come from
ELSEWHERE = {
    "SublayerConnection": "The Annotated Transformer", "SublayerConnection.forward": "The Annotated Transformer",
    "MultiHeadedAttention": "The Annotated Transformer",
}


def page_sources():
    for lang in ("ko", "en"):
        for path in sorted((DOCS / lang).rglob("*.md")):
            if "notebooks" not in path.parts:
                yield path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted((DOCS / "questions").glob("*.yml")):
        yield path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8")


def named(text: str) -> set[str]:
    """The code names a text puts in code font: a whole code span that is one identifier
    (`combine_masks`, `masks.padding_mask`, `backward()`), not a value or an expression."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    out = set()
    for m in CODE_SPAN.finditer(text):
        span = m.group(1).strip()
        if IDENT.fullmatch(span):
            name = span.removesuffix("()")
            last = name.split(".")[-1]
            if ("_" in last.strip("_") or re.search(r"[a-z][A-Z]|^[A-Z][a-z]+[A-Z]", last) or "." in name
                    or span.endswith("()")):
                out.add(name)
    return out


@lru_cache(maxsize=1)
def code_words() -> frozenset[str]:
    # the publishing workflow defines the variables and secrets a page tells an instructor to set
    files = [*(ROOT / "tutorial_code").rglob("*.py"), *(ROOT / "scripts").rglob("*.py"), *JS.rglob("*.js"),
             *(ROOT / ".github" / "workflows").glob("*.yml")]
    return frozenset(w for f in files for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def js_sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(JS.rglob("*.js")) if "vendor" not in p.parts)


def js_function_names() -> set[str]:
    pattern = r"\bfunction\s+([A-Za-z_$][\w$]*)|\b([A-Za-z_$][\w$]*)\s*[:=]\s*function\b"
    return {a or b for a, b in re.findall(pattern, js_sources())}


def js_called(name: str) -> bool:
    """Called somewhere: ``name(`` that is not its own definition (``function name(``, ``name: function(``)."""
    src = js_sources()
    calls = [m for m in re.finditer(rf"(?<![\w$]){re.escape(name)}\s*\(", src)
             if not re.search(r"function\s*$", src[max(0, m.start() - 20):m.start()])]
    return bool(calls)


def resolves(dotted: str, root) -> bool:
    obj = root
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def problem(name: str) -> str | None:
    """Why ``name`` does not exist where a page says it does, or None."""
    if name in ELSEWHERE or hasattr(builtins, name):
        return None
    head, _, rest = name.partition(".")
    if head in ("torch", "nn", "F") and rest:
        import torch
        import torch.nn.functional

        root = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional}[head]
        return None if resolves(rest, root) else f"PyTorch has no {name}"
    if rest and (ROOT / "tutorial_code" / f"{head}.py").is_file():
        module = importlib.import_module(f"tutorial_code.{head}")
        return None if resolves(rest, module) else f"tutorial_code/{head}.py has no {rest}"
    if rest and head in ("results", "experiment", "self"):  # a key of a results file, a placeholder
        return None
    if (ROOT / name).exists() or any(p.name == name for p in JS.rglob("*.js")):
        return None  # a file: mkdocs.yml, transformer.js
    words = code_words()
    missing = [part for part in name.split(".") if part not in words]
    if missing:
        return f"no code of the course defines or uses {', '.join(missing)}"
    if name in js_function_names() and not js_called(name):
        return f"the page scripts define {name} but never call it"
    return None


def test_every_named_function_class_and_file_exists_where_the_page_says():
    found = []
    for where, text in page_sources():
        for name in sorted(named(text)):
            why = problem(name)
            if why:
                found.append(f"{where}: `{name}`: {why}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name, complaint", [
    ("masks.padding_masks", "tutorial_code/masks.py has no padding_masks"),
    ("torch.nn.functional.scaled_dot_product_attentions", "PyTorch has no"),
    ("nn.MultiHeadAttention", "PyTorch has no"),
    ("combine_mask", "no code of the course"),
    ("attendHeadBackwards", "no code of the course"),
])
def test_the_check_fails_on_a_wrong_name(name, complaint):
    assert complaint in (problem(name) or ""), name


def test_the_check_finds_a_function_the_scripts_never_call(monkeypatch):
    src = "function usedOne(a) { return a; }\nfunction neverCalled(b) { return usedOne(b); }\n"
    monkeypatch.setitem(globals(), "js_sources", lambda: src)
    assert js_called("usedOne") and not js_called("neverCalled")
    assert {"usedOne", "neverCalled"} <= js_function_names()


def test_named_picks_out_code_names_only():
    text = "Call `masks.padding_mask` and `combine_masks`, not `True`, `x`, `dim=-1` or `(B, L)`; `backward()`."
    assert named(text) == {"masks.padding_mask", "combine_masks", "backward"}
