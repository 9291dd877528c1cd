"""Every function, class, module or file a text names in code font exists where the text says.

A page that names `masks.padding_mask` sends the student to ``tutorial_code/masks.py``; one that
names `torch.nn.functional.scaled_dot_product_attention` or `nn.MultiheadAttention` sends them to
PyTorch; one that names a JavaScript function (`attendHeadBackward`) sends them to the page's own
scripts; one that names `tutorial_code/attention.py` to that file. The texts read are every page
in both languages, the check questions, self-checks and assignments, the lab notebooks' text
cells (both languages) and the build's own strings. A code span that is one identifier, dotted
name or file path is looked up where it points:

* ``torch.…``, ``nn.…``, ``F.…`` (and a tensor method such as `view`) in the installed PyTorch,
  ``time.…`` and other standard modules by import;
* ``<module>.<name>`` of a ``tutorial_code`` module in that module, ``<Class>.<method>`` on the
  class, ``results.<key>`` among the keys the experiments write;
* any other identifier must be *defined* (a function, class, argument, variable, attribute or
  results key) in ``tutorial_code/``, or defined in the page scripts under
  ``docs/assets/javascripts/``, or appear in the text's own code (a notebook's code cells, a
  page's code blocks); an UPPER_CASE name must be an environment variable the code reads or the
  publishing workflow sets; a word the workflow offers as an input's option (`student`) counts;
* a file or folder path must exist in the repository, or be a build output the build's code
  names (`site-instructor.zip`);
* a JavaScript function a page names must also be *called* somewhere in those scripts (not only
  defined, nor only named in a comment), and one named in the section that holds the in-page trainer must be reached from
  the trainer's step (``trainStep``) through the scripts' calls: a page that says training
  computes something in a function that training never calls names the wrong function.

Names that belong to another code base the page cites (The Annotated Transformer's classes), and
the few code-font words that are values rather than names, are listed in ``ELSEWHERE`` with why.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from functools import lru_cache

import pytest
import yaml

from coursebuild.paths import DOCS
from coursebuild.text import markdown

ROOT = DOCS.parent
JS = DOCS / "assets" / "javascripts"
WORKFLOWS = ROOT / ".github" / "workflows"
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?")
# a file or folder: a path with a slash (tutorial_code/masks.py, docs/questions/, site/) or a
# file name with an extension (mkdocs.yml, results.json); not a URL, a command or a placeholder
PATH = re.compile(r"\.?[\w-]+(?:\.[\w-]+)*/(?:[\w.-]+/?)*|[\w-]+(?:\.[\w-]+)*\.(?:py|js|yml|yaml|json|md|zip|pdf|ipynb|txt|toml|sh|css|html)")
FILE_EXT = re.compile(r"\.(?:py|js|yml|yaml|json|md|zip|pdf|ipynb|txt|toml|sh|css|html)$")
# names of other code bases that a page cites, and values written in code font
ELSEWHERE = {
    "SublayerConnection": "The Annotated Transformer", "SublayerConnection.forward": "The Annotated Transformer",
    "MultiHeadedAttention": "The Annotated Transformer",
    "NaN": "a floating-point value (what float('nan') prints in JavaScript), not a name",
    "experiment.figure": "the pattern of a figure's key on the references page, <experiment>.<figure>",
}
# the JavaScript function that runs one training step of the in-page trainer, and the widget it
# belongs to: a section that holds that widget talks about the trainer
TRAINER_STEP, TRAINER_WIDGET = "trainStep", "[[widget:browser_training.train]]"


def _notebook_cells(text: str) -> tuple[str, str]:
    """A percent-script notebook's text cells (comment lines of ``# %% [markdown]`` cells) and
    its code cells."""
    prose, code = [], []
    for cell in re.split(r"^# %%", text, flags=re.M)[1:]:
        head, _, body = cell.partition("\n")
        if "[markdown]" in head:
            prose.append(re.sub(r"^# ?", "", body, flags=re.M))
        else:
            code.append(body)
    return "\n".join(prose), "\n".join(code)


def _strings(data) -> list[str]:
    """The strings of a YAML document (what its readers see; its comments are for writers)."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def _fences(text: str) -> str:
    return "\n".join(b.text for b in markdown.blocks(text) if b.kind == "fence")


