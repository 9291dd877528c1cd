#!/usr/bin/env python3
"""Measure the lesson widgets in a real browser: interactions, decoding time and bytes added.

Serves a built site on 127.0.0.1 and opens it in Debian's chromium (Playwright):

- **interactions** (every widget, found by itself): on every lesson page, every
  ``.widget[data-widget]`` is scrolled into view until it is ready, then each of its controls
  is operated ``--runs`` times (a button clicked, a select moved to its next option, a range or
  number input stepped, a checkbox toggled, a radio group moved on, any other focusable element sent an arrow key),
  timing from the dispatch to the first animation frame after the widget's DOM stops changing;
  prints the median per widget and per interaction kind, and the JavaScript each lesson page
  loads for its widgets (common.js, the scripts its widgets name, their data);
- **decoding**: greedy decoding of one input by the lesson 8 model in the page
  (``Transformer.greedyDecode``, what the reversal widget's Decode button runs), with the bytes of
  the model weights that load when the widget comes into view; then the same for lesson 1's
  translator (the translation model, on the lesson's example sentence).

    python scripts/widget_benchmark.py --site /tmp/site        # a site built by mkdocs build
    python scripts/widget_benchmark.py --site /tmp/site --runs 50 --digits 12345678
    python scripts/widget_benchmark.py --site /tmp/site --only interactions --lang en
"""

from __future__ import annotations

import argparse
import re
import json
import statistics
import sys
from pathlib import Path

import yaml

from coursebuild.course import LESSONS
from coursebuild.paths import REPO_ROOT
from coursebuild.static_server import serve
from coursebuild.pages.widgets import page_javascript

PAGE = "lessons/encoder-decoder/"
TRANSLATOR_PAGE = "lessons/why-attention/"
WIDGET_CSS = ("assets/widgets.css",)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

TIME_DECODING = """async ([url, digits, runs]) => {
  const model = await Transformer.loadModel(url), tok = model.tokens;
  const src = [tok.bos_id, ...digits.map(d => d + tok.digit0), tok.eos_id];
  const times = [];
  let run;
  Transformer.greedyDecode(model, src, model.manifest.max_new_tokens);  // warm-up (JIT)
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run = Transformer.greedyDecode(model, src, model.manifest.max_new_tokens);
    times.push(performance.now() - t0);
  }
  return {times, tokens: run.tokens.map(t => tok.names[t])};
}"""

WIDGET_DATA = re.compile(r'<div class="widget"[^>]*><script type="application/json">(.*?)</script>', re.S)
# what counts as a control of a widget, and how each kind is operated (see TIME_INTERACTIONS)
CONTROLS = "button, select, input, [tabindex='0']"

# Operate control number i of a widget `runs` times; each time: dispatch, then wait frame by
# frame until a frame passes with no DOM change in the widget (at most 2 s), and record the
# time from the dispatch to the first frame after the last change. Controls are looked up
# again every time, since a widget may redraw them.
TIME_INTERACTIONS = """async ([selector, controls, runs]) => {
  const root = document.querySelector(selector);
  // a frame's callbacks run before it paints; the timeout after it runs once it has painted
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)));
  const kindOf = (c) => c.tagName === "BUTTON" ? "button" : c.tagName === "SELECT" ? "select"
    : c.tagName === "INPUT" ? (["range", "number", "checkbox", "radio"].includes(c.type) ? c.type : "text") : "key";
  function operate(c, kind, n) {
    if (kind === "button" || kind === "checkbox") c.click();
    else if (kind === "radio") { const group = [...root.querySelectorAll(`input[type=radio][name="${c.name}"]`)];
                                 group[(group.indexOf(c) + 1 + n) % group.length].click(); }
    else if (kind === "select") { c.selectedIndex = (c.selectedIndex + 1) % c.options.length; c.dispatchEvent(new Event("change", {bubbles: true})); }
    else if (kind === "range" || kind === "number") {
      const up = c.max === "" || Number(c.value) < Number(c.max);
      if (up) c.stepUp(); else c.value = c.min === "" ? "0" : c.min;
      c.dispatchEvent(new Event("input", {bubbles: true})); c.dispatchEvent(new Event("change", {bubbles: true}));
    } else c.dispatchEvent(new KeyboardEvent("keydown", {key: n % 2 ? "ArrowLeft" : "ArrowRight", bubbles: true}));
  }
  const out = [];
  const count = root.querySelectorAll(controls).length;
  for (let i = 0; i < count; i++) {
    const times = [], works = [];
    let kind = null;
    for (let n = 0; n < runs; n++) {
      const c = root.querySelectorAll(controls)[i];
      if (!c) break;
      kind = kindOf(c);
      if (kind === "text" || c.disabled) continue;  // text fields need typing; disabled: nothing to time
      let changed = 0;
      const seen = new MutationObserver(() => { changed += 1; });
      seen.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
      const t0 = performance.now();
      operate(c, kind, n);
      void root.offsetHeight;  // style and layout now, so that `work` is the widget's own cost
      const work = performance.now() - t0;
      let last = changed, end = await frame();
      const limit = t0 + 2000;
      while (true) {  // one quiet frame after the last change ends the interaction
        const t = await frame();
        if (changed === last || t > limit) break;
        last = changed;
        end = t;
      }
      seen.disconnect();
      times.push(end - t0);
      works.push(work);
    }
    const c = root.querySelectorAll(controls)[i], label = c && c.id && root.querySelector(`label[for="${c.id}"]`);
    const name = c ? (c.getAttribute("aria-label") || (label && label.textContent) || (c.tagName === "BUTTON" && c.textContent) || c.name || c.tagName.toLowerCase()) : "";
    out.push({index: i, kind, name: name.trim().slice(0, 40), times, works});
  }
  return out;
}"""


