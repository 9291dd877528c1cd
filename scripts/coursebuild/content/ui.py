"""The build's own words: what the site, the notebooks, the instructor pack and the code archive
say in the build's voice (headings, labels, table columns, the sentences around counted numbers),
one file per language: ``ui/ko.yml`` and ``ui/en.yml``.

Each file maps section names to keys to texts (``plan: {break: 쉬는 시간}``), read as one flat
key space (``plan.break``). A text may hold ``{name}`` fields in Python's ``str.format`` style,
which the caller fills::

    ui.text("ko", "reading.shown", n=12)      # "읽는 데 약 12분"
    ui.both("plan.break")                     # {"ko": "쉬는 시간", "en": "Break"}

A file is read once (again only after it changes). An unknown language, an unknown key, a field
the text needs and the caller did not give, or a field given that the text does not have, is a
:class:`UIError` naming the file and the key. Rules of a language (particles, counting words) are
not here: they are code (:mod:`coursebuild.text`).
"""

from __future__ import annotations

import difflib
import string
from functools import lru_cache
from pathlib import Path

import yaml

from ..paths import LANGS, REPO_ROOT

FOLDER = Path(__file__).with_name("ui")


class UIError(ValueError):
    """A UI string that cannot be looked up or filled; the message names the file and the key."""


def path(lang: str) -> Path:
    """The file of ``lang``'s UI strings."""
    return FOLDER / f"{lang}.yml"


def _shown(p: Path) -> str:
    try:
        return p.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return str(p)


def _flatten(data, prefix: str, where: str, out: dict[str, str]) -> None:
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(value, name + ".", where, out)
        elif isinstance(value, str):
            out[name] = value
        else:
            raise UIError(f"{where}: '{name}' is {type(value).__name__} {value!r}; each key holds a text "
                          "(put quotes around it) or a section of keys")


@lru_cache(maxsize=8)
def _load(file: Path, stamp: int) -> dict[str, str]:
    where = _shown(file)
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise UIError(f"{where} is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise UIError(f"{where}: expected sections of keys (section: {{key: text}}), got {type(data).__name__}")
    out: dict[str, str] = {}
    _flatten(data, "", where, out)
    return out


def strings(lang: str) -> dict[str, str]:
    """Every UI string of ``lang``: {"section.key": text}."""
    file = path(lang)
    if lang not in LANGS or not file.is_file():
        raise UIError(f"no UI strings for language '{lang}' ({_shown(file)}); the site's languages "
                      f"are {', '.join(LANGS)}, with a file each in {_shown(FOLDER)}/")
    return _load(file, file.stat().st_mtime_ns)


def fields(template: str) -> set[str]:
    """The names of the ``{fields}`` of ``template`` (``{{`` and ``}}`` are literal braces)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(template):
        if name is not None:
            names.add(name.split(".")[0].split("[")[0])
    return names


def text(lang: str, key: str, **values) -> str:
    """The UI string ``key`` of ``lang``, its ``{fields}`` filled with ``values``."""
    table = strings(lang)
    if key not in table:
        close = difflib.get_close_matches(key, table, n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        raise UIError(f"{_shown(path(lang))}: no key '{key}'.{hint} Add it there and to the other "
                      f"languages' files in {_shown(FOLDER)}/")
    template = table[key]
    wanted = fields(template)
    missing, extra = wanted - set(values), set(values) - wanted
    if missing or extra:
        raise UIError(f"{_shown(path(lang))}: '{key}' ({template!r}) has the fields "
                      f"{sorted(wanted) or 'none'}; the code gave {sorted(values) or 'none'}"
                      + (f" (missing {sorted(missing)})" if missing else "")
                      + (f" (not in the text: {sorted(extra)})" if extra else ""))
    return template.format(**values)


def both(key: str, **values) -> dict[str, str]:
    """``key`` in every language: {"ko": ..., "en": ...}."""
    return {lang: text(lang, key, **values) for lang in LANGS}