def sources():
    """(where, text, the text's own code) of every text that may name code in code font."""
    for lang in ("ko", "en"):
        for path in sorted((DOCS / lang).rglob("*.md")):
            text = path.read_text(encoding="utf-8")
            yield path.relative_to(ROOT).as_posix(), text, _fences(text)
    for path in [*sorted((DOCS / "questions").glob("*.yml")), DOCS / "glossary.yml", DOCS / "references.yml",
                 *sorted((ROOT / "scripts" / "coursebuild" / "content" / "ui").glob("*.yml"))]:
        yield path.relative_to(ROOT).as_posix(), "\n\n".join(_strings(yaml.safe_load(path.read_text(encoding="utf-8")))), ""
    for path in sorted((ROOT / "tutorial_code" / "notebooks").glob("*.py")):
        prose, code = _notebook_cells(path.read_text(encoding="utf-8"))
        yield path.relative_to(ROOT).as_posix(), prose, code


def spans(text: str) -> list[str]:
    """The code spans of a text, outside code blocks."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [m.group(1).strip() for m in CODE_SPAN.finditer(text)]


def named(text: str) -> set[str]:
    """The code names a text puts in code font: a whole code span that is one identifier, dotted
    name or path (`combine_masks`, `masks.padding_mask`, `backward()`, `tutorial_code/masks.py`),
    not a value or an expression (`True`, `dim=-1`, `(B, L)`)."""
    out = set()
    for span in spans(text):
        if PATH.fullmatch(span) and not re.fullmatch(r"\.\w+", span):  # not an extension alone (.ipynb)
            out.add(span)
        elif IDENT.fullmatch(span) and len(span.removesuffix("()")) > 1:
            out.add(span.removesuffix("()"))
    return out


@lru_cache(maxsize=1)
def python_definitions() -> frozenset[str]:
    """Every name ``tutorial_code/`` defines: functions, classes, arguments, assigned variables
    and attributes, imported names, and the string keys its dictionaries are given (results keys)."""
    out = set()
    for path in (ROOT / "tutorial_code").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.arg):
                out.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                out.add(node.attr)
            elif isinstance(node, ast.alias):
                out.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, ast.Dict):
                out.update(k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                out.add(node.slice.value)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
                out.update(k.arg for k in node.keywords if k.arg)
    return frozenset(out)


@lru_cache(maxsize=1)
def js_sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(JS.rglob("*.js")) if "vendor" not in p.parts)


def js_function_names() -> set[str]:
    pattern = r"\bfunction\s+([A-Za-z_$][\w$]*)|\b([A-Za-z_$][\w$]*)\s*[:=]\s*function\b"
    return {a or b for a, b in re.findall(pattern, js_sources())}


def js_definitions() -> set[str]:
    """Functions, variables and object keys the page scripts define."""
    src = js_sources()
    return (js_function_names() | set(re.findall(r"\b(?:var|let|const)\s+([A-Za-z_$][\w$]*)", src))
            | set(re.findall(r"([A-Za-z_$][\w$]*)\s*:", src)))


def js_called(name: str) -> bool:
    """Called somewhere, in code (not in a comment or a string): ``name(`` that is not its own
    definition (``function name(``, ``name: function(``)."""
    src = _without_strings_and_comments(js_sources())
    calls = [m for m in re.finditer(rf"(?<![\w$]){re.escape(name)}\s*\(", src)
             if not re.search(r"function\s*$", src[max(0, m.start() - 20):m.start()])]
    return bool(calls)


def _without_strings_and_comments(src: str) -> str:
    """The scripts with comments and the insides of string literals blanked (same length), so
    that braces and names in them are not read as code."""
    pattern = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`", re.S)
    return pattern.sub(lambda m: m[0][0] + " " * (len(m[0]) - 2) + m[0][-1] if m[0][0] in "\"'`"
                       else " " * len(m[0]), src)


def js_call_graph(src: str) -> dict[str, set[str]]:
    """{function: the functions its body names}, for every ``function name(…) {…}`` and
    ``name: function (…) {…}`` of ``src``. A nested function's names count for the function
    around it too; a name defined twice joins both bodies."""
    code = _without_strings_and_comments(src)
    definitions = re.compile(r"\bfunction\s+([A-Za-z_$][\w$]*)\s*\(|\b([A-Za-z_$][\w$]*)\s*[:=]\s*function\s*\(")
    bodies: dict[str, list[str]] = {}
    for m in definitions.finditer(code):
        name, start = m[1] or m[2], code.find("{", m.end())
        depth, i = 0, start
        while i < len(code):
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            if depth == 0:
                break
            i += 1
        bodies.setdefault(name, []).append(code[start + 1:i])
    names = set(bodies)
    return {name: {w for body in texts for w in re.findall(r"[A-Za-z_$][\w$]*", body) if w in names and w != name}
            for name, texts in bodies.items()}


def reached_from(start: str, graph: dict[str, set[str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for callee in graph.get(todo.pop(), ()):
            if callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return seen


def trainer_sections(text: str) -> str:
    """The ``##`` sections of a page that hold the in-page trainer's widget."""
    return "\n".join(s for s in markdown.sections(text).values() if TRAINER_WIDGET in s) if TRAINER_WIDGET in text else ""


@lru_cache(maxsize=1)
def environment_variables() -> frozenset[str]:
    """UPPER_CASE names the code reads from the environment (as string literals in Python) or
    the publishing workflow sets or takes (its env keys, ``vars.X``, ``secrets.X``)."""
    out = set()
    for path in [*(ROOT / "tutorial_code").rglob("*.py"), *(ROOT / "scripts").rglob("*.py")]:
        out.update(re.findall(r"[\"']([A-Z][A-Z0-9_]+)[\"']", path.read_text(encoding="utf-8")))
    for path in WORKFLOWS.glob("*.yml"):
        text = path.read_text(encoding="utf-8")
        out.update(re.findall(r"\b(?:vars|secrets|env)\.([A-Z][A-Z0-9_]+)", text))
        out.update(re.findall(r"^\s+([A-Z][A-Z0-9_]+):", text, flags=re.M))
    return frozenset(out)


@lru_cache(maxsize=1)
def workflow_options() -> frozenset[str]:
    out = set()
    for path in WORKFLOWS.glob("*.yml"):
        flow = yaml.safe_load(path.read_text(encoding="utf-8"))
        triggers = flow.get("on", flow.get(True, {})) or {}
        for spec in ((triggers.get("workflow_dispatch") or {}).get("inputs") or {}).values():
            out.update(str(o) for o in spec.get("options", ()))
    return frozenset(out)


@lru_cache(maxsize=1)
def build_code() -> str:
    files = [*(ROOT / "scripts").rglob("*.py"), *WORKFLOWS.glob("*.yml"), ROOT / ".gitignore"]
    return "\n".join(f.read_text(encoding="utf-8") for f in files if f.is_file())


def resolves(dotted: str, root) -> bool:
    obj = root
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _torch_has(name: str) -> bool:
    import torch
    import torch.nn.functional as F

    return any(hasattr(root, name) for root in (torch, torch.Tensor, torch.nn, F))


def path_problem(path: str) -> str | None:
    bare = path.rstrip("/")
    if (ROOT / bare).exists() or (DOCS / bare).exists() or any(p.name == bare for p in JS.rglob("*.js")):
        return None
    if "/" not in bare and any(p.name == bare for p in (ROOT / "tutorial_code").rglob("*")):
        return None  # a file name the page sets in its folder's context (results.json is written there)
    if re.search(rf"(?<![\w-]){re.escape(bare)}(?![\w-])", build_code()):
        return None  # a build output: site/, site-instructor.zip, downloads/course-code.zip
    return f"no file or folder {path} in the repository, and the build makes none"


def problem(name: str, own_code: str = "") -> str | None:
    """Why ``name`` does not exist where a text says it does, or None. ``own_code`` is the code
    the same text shows (a notebook's code cells, a page's code blocks)."""
    if name in ELSEWHERE or hasattr(builtins, name):
        return None
    if PATH.fullmatch(name) and (not IDENT.fullmatch(name) or FILE_EXT.search(name)):
        return path_problem(name)
    head, _, rest = name.partition(".")
    if "." not in name and ((ROOT / name).exists() or any(p.stem == name for p in (ROOT / "tutorial_code").rglob("*.py"))):
        return None  # a folder or module named by itself: tutorial_code, lstm_vs_attention
    if head in ("torch", "nn", "F") and rest:
        import torch
        import torch.nn.functional

        root = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional}[head]
        return None if resolves(rest, root) else f"PyTorch has no {name}"
    if rest and (ROOT / "tutorial_code" / f"{head}.py").is_file():
        module = importlib.import_module(f"tutorial_code.{head}")
        return None if resolves(rest, module) else f"tutorial_code/{head}.py has no {rest}"
    if rest and head == "results":  # a key of an experiment's results
        missing = [k for k in rest.split(".") if k not in python_definitions()]
        return f"no experiment writes the results key {', '.join(missing)}" if missing else None
    if rest and head in ("time", "math", "os", "random", "json"):
        return None if resolves(rest, importlib.import_module(head)) else f"Python's {head} has no {rest}"
    if rest:
        import tutorial_code

        if hasattr(tutorial_code, head):
            return None if resolves(rest, getattr(tutorial_code, head)) else f"tutorial_code's {head} has no {rest}"
        if head in js_definitions() and rest.split(".")[-1] in js_function_names():
            return None
        return f"no code of the course defines {name}"
    if re.fullmatch(r"[A-Z][A-Z0-9_]+", name) and name not in python_definitions():
        return None if name in environment_variables() else \
            f"{name} is no environment variable the code reads or the workflow sets"
    if name in js_function_names() and not js_called(name):
        return f"the page scripts define {name} but never call it"
    own = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", own_code))
    if (name in python_definitions() or name in js_definitions() or name in own or _torch_has(name)
            or name in workflow_options()):
        return None
    return f"no code of the course defines {name}"


def trainer_problem(name: str, graph: dict[str, set[str]] | None = None) -> str | None:
    """Why the JavaScript function ``name``, named as part of the trainer, is not what training
    runs, or None (a name that is no page-script function is left to :func:`problem`)."""
    graph = js_call_graph(js_sources()) if graph is None else graph
    if name not in graph:
        return None
    if name not in reached_from(TRAINER_STEP, graph):
        return f"the trainer's {TRAINER_STEP} never reaches {name}"
    return None


def test_every_named_function_class_and_file_exists_where_the_text_says():
    found, seen = [], 0
    for where, text, own_code in sources():
        for name in sorted(named(text)):
            seen += 1
            why = problem(name, own_code)
            if why:
                found.append(f"{where}: `{name}`: {why}")
    assert seen > 100, "the texts name code in code font; did the reading of them break?"
    assert not found, "\n".join(found)


def test_every_function_named_beside_the_trainer_is_one_training_runs():
    graph = js_call_graph(js_sources())
    assert TRAINER_STEP in graph, f"the page scripts define no {TRAINER_STEP}"
    found, checked = [], 0
    for where, text, _ in sources():
        for name in sorted(named(trainer_sections(text))):
            checked += name in graph
            why = trainer_problem(name, graph)
            if why:
                found.append(f"{where}: `{name}`: {why}")
    assert checked >= 2, "lesson 8 names the trainer's functions in both languages"
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name, complaint", [
    ("masks.padding_masks", "tutorial_code/masks.py has no padding_masks"),
    ("torch.nn.functional.scaled_dot_product_attentions", "PyTorch has no"),
    ("nn.MultiHeadAttention", "PyTorch has no"),
    ("combine_mask", "no code of the course"),
    ("attendHeadBackwards", "no code of the course"),
    ("MultiHeadAttention.backward", "tutorial_code's MultiHeadAttention has no backward"),
    ("results.no_positions", "no experiment writes the results key no_positions"),
    ("tutorial_code/mask.py", "no file or folder"),
    ("COURSE_EDITIONS", "no environment variable"),
    ("scaledDotProductAttentionBackward", "no code of the course"),
])
def test_the_check_fails_on_a_wrong_name(name, complaint):
    assert complaint in (problem(name) or ""), name


