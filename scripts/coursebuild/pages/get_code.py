"""``[[get-code]]``: how a reader gets the course's code and notebooks, for this build."""

from __future__ import annotations

from ..outputs import editions
from ..text import josa

GET_CODE = {
    "ko": {
        "repository": "다음 저장소를 받습니다: [{name}]({url}) (`git clone {url}`).",
        "also": " 저장소 대신 사이트의 [코드 묶음]({source})을 내려받아 압축을 풀어도 됩니다.",
        "archive": "이 사이트의 [코드 묶음]({source})을 내려받아 압축을 풉니다. 묶음에는 {parts} "
                   "설치 방법을 적은 README가 들어 있습니다. 실습 노트북은 강의 페이지마다 있는 "
                   "\".ipynb 내려받기\"로 받습니다.",
        "none": "코드는 사이트의 코드 묶음(`{path}`)으로 받습니다. 묶음에는 {parts} 설치 방법을 적은 "
                "README가 들어 있습니다.",
        "archive-list": "{parts} 설치 방법을 적은 README",
        "colab": "강의 페이지마다 \"Colab에서 열기\" 버튼과 \".ipynb 내려받기\" 버튼이 있습니다.",
        "no-colab": "강의 페이지마다 \".ipynb 내려받기\" 버튼이 있습니다. Colab에서 쓰려면 내려받은 파일을 "
                    "Colab → 파일 → 노트북 업로드로 엽니다. 자기 컴퓨터의 Jupyter에서 열어도 됩니다.",
    },
    "en": {
        "repository": "Get the repository [{name}]({url}) (`git clone {url}`).",
        "also": " Instead of the repository, you can also download the site's [code archive]({source}) "
                "and unpack it.",
        "archive": "Download this site's [code archive]({source}) and unpack it. It holds {parts}, and a "
                   "README that says how to install them. The lab notebooks are the \"Download .ipynb\" "
                   "button of each lesson page.",
        "none": "The code comes with the site, as its code archive (`{path}`). It holds {parts}, and a "
                "README that says how to install them.",
        "archive-list": "{parts}, and a README that says how to install them",
        "colab": "Every lesson page has an \"Open in Colab\" button and a \"Download .ipynb\" button.",
        "no-colab": "Every lesson page has a \"Download .ipynb\" button. To use a notebook in Colab, "
                    "download it and open it with Colab → File → Upload notebook; it opens in your own "
                    "Jupyter as well.",
    },
}


def archive_parts(lang: str) -> str:
    """What the code archive holds (:data:`coursebuild.outputs.editions.CODE_PARTS`), as a phrase;
    in Korean with the particle 과/와 the sentence goes on with ("…설정(`pyproject.toml`)과")."""
    if lang == "ko":
        parts = [f"{what}(`{path}`)" for what, path in editions.code_parts(lang)]
        last_word = editions.code_parts(lang)[-1][0]
        return ", ".join(parts) + josa.particle(last_word, "과")
    return ", ".join(f"{what} (`{path}`)" for what, path in editions.code_parts(lang))


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
    words = GET_CODE[ctx.lang]
    if arg == "archive":
        return words["archive-list"].format(parts=archive_parts(ctx.lang))
    repo = None if ctx.edition == "student" else getattr(ctx, "repository_url", None)
    if arg == "notebooks":
        links = ctx.colab_links if ctx.colab_links is not None else bool(repo)
        return words["colab" if links else "no-colab"]
    source = getattr(ctx, "source_url", None)
    if repo:
        name = repo.removeprefix("https://github.com/")
        text = words["repository"].format(name=name, url=repo)
        return text + (words["also"].format(source=source) if source else "")
    parts = archive_parts(ctx.lang)
    if source:
        return words["archive"].format(source=source, parts=parts)
    return words["none"].format(path=editions.CODE_ARCHIVE, parts=parts)
