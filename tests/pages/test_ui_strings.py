"""The build's own UI strings (scripts/coursebuild/content/ui/<lang>.yml, read by coursebuild.content.ui).

The files are read here with yaml directly, not through the module: both languages have the same
keys, each key the same {fields} in both; every key the build's code looks up (a ``ui.text(lang,
"key", ...)`` or ``ui.both("key", ...)`` call, found by reading the package's source) is in the
files, every key in the files is looked up somewhere, and every lookup names its key as a literal
(so this scan sees all of them). No Korean text is left in the package's code outside docstrings,
comments and the places listed in ALLOWED_HANGUL, each with the reason it belongs in code. The
lookup's errors name the file and the key.
"""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
import yaml

from coursebuild.content import ui

PACKAGE = Path(ui.__file__).resolve().parents[1]       # scripts/coursebuild
UI_FOLDER = PACKAGE / "content" / "ui"
LANGS = ("ko", "en")
HANGUL = re.compile("[\uac00-\ud7a3]")

# (module, top-level name): why its Korean text stays in code; "*": the whole module
ALLOWED_HANGUL = {
    ("text/josa.py", "*"): "the rules of Korean particles (이/가, 을/를, ...) and how numbers are read",
    ("text/formulas.py", "*"): "how a formula is read aloud in Korean (피 엑스, 전치, 알파), a rule of Korean that "
                               "picks the particle after it",
    ("text/numbers.py", "KO"): "Korean native numbers before a noun (한, 두, 세, ...), a counting rule",
    ("course.py", "LESSONS"): "the lesson titles, the course's own definition",
    ("content/glossary.py", "_KO_PARTICLES"): "the endings that may follow a glossary term, a rule of Korean",
    ("content/glossary.py", "term_pattern"): "the Hangul syllable range that bounds a Korean word in the pattern",
    ("content/glossary.py", "_wrong_word"): "the Hangul syllable range that tells where a Korean word begins",
    ("content/selfcheck.py", "PRECISION"): "the phrases of authored questions that ask for a precision (parsed)",
    ("pages/plan.py", "_STEP"): "the regex that reads a step's '(2분)' in the authored instructor guide",
    ("pages/plan.py", "demo_steps"): "a developer's error message quoting the authored form '(2분)'",
    ("pages/get_code.py", "archive_parts"): "the particle (과/와) that josa.particle fits to the last word",
    ("notebooks/build.py", "HANGUL_FONT_CELL"): "a code cell only Korean notebooks get (it installs a Hangul "
                                                "font for the graphs); there is no English counterpart",
}


def flat(data, prefix=""):
    out = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            assert isinstance(value, str), f"{prefix}{key}: {value!r} is not a text"
            out[f"{prefix}{key}"] = value
    return out


def files():
    return {lang: flat(yaml.safe_load((UI_FOLDER / f"{lang}.yml").read_text(encoding="utf-8"))) for lang in LANGS}


def field_names(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def modules():
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def lookups(tree: ast.AST) -> list[tuple[int, str | None]]:
    """(line, key) of each ui.text(lang, key, ...) and ui.both(key, ...) call; key None when not a literal."""
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "ui"
                and node.func.attr in ("text", "both")):
            args = node.args[1:2] if node.func.attr == "text" else node.args[:1]
            key = args[0].value if args and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str) else None
            out.append((node.lineno, key))
    return out


def used_keys() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for path in modules():
        for line, key in lookups(ast.parse(path.read_text(encoding="utf-8"))):
            used.setdefault(key, []).append(f"{path.relative_to(PACKAGE)}:{line}")
    return used


# ---------------------------------------------------------------- the files

def test_both_languages_have_the_same_keys():
    texts = files()
    only_ko, only_en = set(texts["ko"]) - set(texts["en"]), set(texts["en"]) - set(texts["ko"])
    assert not only_ko and not only_en, f"only in ko.yml: {sorted(only_ko)}; only in en.yml: {sorted(only_en)}"
    assert len(texts["ko"]) > 50  # the files hold the build's words, not a stub


def test_each_key_has_the_same_fields_in_both_languages():
    texts = files()
    differ = {key: (field_names(texts["ko"][key]), field_names(texts["en"][key]))
              for key in texts["ko"] if field_names(texts["ko"][key]) != field_names(texts["en"].get(key, ""))}
    assert not differ, f"keys whose {{fields}} differ between ko.yml and en.yml: {differ}"


