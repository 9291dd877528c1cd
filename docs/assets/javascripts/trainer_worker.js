// The Web Worker that trains lesson 8's reversal model, so that the page stays responsive.
//
// Messages in: {type: "start", settings}, "pause", "resume", "reset". Messages out:
// {type: "progress", step, steps, loss, exact?, cross?} every few steps (exact: the held-out
// exact match, cross: the last layer's cross-attention of the fixed input, one row per written
// token, per head), {type: "nan", step} when the loss stops being a number (the weights of the
// step before are kept: trainer.js does not apply a step whose loss is not finite), and
// {type: "done", weights}; the first progress message and the last carry the tokens (Trainer.TOKENS).
importScripts("maths.js", "transformer.js", "trainer.js");

let job = null;

function crossOf(model, src) {
  const run = Transformer.greedyDecode(model, src, src.length - 1), last = model.cfg.n_layers - 1;
  return run.steps.map(function (step) { return step.cross[last].map(function (w) { return Array.from(w); }); });
}

function tick() {
  if (!job || job.paused) return;
  const s = job.settings, started = Date.now();
  while (Date.now() - started < 50 && job.run.steps() < s.steps) {  // short slices: pause is heard
    const b = job.task.batch(s.batch_size), r = job.run.trainStep(b.srcs, b.tgts), step = job.run.steps();
    if (!isFinite(r.loss)) {
      postMessage({ type: "nan", step: step + 1, weights: Trainer.weights(job.model), tokens: Trainer.TOKENS });
      job = null;
      return;
    }
    const evaluate = step % s.eval_every === 0 || step === s.steps;
    const msg = { type: "progress", step: step, steps: s.steps, loss: r.loss };
    if (evaluate) {
      msg.exact = Trainer.exactMatch(job.model, job.task.heldOut);
      msg.cross = crossOf(job.model, job.example);
    }
    postMessage(msg);
    if (evaluate && msg.exact >= s.target) { job.reached = true; break; }
  }
  const done = job.reached || job.run.steps() >= s.steps;
  if (done) {
    postMessage({ type: "done", step: job.run.steps(), weights: Trainer.weights(job.model), tokens: Trainer.TOKENS });
    job = null;
    return;
  }
  setTimeout(tick, 0);
}

onmessage = function (event) {
  const m = event.data;
  if (m.type === "start") {
    const s = m.settings, cfg = s.config;
    const model = Trainer.initModel(cfg, s.seed);
    job = { settings: s, model: model, task: Trainer.task(s.seed, s.length, s.n_held_out),
            run: Trainer.trainer(model, s.recipe, s.steps), paused: false,
            example: Trainer.pair(s.example).src };
    postMessage({ type: "progress", step: 0, steps: s.steps, loss: null, tokens: Trainer.TOKENS,
                  exact: Trainer.exactMatch(model, job.task.heldOut), cross: crossOf(model, job.example) });
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