# the lesson 1 translator: greedy decoding of the lesson's sentence (the manifest's example)
TIME_TRANSLATION = """async ([url, runs]) => {
  const model = await Transformer.loadModel(url), names = model.tokens.names;
  const src = model.manifest.example.map(w => names.indexOf(w)), times = [];
  let run = Transformer.greedyDecode(model, src, model.manifest.max_new_tokens);  // warm-up (JIT)
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run = Transformer.greedyDecode(model, src, model.manifest.max_new_tokens);
    times.push(performance.now() - t0);
  }
  return {times, tokens: run.tokens.map(t => names[t]), input: model.manifest.example.join(" ")};
}"""


def time_widget(page, url, name, script, args):
    """Open ``url``, scroll to the ``name`` widget until its model is ready, run ``script``."""
    page.goto(url, wait_until="networkidle")
    widget = page.locator(f'.widget[data-widget="{name}"]')
    widget.scroll_into_view_if_needed()
    page.wait_for_selector(f'.widget[data-widget="{name}"][data-state="ready"]', timeout=30_000)
    return page.evaluate(script, [widget.get_attribute("data-model-url"), *args])


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--site", type=Path, required=True, help="a built site folder (mkdocs build -d DIR)")
    p.add_argument("--runs", type=int, default=20, help="timed decodings (default 20)")
    p.add_argument("--digits", default="37149285", help="the input, 1 to 8 digits (default: the lesson's)")
    p.add_argument("--chromium", default="/usr/bin/chromium", help="the chromium binary")
    p.add_argument("--only", choices=("interactions", "decoding"), help="one of the two measurements")
    p.add_argument("--lang", choices=("ko", "en"), default="ko", help="the lesson pages measured (default ko)")
    args = p.parse_args(argv)
    if not (args.site / PAGE / "index.html").is_file():
        p.error(f"{args.site / PAGE / 'index.html'} not found: build the site first (mkdocs build -d DIR)")
    if not (args.digits.isdigit() and 1 <= len(args.digits) <= 8 and args.digits.isascii()):
        p.error(f"--digits must be 1 to 8 digits, got {args.digits!r}")
    if args.runs < 1:
        p.error("--runs must be at least 1")
    return args


def extra_javascript(root: Path) -> list[str]:
    """The extra_javascript paths of mkdocs.yml (its !!python tags are read as plain values)."""
    class Loader(yaml.SafeLoader):
        pass
    Loader.add_multi_constructor("", lambda loader, tag, node: None)
    config = yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    return [entry if isinstance(entry, str) else entry["path"] for entry in config["extra_javascript"]]


