"""The course's lessons, defined once: number, page slug and title in each language.

Everything else derives from this list: the navigation of both languages, the lab notebooks'
names (``tutorial_code/notebooks/lesson_NN_<slug>.py``) and the tests that walk every lesson.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str        # docs/<lang>/lessons/<slug>.md
    title: dict      # {"ko": ..., "en": ...}, as shown in the navigation

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


def _lessons(*rows) -> tuple[Lesson, ...]:
    return tuple(Lesson(n, slug, {"ko": ko, "en": en}) for n, (slug, ko, en) in enumerate(rows, start=1))


LESSONS = _lessons(
    ("why-attention", "왜 어텐션인가", "Why attention"),
    ("library-qkv", "도서관 비유로 보는 쿼리, 키, 밸류", "Q, K and V through a library"),
    ("scaled-dot-product", "스케일드 닷프로덕트 어텐션, 한 단계씩", "Scaled dot-product attention, step by step"),
    ("self-attention", "셀프 어텐션", "Self-attention"),
    ("multi-head", "멀티헤드 어텐션", "Multi-head attention"),
    ("position", "위치 정보", "Position information"),
    ("transformer-block", "트랜스포머 블록", "The Transformer block"),
    ("encoder-decoder", "인코더, 디코더, 그리고 세 가지 변형", "Encoder, decoder and the three variants"),
    ("cost-and-impact", "트랜스포머가 기반이 된 이유와 그 비용", "Why it became the foundation, and what it costs"),
)
SLUGS = tuple(lesson.slug for lesson in LESSONS)
