// @ts-check
// The Web Worker that trains lesson 8's reversal model, so that the page stays responsive.
//
// Messages in: {type: "start", settings}, "pause", "resume", "reset"; settings holds the page
// data's base (task), config (the model's), optimiser (trainer_optim.py's numbers), schedule
// and lr. Messages out: {type: "progress", step, steps, loss, exact?, cross?} every few steps
// (exact: the validation exact match, cross: the last layer's cross-attention of the fixed
// input, one row per written token, per head), {type: "diverged", step, nonfinite, loss,
// weights} when the loss or a gradient stops being a finite number (nonfinite: "loss" or
// "gradient"; the weights of the step before are kept: trainer.js does not apply such a step),
// and {type: "done", weights}; the first progress message and the last carry the tokens
// (TrainerTask.TOKENS).
importScripts("maths.js", "transformer.js", "trainer_optim.js", "trainer_task.js", "trainer.js");

(function () {
  "use strict";
  /** @type {any} */
  const G = globalThis;
  /** @type {any} */
  let job = null;

  /** @param {any} model @param {number[]} src */
  function crossOf(model, src) {
    const run = G.Transformer.greedyDecode(model, src, src.length - 1), last = model.cfg.n_layers - 1;
    return run.steps.map(function (/** @type {any} */ step) {
      return step.cross[last].map(function (/** @type {Float32Array} */ w) { return Array.from(w); });
    });
  }

  function tick() {
    if (!job || job.paused) return;
    const s = job.settings, base = s.base, started = Date.now();
    while (Date.now() - started < 50 && job.run.steps() < base.steps) {  // short slices: pause is heard
      const b = job.task.batch(base.batch_size), r = job.run.trainStep(b.srcs, b.tgts), step = job.run.steps();
      if (r.nonfinite) {
        postMessage({ type: "diverged", step: step + 1, nonfinite: r.nonfinite, loss: r.loss,
                      weights: G.Trainer.weights(job.model), tokens: G.TrainerTask.TOKENS });
        job = null;
        return;
      }
      const evaluate = step % base.eval_every === 0 || step === base.steps;
      /** @type {any} */
      const msg = { type: "progress", step: step, steps: base.steps, loss: r.loss };
      if (evaluate) {
        msg.exact = G.TrainerTask.exactMatch(job.model, job.task.heldOut);
        msg.cross = crossOf(job.model, job.example);
      }
      postMessage(msg);
      if (evaluate && msg.exact >= base.target) { job.reached = true; break; }
    }
    const done = job.reached || job.run.steps() >= base.steps;
    if (done) {
      postMessage({ type: "done", step: job.run.steps(), weights: G.Trainer.weights(job.model), tokens: G.TrainerTask.TOKENS });
      job = null;
      return;
    }
    setTimeout(tick, 0);
  }

  onmessage = function (event) {
    const m = event.data;
    if (m.type === "start") {
      const s = m.settings, base = s.base;
      const model = G.TrainerTask.initModel(s.config, base.seed);
      job = { settings: s, model: model, task: G.TrainerTask.task(base.seed, base.length, base.n_held_out),
              run: G.Trainer.trainer(model, s.optimiser, s.schedule, s.lr, base.steps), paused: false,
              example: G.TrainerTask.pair(base.example).src };
      postMessage({ type: "progress", step: 0, steps: base.steps, loss: null, tokens: G.TrainerTask.TOKENS,
                    exact: G.TrainerTask.exactMatch(model, job.task.heldOut), cross: crossOf(model, job.example) });
      setTimeout(tick, 0);
    } else if (m.type === "pause" && job) {
      job.paused = true;
    } else if (m.type === "resume" && job) {
      job.paused = false;
      setTimeout(tick, 0);
    } else if (m.type === "reset") {
      job = null;
    }
  };
})();
