"""The course's lessons, defined once: number, page slug, title in each language, and where
the whole-course plan teaches it.

Everything else derives from this list: the navigation of both languages, the lab notebooks'
names (``tutorial_code/notebooks/lesson_NN_<slug>.py``), the lists of lessons, questions and
times in the teaching pages, the whole-course plan's sessions (:data:`SESSIONS`), the counts
the prose quotes ("nine lessons": ``[[plan:lesson-count]]``) and the tests that walk every
lesson. README's "How to add a lesson" lists the files a new lesson needs besides its row here,
and ``tests/pages/test_new_lesson.py`` adds a tenth lesson to a copy of the repository to
check that everything follows.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str        # docs/<lang>/lessons/<slug>.md
    title: dict      # {"ko": ..., "en": ...}, as shown in the navigation
    session: int     # the whole-course plan's session that teaches it (1, 2, ...)
    lab: bool        # whether that session runs this lesson's lab notebook together

    @property
    def page(self) -> str:
        return f"lessons/{self.slug}.md"

    @property
    def notebook(self) -> str:
        """The lab notebook's name: lesson-03-scaled-dot-product (the page is notebooks/<name>.ipynb)."""
        return f"lesson-{self.number:02d}-{self.slug}"

    @property
    def notebook_source(self) -> str:
        return f"lesson_{self.number:02d}_{self.slug.replace('-', '_')}.py"


@dataclass(frozen=True)
class Session:
    """One class meeting of the whole-course plan: its lessons, in order, and the lesson whose
    lab notebook it runs together."""
    number: int
    lessons: tuple[int, ...]
    lab: int


LAB = "lab"  # a row's last field: the session runs this lesson's lab notebook


def _lessons(*rows) -> tuple[Lesson, ...]:
    out = []
    for n, (slug, ko, en, session, *lab) in enumerate(rows, start=1):
        if lab not in ([], [LAB]):
            raise ValueError(f"course.py: lesson {n} ({slug}): the field after the session is "
                             f"'{LAB}' or nothing, not {lab!r}")
        out.append(Lesson(n, slug, {"ko": ko, "en": en}, session, lab == [LAB]))
    return tuple(out)


def _sessions(lessons: tuple[Lesson, ...]) -> tuple[Session, ...]:
    numbers = sorted({lesson.session for lesson in lessons})
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError(f"course.py: the sessions are numbered 1, 2, ... without gaps, not {numbers}")
    out = []
    for k in numbers:
        mine = [lesson for lesson in lessons if lesson.session == k]
        if [m.number for m in mine] != list(range(mine[0].number, mine[-1].number + 1)) or (
                out and mine[0].number != out[-1].lessons[-1] + 1):
            raise ValueError(f"course.py: session {k} teaches lessons "
                             f"{[m.number for m in mine]}; a session's lessons follow each other, "
                             "and the sessions follow the lessons' order")
        labs = [m.number for m in mine if m.lab]
        if len(labs) != 1:
            raise ValueError(f"course.py: session {k} marks {len(labs)} lessons '{LAB}'; mark "
                             "exactly one: the lesson whose lab notebook the session runs")
        out.append(Session(k, tuple(m.number for m in mine), labs[0]))
    return tuple(out)


# slug, Korean title, English title, the session that teaches it, and LAB for the one lesson of
# each session whose lab notebook that session runs together
LESSONS = _lessons(
    ("why-attention", "왜 어텐션인가", "Why attention", 1),
    ("library-qkv", "도서관 비유로 보는 쿼리, 키, 밸류", "Q, K and V through a library", 1, LAB),
    ("scaled-dot-product", "스케일드 닷프로덕트 어텐션, 한 단계씩", "Scaled dot-product attention, step by step", 1),
    ("self-attention", "셀프 어텐션", "Self-attention", 2),
    ("multi-head", "멀티헤드 어텐션", "Multi-head attention", 2),
    ("position", "위치 정보", "Position information", 2, LAB),
    ("transformer-block", "트랜스포머 블록", "The Transformer block", 3),
    ("encoder-decoder", "인코더, 디코더, 그리고 세 가지 변형", "Encoder, decoder and the three variants", 3),
    ("cost-and-impact", "트랜스포머가 기반이 된 이유와 그 비용", "Why it became the foundation, and what it costs", 3, LAB),
)
SLUGS = tuple(lesson.slug for lesson in LESSONS)
SESSIONS = _sessions(LESSONS)
