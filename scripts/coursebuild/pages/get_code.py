"""``[[get-code]]``: how a reader gets the course's code and notebooks, for this build."""

from __future__ import annotations

from ..content import ui
from ..outputs import editions
from ..text import josa


def archive_parts(lang: str) -> str:
    """What the code archive holds (:data:`coursebuild.outputs.editions.CODE_PARTS`), as a phrase;
    in Korean with the particle 과/와 the sentence goes on with ("…설정(`pyproject.toml`)과")."""
    parts = ", ".join(ui.text(lang, "get_code.part", what=what, path=path) for what, path in editions.code_parts(lang))
    if lang == "ko":
        return parts + josa.particle(editions.code_parts(lang)[-1][0], "과")
    return parts


def get_code_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[get-code]]``: how to get the code, for this build: the repository when the build
    knows one (it is also linked from the header), else the code archive of the site; the
    student edition always the archive (it never names the source repository, which holds
    the answers). ``[[get-code:notebooks]]``: the lab notebooks' buttons this build has
    (Colab only with a repository the edition may open: :mod:`coursebuild.notebooks.colab`).
    ``[[get-code:archive]]``: what the code archive holds, as a noun phrase."""
    if arg not in (None, "notebooks", "archive") or fmt is not None:
        raise ValueError("takes no format and at most the argument 'notebooks' or 'archive': [[get-code]] "
                         "(the code), [[get-code:notebooks]] (the lab notebooks) or [[get-code:archive]] "
                         "(what the code archive holds)")
    lang = ctx.lang
    if arg == "archive":
        return ui.text(lang, "get_code.archive_list", parts=archive_parts(lang))
    repo = None if ctx.edition == "student" else getattr(ctx, "repository_url", None)
    if arg == "notebooks":
        links = ctx.colab_links if ctx.colab_links is not None else bool(repo)
        return ui.text(lang, "get_code.colab") if links else ui.text(lang, "get_code.no_colab")
    source = getattr(ctx, "source_url", None)
    if repo:
        name = repo.removeprefix("https://github.com/")
        text = ui.text(lang, "get_code.repository", name=name, url=repo)
        return text + (" " + ui.text(lang, "get_code.also", source=source) if source else "")
    parts = archive_parts(lang)
    if source:
        return ui.text(lang, "get_code.archive", source=source, parts=parts)
    return ui.text(lang, "get_code.none", path=editions.CODE_ARCHIVE, parts=parts)
