#!/usr/bin/env python
"""Measure the in-page model widgets in a real browser: decoding time and bytes added.

Serves a built site on 127.0.0.1, opens the lesson 8 page in Debian's chromium (Playwright),
scrolls to the widget so that its model loads, then times greedy decoding of one input in the
page (``Transformer.greedyDecode``, what the widget's Decode button runs) and prints the median
of the runs, with the bytes each page now loads for the widgets (JavaScript, CSS) and the
model weights that load when the widget comes into view. Then the same for lesson 1's
translator (the translation model, on the lesson's example sentence).

    python scripts/widget_benchmark.py --site /tmp/site        # a site built by mkdocs build
    python scripts/widget_benchmark.py --site /tmp/site --runs 50 --digits 12345678
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import threading
from pathlib import Path

PAGE = "lessons/encoder-decoder/"
WIDGET_JS = ("assets/javascripts/transformer.js", "assets/javascripts/widgets/common.js",
             "assets/javascripts/widgets/reversal.js", "assets/javascripts/widgets/bottleneck.js",
             "assets/javascripts/widgets/translator.js")
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
    args = p.parse_args(argv)
    if not (args.site / PAGE / "index.html").is_file():
        p.error(f"{args.site / PAGE / 'index.html'} not found: build the site first (mkdocs build -d DIR)")
    if not (args.digits.isdigit() and 1 <= len(args.digits) <= 8 and args.digits.isascii()):
        p.error(f"--digits must be 1 to 8 digits, got {args.digits!r}")
    if args.runs < 1:
        p.error("--runs must be at least 1")
    return args


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # keep the report readable
        pass


def serve(site: Path):
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def measure(args) -> dict:
    from playwright.sync_api import sync_playwright

    server = serve(args.site)
    url = f"http://127.0.0.1:{server.server_address[1]}/{PAGE}"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            page = browser.new_page()
            got = time_widget(page, url, "reversal", TIME_DECODING, [[int(d) for d in args.digits], args.runs])
            tr = time_widget(page, url.removesuffix(PAGE) + TRANSLATOR_PAGE, "translator", TIME_TRANSLATION,
                             [args.runs])
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    manifest = json.loads((args.site / "assets/generated/models/reversal/reversal.json").read_text())
    size = lambda paths: sum((args.site / p).stat().st_size for p in paths)  # noqa: E731
    return {"input": args.digits, "output": " ".join(got["tokens"]), "runs": args.runs,
            "median_ms": statistics.median(got["times"]), "max_ms": max(got["times"]),
            "js_bytes": size(WIDGET_JS), "css_bytes": size(WIDGET_CSS),
            "weights_bytes": manifest["weights_bytes"],
            "manifest_bytes": (args.site / "assets/generated/models/reversal/reversal.json").stat().st_size,
            "translation": {"input": tr["input"], "output": " ".join(tr["tokens"]),
                            "median_ms": statistics.median(tr["times"]), "max_ms": max(tr["times"]),
                            "weights_bytes": weights(args.site, "translation")}}


def weights(site: Path, name: str) -> int:
    return json.loads((site / f"assets/generated/models/{name}/{name}.json").read_text())["weights_bytes"]


def main(argv=None) -> int:
    r = measure(parse_args(argv))
    print(f"greedy decoding of {r['input']} -> {r['output']}")
    print(f"  median of {r['runs']} runs: {r['median_ms']:.2f} ms (slowest {r['max_ms']:.2f} ms; budget 100 ms)")
    print(f"  JavaScript added per page: {r['js_bytes']:,} bytes uncompressed (budget 150,000); "
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
    raise SystemExit(main())
