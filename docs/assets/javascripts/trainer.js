// @ts-check
// Training the lesson 8 reversal model in the page: one training step, over the forward and
// backward passes of transformer.js (one forward pass for inference and training), Adam and the
// schedules of trainer_optim.js; the task, its random numbers and the starting weights are in
// trainer_task.js.
//
// It follows tutorial_code/experiments/browser_training.py's train(): seq2seq_loss
// (Transformer.seq2seqLoss) with its gradient, then one optimiser step, unless the loss or a
// gradient is not a finite number (nonfinite there). tests/package/test_trainer_node.py runs
// 20 steps here and in PyTorch from the same weights on the same batches and compares the
// losses at every step and the parameters after the last.
(/** @param {any} global */ function (global) {
  "use strict";
  /** @type {any} */
  const G = globalThis;  // Transformer and TrainerOptim, read when a function runs

  /** @typedef {{rows: number, cols: number, data: Float32Array}} Matrix */

  // true when every number of the matrices is finite: their sum (in float64, where float32
  // numbers cannot overflow) is finite exactly then, since a NaN or an infinity makes it one
  /** @param {Matrix[]} ms */
  function allFinite(ms) {
    let sum = 0;
    for (let n = 0; n < ms.length; n++) {
      const d = ms[n].data;
      for (let i = 0; i < d.length; i++) sum += d[i];
    }
    return isFinite(sum);
  }

  // a trainer over a model: trainStep(srcs, tgts) runs seq2seq_loss with its gradient and one
  // step of buildOptimizer(optimiser, schedule, lr); returns {loss, lr, nonfinite}: nonfinite is
  // null, or "loss" or "gradient" when that was not a finite number (the step is then not
  // applied: the weights stay those of the last good step, and the caller stops). optimiser:
  // the page data's (trainer_optim.py's Optimiser)
  /** @param {any} model @param {any} optimiser @param {string} schedule @param {number} lr @param {number} totalSteps */
  function trainer(model, optimiser, schedule, lr, totalSteps) {
    const opt = G.TrainerOptim.buildOptimizer(model.params, optimiser, schedule, lr, totalSteps);
    const g = G.Transformer.grads(model), gs = G.TrainerOptim.parameters(g);  // one tree, zeroed before each step
    const mem = G.Transformer.arena();  // the step's matrices, recycled from step to step
    return {
      /** @param {number[][]} srcs @param {number[][]} tgts
       *  @returns {{loss: number, lr: number, nonfinite: "loss" | "gradient" | null}} */
      trainStep: function (srcs, tgts) {
        const at = opt.rate();
        gs.forEach(function (/** @type {Matrix} */ m) { m.data.fill(0); });
        const loss = G.Transformer.seq2seqLoss(model, srcs, tgts, g, mem);
        const nonfinite = !isFinite(loss) ? "loss" : !allFinite(gs) ? "gradient" : null;
        if (!nonfinite) opt.step(gs);
        return { loss: loss, lr: at.lr, nonfinite: nonfinite };
      },
      steps: opt.steps,
    };
  }

  // a copy of the weights as plain arrays by name (what the worker hands the page)
  /** @param {any} model @returns {Object<string, {rows: number, cols: number, data: Float32Array}>} */
  function weights(model) {
    /** @type {Object<string, Matrix>} */
    const out = {};
    const seen = new Map();
    (function walk(/** @type {any} */ node, /** @type {string} */ name) {
      if (node.data instanceof Float32Array) {
        if (!seen.has(node)) { seen.set(node, name); out[name] = { rows: node.rows, cols: node.cols, data: node.data.slice() }; }
        return;
      }
      Object.keys(node).forEach(function (k) { walk(node[k], name ? name + "." + k : k); });
    })(model.params, "");
    return out;
  }

  global.Trainer = { trainer: trainer, weights: weights, allFinite: allFinite };
})(typeof window !== "undefined" ? window : self);
