"""Shared fixtures.

Site fixtures (session-scoped, so a test run builds the site once and starts one browser):
``built_site`` (the site built with ``mkdocs build --strict``), ``report`` (the experiments'
results that build used: a missing or corrupt one fails, never skips), ``site_url`` (the site,
served on 127.0.0.1), ``browser`` (Debian's chromium driven by Playwright) and ``survey`` (every
page visited once per width for the site-wide browser checks); ``site_page`` is a fresh browser
page per test that records every request it makes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[1]
# Debian's chromium; CHROMIUM_PATH points elsewhere (a different distribution's build)
CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
# flags that keep chromium from calling home (component updates, sync, safe browsing
# lists, QUIC probes): a test that counts requests to other hosts must see only the page's
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _build_site(site: Path) -> None:
    """``mkdocs build --strict`` into ``site``; RuntimeError with mkdocs' output if it fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, request) -> Path:
    """Build the site once per test run into a temp dir and return that dir.

    With pytest-xdist's workers (pytest.ini: ``-n``), the first worker to ask builds it into
    the run's shared temp dir while the others wait on a file lock, and all of them use it; a
    failed build is written down there, so the others report it instead of building again.
    """
    if not hasattr(request.config, "workerinput"):  # one process (-n 0, or -p no:xdist)
        site = tmp_path_factory.mktemp("site")
        try:
            _build_site(site)
        except RuntimeError as exc:
            pytest.fail(str(exc), pytrace=False)
        return site
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent  # the same for every worker of this run
    site, failed = shared / "site", shared / "site-failed.txt"
    with FileLock(str(shared / "site.lock")):
        if not failed.exists() and not (site / "index.html").exists():
            try:
                _build_site(site)
            except RuntimeError as exc:
                failed.write_text(str(exc), encoding="utf-8")
    if failed.exists():
        pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
    return site


@pytest.fixture(scope="session")
def report(built_site):
    """The experiments' report (``coursebuild.pipeline.runner.Report``) of the cache the site was
    built from (``TUTORIAL_EXPERIMENTS_OUT``, else ``.build/``): the build has just run every
    experiment, so a missing or corrupt result is a failure that says what is wrong, not a skip."""
    from coursebuild.paths import DEFAULT_OUT
    from coursebuild.pipeline.runner import load_report

    out = Path(os.environ.get("TUTORIAL_EXPERIMENTS_OUT") or DEFAULT_OUT)
    try:
        return load_report(out)
    except Exception as exc:  # noqa: BLE001 - any reason the results cannot be read fails the tests
        pytest.fail(f"the site was built, but its experiment results in {out} cannot be read: "
                    f"{type(exc).__name__}: {exc}", pytrace=False)


def pytest_collection_modifyitems(config, items):
    """Order the run for two or more workers: the first module that needs the built site goes
    first (its worker builds the site), then every module that does not need it, then the
    other site modules, so no worker waits idle for the build. Within a module the order stays."""
    def module(item):
        return item.nodeid.split("::")[0]

    site_modules = [module(i) for i in items if "built_site" in getattr(i, "fixturenames", ())]
    if not site_modules:
        return
    first, needs_site = site_modules[0], set(site_modules)
    items.sort(key=lambda i: 0 if module(i) == first else 2 if module(i) in needs_site else 1)


@pytest.fixture(scope="session")
def site_url(built_site) -> str:
    """Serve the built site over http on 127.0.0.1 (a free port); return its root URL
    (the benchmarks' server too: coursebuild.static_server)."""
    from coursebuild.static_server import serve

    with serve(built_site) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium through Playwright (never `playwright install`)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} not found; browser tests need Debian's chromium and a Korean font: "
            "apt-get install -y chromium fonts-nanum",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def survey(browser, built_site, site_url, request, tmp_path_factory) -> dict[str, dict]:
    """Every page visited once at 1280 px and once at 390 px, with what the site-wide browser
    checks assert on (tests/browser/survey.py): {page path ("" for the home page): {"desktop":
    {...}, "phone": {...}}}. With pytest-xdist the workers that ask share the pages (shards,
    each collected once under a file lock in the run's shared temp dir)."""
    import survey as collector  # tests/browser/survey.py

    shared = tmp_path_factory.getbasetemp().parent if hasattr(request.config, "workerinput") else None
    return collector.survey(browser, built_site, site_url, shared)


PHONE = {"width": 390, "height": 844}  # CSS px: the phone every widget must fit

# what sticks out on a phone: the page wider than the screen, the widget past the screen's
# right edge or wider than its box, or one of its scroll boxes (.widget-map, .widget-scroll)
# that would have to scroll; [] when the widget fits
FITS_A_PHONE = """(selector) => {
  const w = document.querySelector(selector), width = document.documentElement.clientWidth, out = []
  if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} > ${width} px`)
  if (w.getBoundingClientRect().right > width) out.push(`widget's right edge at ${w.getBoundingClientRect().right} px`)
  if (w.scrollWidth > w.clientWidth) out.push(`widget ${w.scrollWidth} > ${w.clientWidth} px`)
  for (const box of w.querySelectorAll('.widget-map, .widget-scroll'))
    if (box.scrollWidth > box.clientWidth) out.push(`${box.className} ${box.scrollWidth} > ${box.clientWidth} px`)
  return out
}"""


@pytest.fixture
def phone_page(browser):
    """A new page the size of a phone (:data:`PHONE`), in its own context: only 127.0.0.1 is
    reachable, and ``page.errors`` collects console errors and uncaught exceptions."""
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.route("**/*", lambda r: r.continue_() if urlsplit(r.request.url).hostname == "127.0.0.1"
                  else r.abort())
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


@pytest.fixture
def site_page(browser, site_url):
    """A new page in its own browser context (desktop size, Korean locale).

    ``page.requests`` lists the URL of every request the page made; requests to any
    host other than 127.0.0.1 are also aborted, so a test never waits on the network.
    """
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="ko-KR", service_workers="block"
    )
    page = context.new_page()
    page.requests = []
    context.on("request", lambda request: page.requests.append(request.url))

    def only_local(route):
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            route.abort()

    context.route("**/*", only_local)
    yield page
    context.close()

