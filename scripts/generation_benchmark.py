#!/usr/bin/env python3
"""Time greedy generation in the page with and without the key/value cache, against PyTorch.

Serves a built site on 127.0.0.1 (:mod:`coursebuild.static_server`), loads ``maths.js`` and
``transformer.js`` into headless Chromium and the largest in-page decoder (of the exported
models, the one with the most weight bytes: lesson 1's translator), and for each length
(default 64, 128, 256 tokens) generates that many tokens from the lesson's example, past EOS:

- in the page (``Transformer.greedyDecode``, on the page's main thread) with the cache and
  without it (``{useCache: false}``: the whole prefix at every step);
- in PyTorch on one CPU thread, the same exported weights (``model_export.load_exported``),
  ``tc.greedy_decode(..., eos_id=None)`` with and without its cache.

The four are timed in alternating rounds (one untimed warm-up each), so that they share the
machine's load; medians of ``--rounds``. Prints milliseconds per token, the page's speed-up
from the cache, and the page's per-token latency over PyTorch's with the cache (goal: a
speed-up of at least 3x at 256 tokens and a latency within 2x of PyTorch's), and whether the
page wrote PyTorch's tokens. Prints the load average before and after. A benchmark, never a test.

    python scripts/generation_benchmark.py --site /tmp/site
    python scripts/generation_benchmark.py --site /tmp/site --lengths 64 128 256 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from coursebuild.outputs.models import MODEL_ROOT, MODELS, model_uri
from coursebuild.static_server import serve
from widget_benchmark import CHROMIUM_ARGS

SETUP_JS = """async (url) => {
  const model = await Transformer.loadModel(url), names = model.tokens.names;
  const src = model.manifest.example.map((w) => names.indexOf(w));
  window.benchGenerate = (n, useCache) => {
    const t0 = performance.now();
    const run = Transformer.greedyDecode(model, src, n, {useCache, stopAtEos: false});
    return {seconds: (performance.now() - t0) / 1000, tokens: run.tokens};
  };
  return {src, bos: model.tokens.bos_id, params: model.manifest.weights_bytes};
}"""


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def largest_model(site: Path) -> str:
    """The exported model with the most weight bytes in the built site."""
    sizes = {name: json.loads((site / model_uri(name)).read_text("utf-8"))["weights_bytes"]
             for name in MODELS if (site / model_uri(name)).is_file()}
    if not sizes:
        raise SystemExit(f"no exported model under {site / MODEL_ROOT}: build the site first")
    return max(sizes, key=sizes.get)


def torch_generator(site: Path, name: str, src: list[int], bos: int):
    """PyTorch on one thread: (n, use_cache) -> (seconds, tokens)."""
    import torch

    import tutorial_code as tc
    from tutorial_code.experiments.pagedata import model_export

    torch.set_num_threads(1)
    model = model_export.load_exported(site / model_uri(name))
    x = torch.tensor([src])

    def run(n: int, use_cache: bool):
        t0 = time.perf_counter()
        out = tc.greedy_decode(model, x, bos, n, eos_id=None, use_cache=use_cache)
        return time.perf_counter() - t0, out[0].tolist()
    return run


def measure(browser, site: Path, base: str, name: str, lengths, rounds: int) -> list[dict]:
    page = browser.new_page()
    page.goto(base)
    for script in ("maths.js", "transformer.js"):
        page.add_script_tag(url=base + "assets/javascripts/" + script)
    info = page.evaluate(SETUP_JS, base + model_uri(name))
    py = torch_generator(site, name, info["src"], info["bos"])
    rows = []
    for n in lengths:
        times = {"js_cache": [], "js_no_cache": [], "py_cache": [], "py_no_cache": []}
        tokens = {}
        for useCache in (True, False):  # warm-up (the JIT; PyTorch's first call)
            page.evaluate("([n, c]) => benchGenerate(n, c)", [n, useCache])
            py(n, useCache)
        for _ in range(rounds):  # alternating, so all four see the same load
            for cached in (True, False):
                mode = "cache" if cached else "no_cache"
                got = page.evaluate("([n, c]) => benchGenerate(n, c)", [n, cached])
                times["js_" + mode].append(got["seconds"])
                tokens["js_" + mode] = got["tokens"]
                secs, toks = py(n, cached)
                times["py_" + mode].append(secs)
                tokens["py_" + mode] = toks
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append({"N": n, "median_s": med, "min_s": {k: min(v) for k, v in times.items()},
                     "max_s": {k: max(v) for k, v in times.items()},
                     "same_tokens": len({json.dumps(t) for t in tokens.values()}) == 1,
                     "speedup_js": med["js_no_cache"] / med["js_cache"],
                     "speedup_py": med["py_no_cache"] / med["py_cache"],
                     "js_over_py_cache": med["js_cache"] / med["py_cache"]})
    page.close()
    return rows


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--site", type=Path, required=True, help="a site built by mkdocs build (-d DIR)")
    p.add_argument("--lengths", type=int, nargs="+", default=[64, 128, 256],
                   help="tokens generated (default 64 128 256)")
    p.add_argument("--rounds", type=int, default=5, help="alternating timed rounds (default 5)")
    p.add_argument("--chromium", default="/usr/bin/chromium", help="the chromium binary")
    args = p.parse_args(argv)
    if args.rounds < 1 or min(args.lengths) < 1:
        p.error("--rounds and every --lengths must be at least 1")
    if not (args.site / "index.html").is_file():
        p.error(f"{args.site / 'index.html'} not found: build the site first (mkdocs build -d DIR)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    from playwright.sync_api import sync_playwright

    name = largest_model(args.site)
    print(f"before: {load()} on {os.cpu_count()} CPUs")
    with sync_playwright() as pw, serve(args.site) as base:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        rows = measure(browser, args.site, base, name, args.lengths, args.rounds)
        browser.close()
    print(f"greedy generation by the {name} model (the largest in-page decoder), ms per token, "
          f"median of {args.rounds} alternating rounds (min-max):")
    print(f"{'N':>5} {'page, cache':>20} {'page, no cache':>22} {'PyTorch 1 thread, cache':>24} "
          f"{'PyTorch, no cache':>22}  page speed-up  page/PyTorch (cache)  same tokens")
    for r in rows:
        def cell(k, r=r):
            n = r["N"]
            return f"{1000 * r['median_s'][k] / n:.3f} ({1000 * r['min_s'][k] / n:.3f}-{1000 * r['max_s'][k] / n:.3f})"
        print(f"{r['N']:>5} {cell('js_cache'):>20} {cell('js_no_cache'):>22} {cell('py_cache'):>24} "
              f"{cell('py_no_cache'):>22}  {r['speedup_js']:12.1f}x  {r['js_over_py_cache']:19.2f}x  "
              f"{'yes' if r['same_tokens'] else 'NO'}")
    last = rows[-1]
    print(f"at {last['N']} tokens: the cache makes the page {last['speedup_js']:.1f}x faster (goal >= 3x); "
          f"the page's per-token latency with the cache is {last['js_over_py_cache']:.2f}x PyTorch's on one "
          f"thread (goal <= 2x); PyTorch's own cache speed-up {last['speedup_py']:.1f}x")
    print(f"after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
