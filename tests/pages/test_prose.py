"""Prose a reader meets: phrasings that read as translated or that state more than the results
show, and terms used before the lesson that teaches them.

Each banned phrasing was found once on a page and rewritten; the list keeps it from coming back.
A line names what to write instead.
"""

import re

import pytest

from coursebuild.content import glossary
from coursebuild.course import LESSONS
from coursebuild.paths import DOCS

QUESTIONS = DOCS / "questions"
NOTEBOOKS = DOCS.parent / "tutorial_code" / "notebooks"


def page_texts(lang: str):
    """Every page of one language, plus the questions' text (both languages live in one file)
    and what the lab notebooks say in that language (text cells, comments, figure labels)."""
    for path in sorted((DOCS / lang).rglob("*.md")):
        yield path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted(QUESTIONS.glob("*.yml")):
        yield path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted(NOTEBOOKS.glob("lesson_*.py")):
        yield f"{path.name} ({lang})", "\n\n".join(notebook_paragraphs(path.read_text(encoding="utf-8"), lang))


# (pattern, what to write instead)
BANNED = {
    "ko": [
        (r"두 번 손해", "긴 문장에서 불리한 까닭 두 가지"),
        (r"어텐션의 생각", "어텐션의 발상"),
        (r"정직하게 덧붙일", "덧붙일 말만 쓰기"),
        (r"피드포워드 네트워크", "피드포워드 신경망 (용어집)"),
        (r"디코더 가운데 층", "디코더의 두 번째 하위 층(크로스 어텐션)"),
        (r"포트폴리오가 보고한 문헌 값|그들의 에포크", "참고 포트폴리오에 적힌 값, 그 실습의 에포크"),
        (r"et al\.(이|가|은|는|을|를)\s", "Bahdanau et al. (2015)가 (조사는 연도 뒤에)"),
        (r"\d(\.\d+)?e[-+]\d+배", "1.3 × 10⁻⁵배 (word 마커로)"),
        (r"(층 정규화|LayerNorm)(의)? 위치", "층 정규화를 놓는 자리 (배치는 batch만 뜻합니다)"),
        (r"로그-로그 기울기|기울기 2는", "로그-로그 경사, 지수 2 (기울기는 gradient)"),
        (r"가중치를\s*int8|가중치는 기록하지", "파라미터 (가중치는 어텐션 가중치만)"),
        (r"차이는 마스크 하나입니다", "어텐션 코드에서 다른 것은 마스크 하나 (학습 목적도 다름)"),
        (r"곧 마스크입니다\. 이 차이가", "마스크에 크로스 어텐션과 학습 목적이 더해짐"),
        (r"학습한\s*LSTM은 훨씬 잘 버팁니다", "9강의 결과대로: 예산 안에서 찍기 수준"),
        (r"문서 길이 N", "길이는 L"),
        (r"f가 어떻든 항등 행렬", "Pre-LN에서만: 잔차 경로에 다른 것이 없을 때"),
        (r"키(와|·)\s?값", "키와 밸류 (용어집: value는 밸류)"),
        (r"부분층", "하위 층 (sublayer)"),
        (r"N/2와 비교", "L/2 (길이는 L, 위젯의 이름 그대로)"),
        (r"(피드포워드 신경망의|투영|모듈의)\s*가중치", "파라미터 (가중치는 어텐션 가중치만)"),
        (r"가능한 최고\W{0,2}를 넘지 못", "최고와 거의 같다 (표본 잡음만큼 넘는 길이가 있음)"),
        (r"헤드 수와 층 수", "헤드 수와 어텐션 하위 층 수 (인코더–디코더는 크로스 어텐션까지)"),
        (r"같은 생각입니다", "같은 방식입니다 ('생각'은 사람에게만)"),
        (r"시험 세트", "테스트 시퀀스 (8강이 쓰는 말)"),
        (r"마스크가 막은 키는", "막은 칸(쿼리–키 짝): 그 키도 다른 쿼리에서는 기울기를 받음"),
        (r"\$n\^2\$ (문제|problem)", "L² (길이는 L)"),
        (r"데이터가 적을 때 다른 구조가", "이미지에서 합성곱 신경망이 ViT보다 나았다 (Dosovitskiy et al.이 보인 것만)"),
        (r"학습률을 0(에서|부터)", "웜업의 첫 스텝은 학습률의 1/웜업 스텝 수 (코드: (step + 1) / warmup)"),
        (r"모델이 크고 \$?[TN]\$?[가이] (길|클)수록", "잰 것만: T에 따른 속도 향상은 word 마커로, 모델 크기는 재지 않았음"),
    ],
    "en": [
        (r"loses twice", "the two reasons why it fails"),
        (r"An honest caveat", "just say it"),
        (r"This is why real services cap", "one reason among the KV cache, compute and trained length"),
        (r"It\s+never generates, so an encoder", "both designs are in use"),
        (r"places them in front of the model's input", "Lewis et al.: each passage with the question into BART"),
        (r"no causal mask: one mask apart\.", "in the attention code, one mask apart; objectives differ"),
        (r"placed side by side\s+rather than added", "each head's own softmax keeps them apart"),
        (r"\d(\.\d+)?e[-+]\d+ times", "1.3 × 10⁻⁵ times (a word marker)"),
        (r"a trained LSTM holds on much better", "as lesson 9 found: at chance within the budget"),
        (r"whatever \$f\$ does, the identity", "pre-LN only: nothing else on the residual path"),
        (r"same initial weights", "same initial parameters"),
        (r"against N/2", "L/2: length is L, as the widget says"),
        (r"never gets past", "stays at the ceiling within sampling noise"),
        (r"number of heads and layers", "heads and attention sub-layers (cross-attention counts)"),
        (r"(projection|module's) weights|copies the weights", "parameters (weights are attention weights)"),
        (r"starting weights", "starting parameters"),
        (r"\$n\^2\$ problem", "L² (the length is L)"),
        (r"[Pp]lace of the LayerNorm", "where the LayerNorm sits (the glossary)"),
        (r"held-out exact\s+match", "exact match on the test sequences (lesson 8's words)"),
        (r"A key the mask blocks", "a blocked cell (query–key pair): the key still gets gradient from other queries"),
        (r"with little data other\s+architectures", "on images, ResNets beat ViT with little pre-training data"),
        (r"(raised|rises|ramps?)( up)? linearly from (zero|0)\b|from zero over the first", "the warm-up starts at 1/warmup of the rate (the code's (step + 1) / warmup)"),
        (r"[Bb]igger models and longer\s+generations widen", "what was measured: the speed-up against T (a word marker); model size was not varied"),
    ],
}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_banned_phrasing(lang):
    found = []
    for name, text in page_texts(lang):
        for pattern, instead in BANNED[lang]:
            for m in re.finditer(pattern, text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{name}:{line}: «{m.group(0)}» → {instead}")
    assert not found, "rewrite:\n" + "\n".join(found)


def test_no_build_machine_in_prose():
    """The machine a site was built on belongs on the build page, not in a lesson's sentence."""
    found = [name for lang in ("ko", "en") for name, text in page_texts(lang)
             if "[[value:cost.device.name]]" in text and not name.endswith("build.md")]
    assert not found, f"name the machine by a link to the build page instead: {found}"


def test_repository_paths_in_prose_exist():
    """A `tests/…` or `tutorial_code/…` path a page names is a file of the repository."""
    root = DOCS.parent
    missing = []
    for lang in ("ko", "en"):
        for name, text in page_texts(lang):
            for m in re.finditer(r"`((?:tests|tutorial_code|scripts)/[\w./-]+\.py)`", text):
                if not (root / m.group(1)).is_file():
                    missing.append(f"{name}: {m.group(1)}")
    assert not missing, missing


# ---------------------------------------------------------------- terms before their lesson

# term (as the page writes it) → the lesson that teaches it: every glossary term with a `lesson`
# (docs/glossary.yml), and terms the glossary does not list. A page before that lesson may use the
# term only if the paragraph of its first use links to that lesson or explains the term right after
# it, in brackets.
TERMS = {
    "ko": {"융합 커널": "cost-and-impact"} | {t.ko: t.lesson for t in glossary.load() if t.lesson},
    "en": {"fused kernel": "cost-and-impact"} | {t.en: t.lesson for t in glossary.load() if t.lesson},
}
# terms no lesson teaches by itself: their first use in the course explains them in brackets
TAUGHT_AT_FIRST_USE = {"ko": ["BOS", "EOS", "드롭아웃"], "en": ["BOS", "EOS", "dropout"]}


def paragraphs(text: str) -> list[str]:
    """The page's prose paragraphs, code blocks and figure/widget marker lines left out."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    lines = [ln for ln in text.splitlines() if not ln.strip().startswith(("[[fig:", "[[widget:", "[[code:", "#"))]
    return [p for p in re.split(r"\n\s*\n", "\n".join(lines)) if p.strip()]


def term_at(text: str, term: str) -> int:
    """Where ``term`` first stands as a word of ``text`` (-1 if nowhere): not inside a longer word,
    so "head" is not found in "heading", "multi-head" or "nn.MultiheadAttention" (a plural "heads"
    counts) and 헤드 not in 멀티헤드; a Korean term may carry a particle (헤드는)."""
    if re.match(r"[A-Za-z]", term):
        pattern = rf"(?<![\w.-]){re.escape(term)}(?:e?s)?(?![A-Za-z0-9_])"  # nor in a marker's key (mha_heads)
    else:
        pattern = rf"(?<![가-힣]){re.escape(term)}"
    m = re.search(pattern, text)
    return m.start() if m else -1


def has_term(text: str, term: str) -> bool:
    return term_at(text, term) >= 0


def explained(paragraph: str, term: str, slug: str) -> bool:
    after = paragraph[term_at(paragraph, term) + len(term):]
    return f"{slug}.md" in paragraph or bool(re.match(r"[^\s(]{0,3}\s?\(", after))


def first_use(lang: str, term: str, before: str | None):
    order = [lesson.slug for lesson in LESSONS]
    for slug in order[: order.index(before)] if before else order:
        text = (DOCS / lang / "lessons" / f"{slug}.md").read_text(encoding="utf-8")
        for para in paragraphs(text):
            if has_term(para, term):
                return slug, para
    return None


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_terms_before_their_lesson_are_introduced(lang):
    bad = []
    for term, slug in TERMS[lang].items():
        hit = first_use(lang, term, slug)
        if hit and not explained(hit[1], term, slug):
            bad.append(f"{hit[0]}: «{term}» before lesson '{slug}': link it or explain it in brackets")
    for term in TAUGHT_AT_FIRST_USE[lang]:
        hit = first_use(lang, term, None)
        if hit and not explained(hit[1], term, "\0"):
            # "BOS" may come inside a gloss such as "시작 토큰 BOS": accept a gloss just before it
            para = hit[1]
            before = para[: term_at(para, term)][-12:]
            if not re.search(r"(토큰|token)\s*$", before):
                bad.append(f"{hit[0]}: «{term}» is used before it is explained")
    assert not bad, "\n".join(bad)


def question_texts(lang: str):
    """(lesson number, question id, text) for every question, hint and answer of each lesson, in
    ``lang``: what the lesson page shows after its prose."""
    import yaml

    for path in sorted(QUESTIONS.glob("lesson-*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for q in data["questions"]:
            parts = [q.get(lang), (q.get("hint") or {}).get(lang), (q.get("answer") or {}).get(lang)]
            yield data["lesson"], q["id"], "\n\n".join(p for p in parts if p)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_check_questions_use_no_term_before_its_lesson_unexplained(lang):
    """A lesson's check questions (with hints and answers) follow the lessons' rule: a term a
    later lesson teaches is linked to that lesson or explained in brackets."""
    number = {lesson.slug: lesson.number for lesson in LESSONS}
    bad, seen = [], 0
    for lesson, qid, text in question_texts(lang):
        seen += 1
        for term, slug in TERMS[lang].items():
            if number[slug] <= lesson:
                continue
            for para in paragraphs(text):
                if has_term(para, term) and not explained(para, term, slug):
                    bad.append(f"lesson {lesson}, question {qid}: «{term}» before lesson '{slug}'")
                    break
    assert seen >= 2 * len(LESSONS), seen  # every lesson has its questions
    assert not bad, "\n".join(bad)


def notebook_paragraphs(source: str, lang: str) -> list[str]:
    """What a student reads in one language's lab notebook, as paragraphs: each text cell's
    paragraphs, then each code cell's comments and figure labels in that language as one."""
    from coursebuild.notebooks.build import _BILINGUAL, _LANG_COMMENT, _LANG_LINE

    out = []
    for cell in re.split(r"^# %%", source, flags=re.M)[1:]:
        head, _, body = cell.partition("\n")
        if "[markdown]" in head:
            if 'lang="' in head and f'lang="{lang}"' not in head:
                continue
            text = "\n".join(re.sub(r"^# ?", "", ln) for ln in body.splitlines())
            out += paragraphs(text)
            continue
        said = []
        for line in body.splitlines():
            if (m := _LANG_COMMENT.match(line)) and m["lang"] == lang:
                said.append(m["text"])
            elif m := _BILINGUAL.match(line):
                said.append(m[lang])
            elif (m := _LANG_LINE.match(line)) and m["lang"] == lang:
                said.append(m["code"])
        if said:
            out.append("\n".join(said))
    return out


def notebook_problems(lang: str, number: int, source: str) -> list[str]:
    """Terms of a later lesson that lesson ``number``'s notebook uses unexplained: a notebook is
    opened on its own (in Colab), so its first use of such a term explains it in brackets or
    names the lesson that teaches it."""
    lesson_of = {lesson.slug: lesson.number for lesson in LESSONS}
    bad = []
    paras = notebook_paragraphs(source, lang)
    for term, slug in TERMS[lang].items():
        later = lesson_of[slug]
        if later <= number:
            continue
        para = next((p for p in paras if has_term(p, term)), None)
        names_lesson = para and re.search(rf"(?<!\d){later}강|[Ll]esson {later}(?!\d)", para)
        if para and not (names_lesson or explained(para, term, slug)):
            bad.append(f"lesson {number}'s notebook ({lang}): «{term}» before lesson '{slug}': "
                       f"explain it in brackets or name lesson {later}")
    return bad


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_notebooks_use_no_term_before_its_lesson_unexplained(lang):
    bad = [p for lesson in LESSONS
           for p in notebook_problems(lang, lesson.number,
                                      (NOTEBOOKS / lesson.notebook_source).read_text(encoding="utf-8"))]
    assert not bad, "\n".join(bad)


def widget_problems(number: int, strings: list[str]) -> list[str]:
    """Terms of a later lesson in the Korean strings of lesson ``number``'s widgets, each string
    read as a paragraph: the first that holds such a term explains it in brackets ("인과 마스크
    (4강)") or names the lesson that teaches it."""
    lesson_of = {lesson.slug: lesson.number for lesson in LESSONS}
    bad = []
    for term, slug in TERMS["ko"].items():
        later = lesson_of[slug]
        text = next((t for t in strings if has_term(t, term)), None) if later > number else None
        if text and not (re.search(rf"(?<!\d){later}강", text) or explained(text, term, slug)):
            bad.append(f"lesson {number}'s widgets: «{term}» before lesson '{slug}' in «{text[:60]}»")
    return bad


def test_widgets_use_no_term_before_its_lesson_unexplained():
    from coursebuild.pages.widgets import SCRIPTS

    folder = DOCS / "assets" / "javascripts" / "widgets"
    bad, seen = [], 0
    for lesson in LESSONS:
        page = (DOCS / "ko" / "lessons" / f"{lesson.slug}.md").read_text(encoding="utf-8")
        files = sorted({SCRIPTS[m.rsplit(".", 1)[-1]] for m in re.findall(r"\[\[widget:([\w.]+)", page)})
        strings = [t for f in files for t in re.findall(r'"((?:[^"\\\n]|\\.)*)"', (folder / f).read_text(encoding="utf-8"))
                   if re.search(r"[가-힣]", t)]
        seen += bool(strings)
        bad += widget_problems(lesson.number, strings)
    assert seen == len(LESSONS), seen  # every lesson has a widget with Korean words
    assert not bad, "\n".join(bad)


def test_the_widget_check_finds_a_term_before_its_lesson():
    assert widget_problems(3, ["마스크 없음", "인과 마스크"])
    assert not widget_problems(3, ["마스크 없음", "인과 마스크 (4강)"])
    assert not widget_problems(4, ["인과 마스크"])
    assert widget_problems(1, ["층", "헤드"])  # lesson 1's translator before the glossary's lesson 5
    assert not widget_problems(1, ["층", "헤드 (5강)"])


@pytest.mark.parametrize("text, term, found", [
    ("averaged over heads", "head", True), ("the heading for 1", "head", False),
    ("multi-head attention", "head", False), ("`nn.MultiheadAttention`", "head", False),
    ("$h$ = [[value:worked_examples.shuffle.mha_heads]]", "head", False),
    ("헤드 평균", "헤드", True), ("헤드는", "헤드", True), ("멀티헤드 어텐션", "헤드", False),
])
def test_a_term_is_found_as_a_word(text, term, found):
    assert has_term(text, term) is found, text


@pytest.mark.parametrize("lang, text, wrong", [
    # lesson 6's notebook before lesson 7 defines 스텝: the case the third reading found
    ("ko", '# %% [markdown] lang="ko"\n# 시드 하나로 12에포크(240스텝)만 돌립니다.\n', True),
    ("en", '# %% [markdown] lang="en"\n# we run one seed for 12 epochs (240 training steps).\n', True),
    ("ko", '# %% [markdown] lang="ko"\n# 12에포크만 돌립니다(파라미터를 240번 고칩니다).\n', False),
    ("ko", '# %%\nax.set_xlabel("학습 스텝")  # ko\nax.set_xlabel("training step")  # en\n', True),
    ("ko", '# %%\n# ko: 스텝(파라미터를 한 번 고치는 것)마다 잽니다.\n', False),
    ("ko", '# %% [markdown] lang="ko"\n# 7강에서 볼 스텝 수를 바꿔 보세요.\n', False),
    ("ko", '# %% [markdown] lang="en"\n# the loss at every training step\n', False),
])
def test_the_notebook_check_finds_a_term_before_its_lesson(lang, text, wrong):
    assert bool(notebook_problems(lang, 6, text)) is wrong, text


# ---------------------------------------------------------------- names no lesson introduces

# code bases a student meets only if a lesson introduces them: a check question may name one
# only when some lesson's prose (not a formula or a code block) names it too
LIBRARY_NAMES = ["minGPT", "nanoGPT", "llm.c", "Hugging Face"]


def prose_only(text: str) -> str:
    """Text without code blocks and formulas."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$", "", text, flags=re.S)


def lesson_prose(lang: str) -> str:
    return prose_only("\n".join((DOCS / lang / "lessons" / f"{lesson.slug}.md").read_text(encoding="utf-8")
                                for lesson in LESSONS))


def test_questions_name_only_what_a_lesson_introduces():
    prose = {lang: lesson_prose(lang) for lang in ("ko", "en")}
    found = []
    for path in sorted(QUESTIONS.glob("*.yml")):
        text = path.read_text(encoding="utf-8")
        for name in LIBRARY_NAMES:
            if name in text and not all(name in p for p in prose.values()):
                found.append(f"{path.name}: «{name}» is named by no lesson; ask with what the lessons teach")
    assert not found, "\n".join(found)


def test_the_checks_can_fail():
    """The patterns above find what they were written against."""
    samples = {"ko": ["쿼리와 키·값은", "피드포워드 신경망의 가중치가", "'N/2와 비교'가",
                      "\"순서 없이 가능한 최고\"를 넘지 못한다", "헤드 수와 층 수(그리고",
                      "시험 세트 완전 일치율", "마스크가 막은 키는 가중치가", "그렇다면 $n^2$ 문제는",
                      "학습률을 0에서 천천히 올리는 웜업", "모델이 크고 $N$이 길수록 차이가 벌어진다"],
               "en": ["\"against N/2\" says", "the accuracy never gets past", "copies the weights of",
                      "decide the starting weights", "change the place of the LayerNorm", "the held-out exact\nmatch",
                      "A key the mask blocks has", "Does that solve the $n^2$ problem?",
                      "the learning rate raised linearly from zero over the first 200 steps",
                      "Bigger models and longer\n    generations widen the gap."]}
    for lang, texts in samples.items():
        for sample in texts:
            assert any(re.search(p, sample) for p, _ in BANNED[lang]), sample
    assert "minGPT" not in prose_only("$$\\text{Pre-LN (GPT-2, minGPT)}$$ and\n```\nminGPT\n```")


# ---------------------------------------------------------------- how the site was made, in a student's words

# A student reads what a page, a question, a notebook or a widget says about the course, not about
# how the site is made: no "the build" (빌드), "at build time", "stops the build". The assignments
# and the build page, which tell a reader how to rebuild the site, may say it.
BUILD_WORDS = {"ko": re.compile(r"빌드"),
               "en": re.compile(r"\b(?:the build|build's|at build time|build-time|stops? the build)\b", re.I)}
def student_texts(lang: str):
    """(name, text) of the lessons, their questions, the lab notebooks and the widgets' strings."""
    for path in sorted((DOCS / lang / "lessons").glob("*.md")):
        yield path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8")
    for path in [*sorted(QUESTIONS.glob("lesson-*.yml")), QUESTIONS / "self-check.yml"]:
        yield path.relative_to(DOCS).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted(NOTEBOOKS.glob("lesson_*.py")):
        yield f"{path.name} ({lang})", "\n\n".join(notebook_paragraphs(path.read_text(encoding="utf-8"), lang))
    hangul = re.compile(r"[가-힣]")
    for path in sorted((DOCS / "assets" / "javascripts" / "widgets").glob("*.js")):
        code = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        strings = re.findall(r'"((?:[^"\\\n]|\\.)*)"', code)
        yield path.name, "\n".join(s for s in strings if bool(hangul.search(s)) == (lang == "ko"))


def build_word_problems(lang: str, texts) -> list[str]:
    return [f"{name}:{text.count(chr(10), 0, m.start()) + 1}: «{m.group(0)}»"
            for name, text in texts for m in BUILD_WORDS[lang].finditer(text)]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_student_prose_has_no_build_words(lang):
    found = build_word_problems(lang, student_texts(lang))
    assert not found, "say it for a student (the PyTorch run, when this site was made, …):\n" + "\n".join(found)


@pytest.mark.parametrize("lang, text, wrong", [
    ("ko", "차이가 반올림 오차보다 크면 빌드가 멈춥니다.", True),
    ("en", "a gap larger than rounding stops the build", True), ("en", "the build's PyTorch run", True),
    ("en", "The code below is copied at build time", True), ("en", "the machine that built this site", False),
    ("ko", "같은 설정의 PyTorch 실행은", False), ("en", "greedy decoding builds that same prefix", False),
])
def test_the_build_word_check_finds_what_it_names(lang, text, wrong):
    assert bool(build_word_problems(lang, [("x", text)])) is wrong, text