@pytest.mark.parametrize("name", [
    "masks.padding_mask", "F.scaled_dot_product_attention", "view", "tutorial_code/attention.py", "docs/questions/",
    "site-instructor.zip", "COURSE_EDITION", "TUTORIAL_DEVICE", "student", "results.no_position", "MultiHeadAttention.forward",
    "attendHeadBackward", "tutorial_code", "verb_weight_by_layer",
])
def test_the_check_finds_what_exists(name):
    assert problem(name) is None, (name, problem(name))


def test_a_name_only_the_texts_own_code_defines_is_found_there():
    assert problem("grads_after_shuffle") and not problem("grads_after_shuffle", "grads_after_shuffle = 1")


def test_the_check_finds_a_function_the_scripts_never_call(monkeypatch):
    src = "function usedOne(a) { return a; }\nfunction neverCalled(b) { return usedOne(b); }\n" \
          "// neverCalled(x) in a comment is no call\n"
    monkeypatch.setitem(globals(), "js_sources", lambda: src)
    assert js_called("usedOne") and not js_called("neverCalled")
    assert {"usedOne", "neverCalled"} <= js_function_names()


# the shape of transformer.js before the wrapper nothing called was removed: the trainer's step
# reaches the attention backward pass through the multi-head one; the one-head wrapper is only
# exported (tests called it)
OLD_SCRIPTS = """
function attendHeadBackward(q, k, v) { return q; }
function scaledDotProductAttentionBackward(q, k, v) { return attendHeadBackward(q, k, v); }
function multiHeadAttentionBackward(x) { for (const h of x) attendHeadBackward(h, h, h); }
function seq2seqLoss(m) { multiHeadAttentionBackward(m); /* not scaledDotProductAttentionBackward( */ }
const Trainer = { trainStep: function (a) { return G.Transformer.seq2seqLoss(a); } };
const Transformer = { seq2seqLoss: seq2seqLoss, scaledDotProductAttentionBackward: scaledDotProductAttentionBackward };
"""
OLD_SENTENCE = ("## Train it yourself { #train-it-yourself }\n\n[[widget:browser_training.train]]\n\n"
                "The trainer above does the same, one query's row at a time, in `scaledDotProductAttentionBackward`.\n")


