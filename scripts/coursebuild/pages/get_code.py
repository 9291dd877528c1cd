"""``[[get-code]]``: how a reader gets the course's code and notebooks, for this build."""

from __future__ import annotations

GET_CODE = {
    "ko": {
        "repository": "다음 저장소를 받습니다: [{name}]({url}) (`git clone {url}`).",
        "also": " 사이트에서 [소스 묶음]({source})을 내려받아 압축을 풀어도 됩니다.",
        "archive": "이 사이트의 [소스 묶음]({source})을 내려받아 압축을 풉니다. 강의 코드(`tutorial_code/`), "
                   "실험을 돌리는 스크립트(`scripts/`), 설치 목록(`requirements.txt`)과 README가 들어 있습니다. "
                   "실습 노트북은 강의 페이지마다 있는 \".ipynb 내려받기\"로 받습니다.",
        "none": "코드는 사이트의 소스 묶음(`downloads/course-source.zip`)으로 받습니다.",
        "colab": "강의 페이지마다 \"Colab에서 열기\" 버튼과 \".ipynb 내려받기\" 버튼이 있습니다.",
        "no-colab": "강의 페이지마다 \".ipynb 내려받기\" 버튼이 있습니다. Colab에서 쓰려면 내려받은 파일을 "
                    "Colab → 파일 → 노트북 업로드로 엽니다. 자기 컴퓨터의 Jupyter에서 열어도 됩니다.",
    },
    "en": {
        "repository": "Get the repository [{name}]({url}) (`git clone {url}`).",
        "also": " You can also download the site's [source archive]({source}) and unpack it.",
        "archive": "Download this site's [source archive]({source}) and unpack it. It holds the course code "
                   "(`tutorial_code/`), the scripts that run the experiments (`scripts/`), the list of packages "
                   "(`requirements.txt`) and the README. The lab notebooks are the \"Download .ipynb\" "
                   "button of each lesson page.",
        "none": "The code comes with the site, as its source archive (`downloads/course-source.zip`).",
        "colab": "Every lesson page has an \"Open in Colab\" button and a \"Download .ipynb\" button.",
        "no-colab": "Every lesson page has a \"Download .ipynb\" button. To use a notebook in Colab, "
                    "download it and open it with Colab → File → Upload notebook; it opens in your own "
                    "Jupyter as well.",
    },
}


def get_code_marker(arg: str | None, fmt: str | None, ctx) -> str:
    """``[[get-code]]``: how to get the code, for this build: the repository when the build
    knows one (it is also linked from the header), else the source archive of the site.
    ``[[get-code:notebooks]]``: the lab notebooks' buttons this build has (Colab only with a
    repository: :mod:`coursebuild.notebooks.colab`)."""
    if arg not in (None, "notebooks") or fmt is not None:
        raise ValueError("takes no format and at most the argument 'notebooks': [[get-code]] (the code) "
                         "or [[get-code:notebooks]] (the lab notebooks)")
    words = GET_CODE[ctx.lang]
    repo = getattr(ctx, "repository_url", None)
    if arg == "notebooks":
        return words["colab" if repo else "no-colab"]
    source = getattr(ctx, "source_url", None)
    if repo:
        name = repo.removeprefix("https://github.com/")
        text = words["repository"].format(name=name, url=repo)
        return text + (words["also"].format(source=source) if source else "")
    if source:
        return words["archive"].format(source=source)
    return words["none"]


