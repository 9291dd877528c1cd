"""MkDocs hook: each lesson's printable handout (A4 PDF, both languages), and the link to it.

Listed under ``hooks:`` in mkdocs.yml after ``experiments_hook.py`` (whose results and figures
the handouts show). The work is in :mod:`coursebuild.handouts`; the PDFs are cached in
``.build/handouts/`` under a key of everything that goes into them, so a warm build copies
them. The versions with the answers are written into the instructor pack
(``handouts/<lang>/``, :func:`coursebuild.editions.staging`), never into the site. Each lesson page gets ``page.handout_link`` (``docs/overrides/partials/classroom.html``).
"""

import logging
import os
import re
import time
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from coursebuild import editions, experiment_results, handouts
from coursebuild import workarounds as wa
from coursebuild.course import LESSONS
from coursebuild.paths import DEFAULT_OUT

log = logging.getLogger("mkdocs.hooks.handouts")
LESSON = re.compile(r"^(?:(?P<lang>[a-z]{2})/)?lessons/(?P<slug>[^/]+)\.md$")
CACHE = Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT) / "handouts"


def _made(config) -> dict:
    state = wa.build_state(config, "handouts")
    if "files" not in state:
        report = experiment_results.report(config)
        figures = {(lang, o.name, stem): path for o in report.outcomes for lang in ("ko", "en")
                   for stem, path in o.figure_paths(lang).items()}

        def figure_path(lang, exp, stem):
            try:
                return figures[(lang, exp, stem)]
            except KeyError:
                raise KeyError(f"handouts: no figure {exp}.{stem} for {lang}") from None

        start = time.perf_counter()
        edition = config.extra.get("edition", editions.DEFAULT)
        results = experiment_results.data_from_report(report)
        try:
            done = handouts.build(CACHE / "site", results, figure_path, cache=CACHE / "cache",
                                  edition=edition)
            # the versions with answers go to the instructor pack only (handouts/<lang>/)
            answered = handouts.build(editions.staging(config) / "handouts", results, figure_path,
                                      cache=CACHE / "cache", answers=True, edition=edition)
        except (ValueError, KeyError, FileNotFoundError) as exc:
            raise PluginError(f"handouts: {exc}") from None
        done_all = {**{("s",) + k: v for k, v in done.items()}, **{("a",) + k: v for k, v in answered.items()}}
        made = sum(new for _, new in done_all.values())
        log.info("handouts: %d PDFs, with and without answers (%d made, %d from the cache) in %.1fs",
                 len(done_all), made, len(done_all) - made, time.perf_counter() - start)
        state["files"] = {handouts.site_path(lesson, lang): done[(lesson.number, lang)][0]
                          for lesson in LESSONS for lang in ("ko", "en")}
    return state["files"]


@event_priority(wa.AFTER_I18N)
def on_files(files, config):
    for uri, path in _made(config).items():
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def on_page_context(context, page, config, nav):
    m = LESSON.match(page.file.src_uri)
    lesson = next((l for l in LESSONS if m and l.slug == m["slug"]), None)
    if lesson is not None:
        lang = wa.building_language(config)
        page.handout_link = {"url": get_relative_url(handouts.site_path(lesson, lang), page.url),
                             "filename": handouts.file_name(lesson)}
    return context
