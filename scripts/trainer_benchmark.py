#!/usr/bin/env python3
"""Measure lesson 8's in-page trainer in headless Chromium, against PyTorch, side by side in one run.

Serves a built site on 127.0.0.1 (:mod:`coursebuild.static_server`) and, for the trainer
widget's default configuration (D = 32, h = 4, N = 2, 6 digits, batch 32):

- **throughput**: training samples per second of the page's JavaScript (transformer.js,
  trainer_optim.js, trainer_task.js and trainer.js in Chromium, on the page's main thread) and of PyTorch on one CPU thread
  (tutorial_code's model, the same batches, the same one-cycle recipe), in alternating rounds so
  that both sides share the machine's load; the ratio of the medians (goal >= 0.5x);
- **learning**: the time from pressing Train on the lesson 8 page to the widget's "done" at
  >= 99 % validation exact match with the default settings (the worker, its evaluations every
  ``eval_every`` steps and the page's drawing included; goal <= 60 s), with the step it stopped at;
- **interactions while training**: Pause, Resume and a change of the head shown, each operated
  ``--runs`` times while the worker trains; milliseconds from the dispatch to the first frame
  painted after it (the widget keeps changing while it trains, so there is no quiet frame to
  wait for); the median (goal <= 50 ms);
- **bytes**: the trainer's JavaScript gzipped (trainer.js, trainer_optim.js, trainer_task.js,
  trainer_worker.js, widgets/train.js:
  what the trainer adds; goal <= 50 KB) and the lesson 8 page's bytes over the wire, served
  gzip-compressed as GitHub Pages does, on a cold cache, scrolled through and with Train pressed
  (so the worker's scripts count; goal <= 1.5 MB).

    python scripts/trainer_benchmark.py --site /tmp/site
    python scripts/trainer_benchmark.py --site /tmp/site --only throughput --steps 20 --rounds 5

Prints the machine's load average (``os.getloadavg``) before and after. A benchmark, never a test.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import time
from pathlib import Path

from coursebuild.static_server import serve
from widget_benchmark import CHROMIUM_ARGS

PAGES = {"ko": "lessons/encoder-decoder/", "en": "en/lessons/encoder-decoder/"}
WIDGET = '.widget[data-widget="train"]'
# the widget's defaults (docs/assets/javascripts/widgets/train.js, BASE and settings())
CONFIG = dict(vocab_size=13, d_model=32, n_heads=4, d_ff=64, n_layers=2)
LENGTH, BATCH, LR = 6, 32, 5e-3
TRAINER_FILES = ("assets/javascripts/trainer.js", "assets/javascripts/trainer_optim.js",
                 "assets/javascripts/trainer_task.js", "assets/javascripts/trainer_worker.js",
                 "assets/javascripts/widgets/train.js")
MEASURES = ("bytes", "throughput", "learning", "interactions")

# the page's side: the batches it trains on (returned, for PyTorch to train on the same), then
# `rounds` timed rounds of `steps` Adam steps each, after one untimed step (the JIT's warm-up)
SETUP_JS = """([cfg, steps, rounds, batch, length, lr, optimiser]) => {
  const model = TrainerTask.initModel(Object.assign({position: "sinusoidal", norm_first: false, eps: 1e-5}, cfg), 0);
  const task = TrainerTask.task(0, length, 10);
  const run = Trainer.trainer(model, optimiser, "one_cycle", lr, 1 + steps * rounds);
  const batches = Array.from({length: 1 + steps * rounds}, () => task.batch(batch));
  const warm = batches[0]; run.trainStep(warm.srcs, warm.tgts);
  window.benchRound = (r) => {
    const t0 = performance.now();
    for (let i = 0; i < steps; i++) { const b = batches[1 + r * steps + i]; run.trainStep(b.srcs, b.tgts); }
    return (performance.now() - t0) / 1000;
  };
  return batches.map((b) => [b.srcs, b.tgts]);
}"""

# press Train and wait for the worker to stop; seconds from the click to "done"
LEARN_JS = """async (selector) => {
  const root = document.querySelector(selector), train = root.querySelector("button");
  const t0 = performance.now();
  train.click();
  await new Promise((resolve) => {
    const seen = new MutationObserver(() => {
      if (["done", "diverged", "failed"].includes(root.dataset.state)) { seen.disconnect(); resolve(); }
    });
    seen.observe(root, {attributes: true, attributeFilter: ["data-state"]});
  });
  const exact = root.querySelector('output[data-key="exact"]').dataset.value;
  return {seconds: (performance.now() - t0) / 1000, state: root.dataset.state, step: Number(root.dataset.step),
          exact: exact === undefined ? null : Number(exact)};
}"""

# press Train, wait until it has run a few steps, then operate Pause/Resume and the head select
# `runs` times each while it trains: ms from the dispatch to the first frame painted after it
INTERACT_JS = """async ([selector, runs]) => {
  const root = document.querySelector(selector), buttons = root.querySelectorAll("button");
  const train = buttons[0], pause = buttons[1], head = root.querySelector('select[id$="-head"]');
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)));
  const wait = (ms) => new Promise(r => setTimeout(r, ms));
  train.click();
  while (!(Number(root.dataset.step) >= 5)) await wait(20);
  const times = {pause: [], resume: [], head: []};
  const time = async (kind, act) => { const t0 = performance.now(); act(); times[kind].push(await frame() - t0); };
  for (let n = 0; n < runs && root.dataset.state !== "done"; n++) {
    await time("pause", () => pause.click());
    await wait(30);
    await time("resume", () => pause.click());
    await wait(30);
    await time("head", () => { head.selectedIndex = (head.selectedIndex + 1) % head.options.length;
                               head.dispatchEvent(new Event("change", {bubbles: true})); });
    await wait(30);
  }
  const stepsDone = Number(root.dataset.step);
  root.querySelectorAll("button")[2].click();  // Reset: the worker stops
  return {times, step: stepsDone};
}"""


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def open_widget(page, url: str):
    page.goto(url, wait_until="networkidle")
    page.locator(WIDGET).scroll_into_view_if_needed()
    page.wait_for_selector(f'{WIDGET}[data-state="ready"]', timeout=30_000)


def torch_trainer(batches):
    """PyTorch on one thread over the same batches: returns round(start, steps) -> seconds."""
    import torch

    import tutorial_code as tc
    from tutorial_code.experiments.common import seq2seq as s2s

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = tc.EncoderDecoderTransformer(tc.TransformerConfig(**CONFIG))
    from tutorial_code.experiments.common import trainer_optim
    opt, sched = trainer_optim.build_optimizer(model.parameters(), trainer_optim.Optimiser(), "one_cycle", LR,
                                               total_steps=len(batches))
    tensors = [(torch.tensor(src), torch.tensor(tgt)) for src, tgt in batches]

    def step(src, tgt):
        loss, _ = s2s.seq2seq_loss(model, src, tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()

    step(*tensors[0])  # warm-up, as the page's side

    def run(start: int, steps: int) -> float:
        t0 = time.perf_counter()
        for src, tgt in tensors[start:start + steps]:
            step(src, tgt)
        return time.perf_counter() - t0
    return run


def measure_throughput(browser, base: str, steps: int, rounds: int) -> dict:
    page = browser.new_page()
    page.goto(base)
    from tutorial_code.experiments.common import trainer_optim
    for name in ("maths.js", "transformer.js", "trainer_optim.js", "trainer_task.js", "trainer.js"):
        page.add_script_tag(url=base + "assets/javascripts/" + name)
    optimiser = trainer_optim.page_data(trainer_optim.Optimiser())
    batches = page.evaluate(SETUP_JS, [CONFIG, steps, rounds, BATCH, LENGTH, LR, optimiser])
    py_round = torch_trainer(batches)
    js, py = [], []
    for r in range(rounds):  # alternating, so both sides see the same load
        js.append(page.evaluate("(r) => benchRound(r)", r))
        py.append(py_round(1 + r * steps, steps))
    page.close()
    samples = steps * BATCH
    return {"js": [samples / s for s in js], "py": [samples / s for s in py],
            "ratio": statistics.median(py) / statistics.median(js), "steps": steps, "rounds": rounds}


def measure_learning(browser, base: str, lang: str) -> dict:
    page = browser.new_page()
    open_widget(page, base + PAGES[lang])
    got = page.evaluate(LEARN_JS, WIDGET)
    page.close()
    return got


def measure_interactions(browser, base: str, lang: str, runs: int) -> dict:
    page = browser.new_page()
    open_widget(page, base + PAGES[lang])
    got = page.evaluate(INTERACT_JS, [WIDGET, runs])
    page.close()
    return got


def measure_bytes(browser, site: Path, lang: str) -> dict:
    """The trainer's files gzipped, and the lesson page's bytes over the wire (gzip, cold cache,
    scrolled through, Train pressed and a few steps run)."""
    gz = {f: len(gzip.compress((site / f).read_bytes(), 9)) for f in TRAINER_FILES}
    with serve(site, gzip=True) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
        page = context.new_page()
        # every response of the page and of its worker (Playwright reports both), as encoded
        # (gzip) bodies plus headers
        done = []
        context.on("requestfinished", lambda r: done.append(r))
        page.goto(url + PAGES[lang], wait_until="networkidle")
        page.evaluate("""async () => {  // bring every lazy figure and widget into view
          for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
            scrollTo(0, y); await new Promise((r) => setTimeout(r, 30)) }
          await Promise.all([...document.images].map((i) => i.decode().catch(() => null)))
        }""")
        page.locator(WIDGET).scroll_into_view_if_needed()
        page.wait_for_selector(f'{WIDGET}[data-state="ready"]', timeout=30_000)
        page.locator(WIDGET).locator("button").nth(0).click()
        page.wait_for_function(f"() => Number(document.querySelector('{WIDGET}').dataset.step) >= 2", timeout=60_000)
        page.wait_for_load_state("networkidle")
        sizes = [(r.url, r.sizes()) for r in done]
        total = int(sum(z["responseBodySize"] + z["responseHeadersSize"] for _, z in sizes))
        worker_seen = any(u.endswith("trainer_worker.js") for u, _ in sizes)
        context.close()
    return {"gzip": gz, "page": total, "worker_seen": worker_seen}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--site", type=Path, required=True, help="a site built by mkdocs build (-d DIR)")
    p.add_argument("--steps", type=int, default=20, help="training steps per timed round (default 20)")
    p.add_argument("--rounds", type=int, default=5, help="alternating timed rounds per side (default 5)")
    p.add_argument("--runs", type=int, default=20, help="operations of each control while training (default 20)")
    p.add_argument("--lang", choices=tuple(PAGES), default="en", help="the lesson page used (default en)")
    p.add_argument("--only", choices=MEASURES, action="append", help="only these measurements (repeatable)")
    p.add_argument("--chromium", default="/usr/bin/chromium", help="the chromium binary")
    args = p.parse_args(argv)
    if not (args.site / PAGES[args.lang] / "index.html").is_file():
        p.error(f"{args.site / PAGES[args.lang] / 'index.html'} not found: build the site first "
                "(mkdocs build -d DIR)")
    for name in ("steps", "rounds", "runs"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    only = args.only or MEASURES
    from playwright.sync_api import sync_playwright

    print(f"before: {load()} on {os.cpu_count()} CPUs")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        if "bytes" in only:
            b = measure_bytes(browser, args.site, args.lang)
            for f, n in b["gzip"].items():
                print(f"{f:45s} {n / 1000:6.1f} KB gzip")
            print(f"{'the trainer JavaScript, together':45s} {sum(b['gzip'].values()) / 1000:6.1f} KB gzip  (goal <= 50 KB)")
            print(f"{PAGES[args.lang]} over the wire (gzip, cold cache, scrolled, Train pressed): "
                  f"{b['page'] / 1e6:.3f} MB  (goal <= 1.5 MB; the worker's scripts "
                  f"{'counted' if b['worker_seen'] else 'NOT seen'})")
        with serve(args.site) as base:
            if "throughput" in only:
                t = measure_throughput(browser, base, args.steps, args.rounds)
                js, py = statistics.median(t["js"]), statistics.median(t["py"])
                print(f"throughput, {t['rounds']} alternating rounds of {t['steps']} steps x {BATCH} samples, median "
                      f"(min-max):")
                print(f"  page (Chromium, main thread)  {js:8.1f} samples/s ({min(t['js']):.1f}-{max(t['js']):.1f})")
                print(f"  PyTorch (1 thread)            {py:8.1f} samples/s ({min(t['py']):.1f}-{max(t['py']):.1f})")
                print(f"  ratio page/PyTorch            {t['ratio']:8.2f}x  (goal >= 0.5x)")
            if "learning" in only:
                r = measure_learning(browser, base, args.lang)
                exact = "-" if r["exact"] is None else f"{100 * r['exact']:.1f} %"
                print(f"Train -> {r['state']}: {r['seconds']:.1f} s, stopped at step {r['step']}, validation exact "
                      f"match {exact}  (goal: >= 99 % within 60 s)")
            if "interactions" in only:
                r = measure_interactions(browser, base, args.lang, args.runs)
                every = [x for ts in r["times"].values() for x in ts]
                print(f"interactions while training (dispatch -> next painted frame; steps {r['step']} by the end):")
                for kind, ts in r["times"].items():
                    if ts:
                        print(f"  {kind:7s} median {statistics.median(ts):6.1f} ms, slowest {max(ts):6.1f} ms (n = {len(ts)})")
                if every:
                    print(f"  all     median {statistics.median(every):6.1f} ms  (goal <= 50 ms)")
        browser.close()
    print(f"after: {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