def test_every_text_is_in_its_language():
    """A Korean text with no Hangul holds no English word (only fields, code, names and
    punctuation: a separator, "{first}·{second}"), save the glossary's column "English"; an
    English text holds no Hangul, save the glossary's column "한국어"."""
    texts = files()
    english = [k for k, v in texts["ko"].items() if not HANGUL.search(v) and v != "English"
               and re.search(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}|`[^`]*`", "", v))]
    assert not english, f"ko.yml texts in English: {english}"
    korean = [k for k, v in texts["en"].items() if HANGUL.search(v) and v != "한국어"]
    assert not korean, f"en.yml texts with Korean in them: {korean}"


# ---------------------------------------------------------------- the code's lookups

def test_every_lookup_names_its_key_as_a_literal():
    used = used_keys()
    assert not used.get(None), f"ui.text/ui.both calls whose key is not a string literal: {used[None]}"


def test_every_key_looked_up_exists():
    texts, used = files(), used_keys()
    missing = {k: where for k, where in used.items() if k is not None and k not in texts["ko"]}
    assert not missing, f"keys the code looks up that ko.yml and en.yml lack: {missing}"
    assert len(used) > 50


def test_every_key_in_the_files_is_used():
    unused = sorted(set(files()["ko"]) - set(used_keys()))
    assert not unused, f"keys in content/ui/*.yml that no code looks up (remove them): {unused}"


def test_the_scan_finds_lookups():
    tree = ast.parse('x = ui.text(lang, "plan.break")\ny = ui.both("a.b", n=1)\nz = ui.text(lang, key)\n'
                     'w = other.text(lang, "not.this")')
    assert sorted(lookups(tree), key=lambda t: t[0]) == [(1, "plan.break"), (2, "a.b"), (3, None)]


# ---------------------------------------------------------------- no Korean left in code

def hangul_outside_docstrings(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, top-level name) of each string constant with Hangul that is not a docstring."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    found = []
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = top.name
        elif isinstance(top, (ast.Assign, ast.AnnAssign)):
            targets = top.targets if isinstance(top, ast.Assign) else [top.target]
            name = ",".join(t.id for t in targets if isinstance(t, ast.Name)) or "?"
        else:
            name = type(top).__name__
        for node in ast.walk(top):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and HANGUL.search(node.value)
                    and id(node) not in docstrings):
                found.append((node.lineno, name))
    return found


def test_no_korean_text_in_the_package_code_outside_the_allowed_places():
    wrong, seen = [], set()
    for path in modules():
        rel = path.relative_to(PACKAGE).as_posix()
        for line, name in hangul_outside_docstrings(ast.parse(path.read_text(encoding="utf-8"))):
            if (rel, "*") in ALLOWED_HANGUL:
                seen.add((rel, "*"))
            elif (rel, name) in ALLOWED_HANGUL:
                seen.add((rel, name))
            else:
                wrong.append(f"{rel}:{line} ({name})")
    assert not wrong, ("Korean text in the build's code: move what a reader sees into "
                       f"scripts/coursebuild/content/ui/ko.yml and en.yml (ui.text): {wrong}")
    stale = sorted(set(ALLOWED_HANGUL) - seen)
    assert not stale, f"ALLOWED_HANGUL lists places with no Korean text left (remove them): {stale}"


def test_the_hangul_scan_sees_code_and_skips_docstrings():
    tree = ast.parse('"""모듈 설명."""\nWORDS = {"ko": "쉬는 시간"}\n\ndef f():\n    """설명."""\n'
                     '    return f"{1}강"\n')
    assert hangul_outside_docstrings(tree) == [(2, "WORDS"), (6, "f")]


# ---------------------------------------------------------------- the lookup

def test_lookup_fills_fields():
    assert ui.text("ko", "reading.shown", n=12) == "읽는 데 약 12분"
    assert ui.text("en", "reading.shown", n=12) == "About 12 min read"
    assert ui.both("plan.break") == {"ko": "쉬는 시간", "en": "Break"}


@pytest.mark.parametrize("call, words", [
    (lambda: ui.text("ko", "plan.brake"), ["ko.yml", "plan.brake", "plan.break"]),
    (lambda: ui.text("fr", "plan.break"), ["fr.yml", "'fr'", "ko, en"]),
    (lambda: ui.text("en", "reading.shown"), ["en.yml", "reading.shown", "missing ['n']"]),
    (lambda: ui.text("en", "plan.break", n=3), ["en.yml", "plan.break", "not in the text: ['n']"]),
])
def test_lookup_errors_name_the_file_and_the_key(call, words):
    with pytest.raises(ui.UIError) as info:
        call()
    assert all(w in str(info.value) for w in words), str(info.value)


def test_a_broken_file_is_named(tmp_path, monkeypatch):
    (tmp_path / "ko.yml").write_text("plan:\n  break: [쉬는, 시간]\n", encoding="utf-8")
    monkeypatch.setattr(ui, "FOLDER", tmp_path)
    with pytest.raises(ui.UIError, match=r"ko\.yml: 'plan\.break' is list"):
        ui.text("ko", "plan.break")
    (tmp_path / "ko.yml").write_text("plan: {break: 쉬는 시간\n", encoding="utf-8")
    with pytest.raises(ui.UIError, match=r"ko\.yml is not valid YAML"):
        ui.text("ko", "plan.break")
