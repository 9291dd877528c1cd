#!/usr/bin/env python
"""Measure lesson 8's in-page trainer against PyTorch, side by side in one run.

Serves a built site on 127.0.0.1 (coursebuild.static_server) and, for the
trainer widget's default configuration:

- **throughput**: training samples per second of the page's JavaScript (transformer.js and
  trainer.js in headless Chromium, on the page's main thread) and of PyTorch on one CPU thread
  (tutorial_code's model, the same batch size and sequences), and their ratio (goal ≥ 0.5×);
- **bytes**: the trainer's JavaScript (trainer.js, trainer_worker.js, widgets/train.js) gzipped
  (goal ≤ 50 KB; only train.js loads with the page, the rest when Train is pressed).

    python scripts/trainer_benchmark.py --site /tmp/site --steps 20
"""

from __future__ import annotations

import argparse
import gzip
import time
from pathlib import Path

import torch

import tutorial_code as tc
from tutorial_code.experiments.common import seq2seq as s2s
from coursebuild.static_server import serve
from coursebuild.widget_benchmark import CHROMIUM_ARGS

# the widget's defaults (docs/assets/javascripts/widgets/train.js, BASE and settings())
CONFIG = dict(vocab_size=13, d_model=32, n_heads=4, d_ff=64, n_layers=2)
LENGTH, BATCH = 6, 32
FILES = ("assets/javascripts/trainer.js", "assets/javascripts/trainer_worker.js",
         "assets/javascripts/widgets/train.js")

TIME_JS = """([cfg, steps, batch, length]) => {
  const model = Trainer.initModel(Object.assign({position: "sinusoidal", norm_first: false, scaled: true}, cfg), 0);
  const task = Trainer.task(0, length, 10);
  const run = Trainer.trainer(model, {schedule: "one_cycle", lr: 5e-3, betas: [0.9, 0.999], eps: 1e-8}, steps + 2);
  const warm = task.batch(batch); run.trainStep(warm.srcs, warm.tgts);  // JIT warm-up
  const batches = Array.from({length: steps}, () => task.batch(batch));
  const t0 = performance.now();
  for (const b of batches) run.trainStep(b.srcs, b.tgts);
  return (performance.now() - t0) / 1000;
}"""


def torch_seconds(steps: int) -> float:
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = tc.EncoderDecoderTransformer(tc.TransformerConfig(**CONFIG))
    opt, sched = s2s.build_optimizer(model.parameters(), s2s.Recipe("bench"), total_steps=steps + 2,
                                     d_model=CONFIG["d_model"])
    g = torch.Generator().manual_seed(0)

    def batch():
        digits = torch.randint(0, 10, (BATCH, LENGTH), generator=g) + 3
        bos, eos = torch.ones(BATCH, 1, dtype=torch.long), torch.full((BATCH, 1), 2)
        return torch.cat([bos, digits, eos], 1), torch.cat([bos, digits.flip(1), eos], 1)

    def step(src, tgt):
        loss, _ = s2s.seq2seq_loss(model, src, tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()

    step(*batch())  # warm-up
    batches = [batch() for _ in range(steps)]
    t0 = time.perf_counter()
    for src, tgt in batches:
        step(src, tgt)
    return time.perf_counter() - t0


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--site", type=Path, required=True, help="a site built by mkdocs build")
    p.add_argument("--steps", type=int, default=20, help="training steps timed on each side")
    p.add_argument("--chromium", default="/usr/bin/chromium", help="the chromium binary")
    args = p.parse_args(argv)
    if not (args.site / "index.html").exists():
        raise SystemExit(f"{args.site} holds no built site; run: mkdocs build -d {args.site}")
    from playwright.sync_api import sync_playwright

    server = serve(args.site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(base)
            for name in ("maths.js", "transformer.js", "trainer.js"):
                page.add_script_tag(url=base + "assets/javascripts/" + name)
            js = page.evaluate(TIME_JS, [CONFIG, args.steps, BATCH, LENGTH])
            browser.close()
    finally:
        server.shutdown()
    py = torch_seconds(args.steps)
    samples = args.steps * BATCH
    print(f"page (Chromium)      {samples / js:8.1f} samples/s")
    print(f"PyTorch (1 thread)   {samples / py:8.1f} samples/s")
    print(f"ratio page/PyTorch   {py / js:8.2f}x  (goal >= 0.5x)")
    sizes = {f: len(gzip.compress((args.site / f).read_bytes(), 9)) for f in FILES}
    for f, n in sizes.items():
        print(f"{f:45s} {n / 1000:6.1f} KB gzip")
    print(f"{'trainer JavaScript in all':45s} {sum(sizes.values()) / 1000:6.1f} KB gzip  (goal <= 50 KB)")


if __name__ == "__main__":
    main()