def measure_interactions(args) -> dict:
    """Every widget of every lesson page: each control operated args.runs times (milliseconds)."""
    from playwright.sync_api import sync_playwright

    js = extra_javascript(REPO_ROOT)
    js_bytes = sum((args.site / p).stat().st_size for p in js)
    prefix = "" if args.lang == "ko" else "en/"
    pages, widgets = {}, {}
    with serve(args.site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        for lesson in LESSONS:
            path = f"{prefix}lessons/{lesson.slug}/"
            page.goto(base + path, wait_until="networkidle")
            # the data as the page was served (a widget replaces its script tag once it starts)
            html = (args.site / path / "index.html").read_text(encoding="utf-8")
            pages[path] = {"bytes": page_javascript(args.site, path.strip("/")),
                           "widgets": len(WIDGET_DATA.findall(html))}
            for i, name in enumerate(page.eval_on_selector_all(".widget[data-widget]", "ws => ws.map(w => w.dataset.widget)")):
                selector = f".widget[data-widget='{name}']"
                page.locator(selector).nth(0).scroll_into_view_if_needed()  # lazy widgets start in view
                page.wait_for_selector(f"{selector}[data-state='ready']", timeout=30_000)
                got = page.evaluate(TIME_INTERACTIONS, [selector, CONTROLS, args.runs])
                widgets[f"{name} ({path})"] = got
        browser.close()
    return {"pages": pages, "widgets": widgets, "js_files": len(js), "js_bytes": js_bytes}


def report_interactions(r: dict, runs: int) -> None:
    print(f"interactions: each control of each widget operated {runs} times; ms from dispatch to the "
          "first frame after the DOM settles (budget 50 ms)")
    for name, controls in r["widgets"].items():
        times = [t for c in controls for t in c["times"]]
        if not times:
            print(f"  {name}: no control to operate")
            continue
        works = [t for c in controls for t in c["works"]]
        print(f"  {name}: median {statistics.median(times):.1f} ms, slowest {max(times):.1f} ms "
              f"({len(times)} interactions, {len(controls)} controls; script and layout alone: median "
              f"{statistics.median(works):.1f} ms, slowest {max(works):.1f} ms)")
        kinds = {}
        for c in controls:
            kinds.setdefault(c["kind"], []).extend(c["times"])
        for kind, ts in sorted(kinds.items()):
            if ts:
                print(f"      {kind:9s} median {statistics.median(ts):6.1f} ms  slowest {max(ts):6.1f} ms  (n = {len(ts)})")
        for c in controls:  # name the controls over budget (a button that runs a model, say)
            if c["times"] and statistics.median(c["times"]) > 50:
                print(f"      over 50 ms: {c['kind']} \"{c['name']}\", median {statistics.median(c['times']):.1f} ms "
                      f"(n = {len(c['times'])})")
    print("JavaScript the widgets add per lesson page (common.js, the scripts its widgets name in "
          "data-scripts, their data; budget 150,000 bytes uncompressed; the site's "
          f"{r['js_files']} extra_javascript files, KaTeX included: {r['js_bytes']:,} bytes):")
    for path, p in r["pages"].items():
        files = ", ".join(f"{f.rsplit('/', 1)[-1]} {n:,}" for f, n in p["bytes"].items())
        print(f"  {path:36s} {sum(p['bytes'].values()):8,} bytes for {p['widgets']} widget(s): {files}")


def measure(args) -> dict:
    from playwright.sync_api import sync_playwright

    with serve(args.site) as base, sync_playwright() as pw:
        url = base + PAGE
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        page = browser.new_page()
        got = time_widget(page, url, "reversal", TIME_DECODING, [[int(d) for d in args.digits], args.runs])
        tr = time_widget(page, url.removesuffix(PAGE) + TRANSLATOR_PAGE, "translator", TIME_TRANSLATION,
                         [args.runs])
        browser.close()
    manifest = json.loads((args.site / "assets/generated/models/reversal/reversal.json").read_text())
    size = lambda paths: sum((args.site / p).stat().st_size for p in paths)  # noqa: E731
    return {"input": args.digits, "output": " ".join(got["tokens"]), "runs": args.runs,
            "median_ms": statistics.median(got["times"]), "max_ms": max(got["times"]),
            "js_bytes": sum(page_javascript(args.site, PAGE.strip("/")).values()), "css_bytes": size(WIDGET_CSS),
            "weights_bytes": manifest["weights_bytes"],
            "manifest_bytes": (args.site / "assets/generated/models/reversal/reversal.json").stat().st_size,
            "translation": {"input": tr["input"], "output": " ".join(tr["tokens"]),
                            "median_ms": statistics.median(tr["times"]), "max_ms": max(tr["times"]),
                            "weights_bytes": weights(args.site, "translation")}}


def weights(site: Path, name: str) -> int:
    return json.loads((site / f"assets/generated/models/{name}/{name}.json").read_text())["weights_bytes"]


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.only != "decoding":
        report_interactions(measure_interactions(args), args.runs)
    if args.only == "interactions":
        return 0
    r = measure(args)
    print(f"greedy decoding of {r['input']} -> {r['output']}")
    print(f"  median of {r['runs']} runs: {r['median_ms']:.2f} ms (slowest {r['max_ms']:.2f} ms; budget 100 ms)")
    print(f"  widget JavaScript on the lesson 8 page: {r['js_bytes']:,} bytes uncompressed (budget 150,000); "
          f"CSS: {r['css_bytes']:,} bytes")
    print(f"  loaded when the widget comes into view: weights {r['weights_bytes']:,} bytes, "
          f"manifest {r['manifest_bytes']:,} bytes")
    t = r["translation"]
    print(f"translator (lesson 1): greedy decoding of {t['input']} -> {t['output']}")
    print(f"  median of {r['runs']} runs: {t['median_ms']:.2f} ms (slowest {t['max_ms']:.2f} ms; budget 100 ms)")
    print(f"  weights {t['weights_bytes']:,} bytes; both models together "
          f"{t['weights_bytes'] + r['weights_bytes']:,} bytes (budget 1,000,000)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
