"""Check questions and their answers, kept once in ``docs/questions/lesson-NN.yml``.

A lesson page shows its questions with ``[[questions:2]]`` (hints fold open); the exercises
page shows every lesson's with ``[[questions:all]]``; the instructors' answer key shows the
worked answers with ``[[answers:2]]`` or ``[[answers:all]]``. Answers may hold the
experiments' ``[[experiment.key]]`` markers, so their numbers come from the build.

File format::

    lesson: 2
    title: {ko: 도서관 비유, en: The library analogy}
    questions:
      - id: library-dot                 # stable; the anchor is q-library-dot
        ko: 질문 …
        en: Question …
        hint: {ko: …, en: …}           # optional
        answer: {ko: …, en: …}         # worked steps, Markdown
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import yaml

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "questions"
LANGS = ("ko", "en")
MARKER = re.compile(r"^\[\[(?P<kind>questions|answers):(?P<which>all|\d+)\]\][ \t]*$", re.M)
WORDS = {
    "ko": {"hint": "힌트", "answer": "답과 풀이", "lesson": "{n}강", "key": "답안(강사용)"},
    "en": {"hint": "Hint", "answer": "Answer and worked steps", "lesson": "Lesson {n}", "key": "answer key (instructors)"},
}


def _text(entry: dict, key: str, lang: str, where: str) -> str:
    value = entry.get(key)
    if isinstance(value, dict):
        value = value.get(lang)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where}: '{key}' needs text in both ko and en (missing {lang})")
    return value.strip()


@lru_cache(maxsize=4)
def _load(folder: Path, stamp: tuple) -> dict[int, dict]:
    lessons, ids = {}, {}
    for path in sorted(folder.glob("lesson-*.yml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise ValueError(f"cannot read {path.name}: {exc}") from exc
        n = data.get("lesson") if isinstance(data, dict) else None
        if not isinstance(n, int) or n in lessons:
            raise ValueError(f"{path.name}: needs a unique integer 'lesson'")
        qs = data.get("questions") or []
        for q in qs:
            where = f"{path.name}, question {q.get('id', '?')}"
            if not re.fullmatch(r"[a-z0-9-]+", str(q.get("id", ""))):
                raise ValueError(f"{where}: 'id' must be lower-case letters, digits and '-'")
            if q["id"] in ids:
                raise ValueError(f"{where}: id also used in {ids[q['id']]}")
            ids[q["id"]] = path.name
            for lang in LANGS:
                _text(q, lang, lang, where)
                _text(q, "answer", lang, where)
                if "hint" in q:
                    _text(q, "hint", lang, where)
        for lang in LANGS:
            _text(data, "title", lang, path.name)
        lessons[n] = data
    return lessons


def load(folder: Path = FOLDER) -> dict[int, dict]:
    """{lesson number: its data}, every question checked to have both languages and an answer."""
    stamp = tuple((p.name, p.stat().st_mtime) for p in sorted(folder.glob("lesson-*.yml")))
    return _load(folder, stamp)


def _selected(which: str, lessons: dict[int, dict]) -> list[int]:
    if which == "all":
        return sorted(lessons)
    if int(which) not in lessons:
        raise KeyError(f"no questions for lesson {which}: docs/questions/lesson-{int(which):02d}.yml is missing")
    return [int(which)]


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.splitlines())


def render(kind: str, which: str, lang: str, lessons: dict[int, dict], answer_key_url: str | None = None) -> str:
    w, out = WORDS[lang], []
    numbers = _selected(which, lessons)
    for n in numbers:
        data = lessons[n]
        if which == "all":
            out.append(f"## {w['lesson'].format(n=n)}. {_text(data, 'title', lang, '')} {{ #lesson-{n} }}\n")
        for i, q in enumerate(data["questions"], 1):
            anchor = f"q-{q['id']}" if kind == "questions" else f"a-{q['id']}"
            out.append(f'<span id="{anchor}"></span>**{n}.{i}** {_text(q, lang, lang, "")}\n')
            if kind == "questions" and "hint" in q:
                out.append(f'??? tip "{w["hint"]}"\n{_indent(_text(q, "hint", lang, ""))}\n')
            if kind == "answers":
                out.append(f'??? success "{w["answer"]}"\n{_indent(_text(q, "answer", lang, ""))}\n')
        if kind == "questions" and answer_key_url:
            out.append(f"[{w['key']}]({answer_key_url}#lesson-{n})\n")
    return "\n".join(out)


def render_markers(markdown: str, lang: str, answer_key_url: str | None = None, lessons=None) -> str:
    """Replace ``[[questions:N|all]]`` and ``[[answers:N|all]]`` lines."""
    if not MARKER.search(markdown):
        return markdown
    lessons = load() if lessons is None else lessons
    return MARKER.sub(lambda m: render(m["kind"], m["which"], lang, lessons, answer_key_url), markdown)