def test_the_trainer_check_fails_on_the_function_training_never_calls():
    graph = js_call_graph(OLD_SCRIPTS)
    assert reached_from(TRAINER_STEP, graph) >= {"seq2seqLoss", "multiHeadAttentionBackward", "attendHeadBackward"}
    names = named(trainer_sections(OLD_SENTENCE))
    assert names == {"scaledDotProductAttentionBackward"}
    assert "never reaches scaledDotProductAttentionBackward" in trainer_problem("scaledDotProductAttentionBackward", graph)
    assert trainer_problem("attendHeadBackward", graph) is None
    assert trainer_problem("multiHeadAttentionBackward", graph) is None


def test_named_picks_out_code_names_only():
    text = ("Call `masks.padding_mask` and `combine_masks`, not `True`, `x`, `dim=-1` or `(B, L)`; `backward()`; "
            "open `tutorial_code/masks.py`, not `https://example.org/a` or `bash scripts/setup.sh`.")
    assert named(text) == {"masks.padding_mask", "combine_masks", "True", "backward", "tutorial_code/masks.py"}


def test_notebook_text_cells_are_read_apart_from_code():
    prose, code = _notebook_cells('# %% [markdown] lang="en"\n# Run `make_batch`.\n\n# %%\nx = make_batch()\n')
    assert "`make_batch`" in prose and "x = make_batch()" in code and "`" not in code
