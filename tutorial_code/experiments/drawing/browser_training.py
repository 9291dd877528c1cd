"""Lesson 8's trainer runs draw nothing of their own: the page shows them beside the reader's run,
in the widget (``widgets/train.js``), from the page data; this module only names the experiment."""

from __future__ import annotations

LABELS = {"ko": {"title": "브라우저 학습 설정별 빌드 실행"},
          "en": {"title": "The build's run of each in-browser training setting"}}


def figures(results, lang, outdir):
    return []
