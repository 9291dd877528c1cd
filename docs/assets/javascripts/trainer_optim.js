// @ts-check
// Lesson 8's in-page trainer, part one: Adam and the learning-rate schedules.
//
// It follows tutorial_code/experiments/common/trainer_optim.py and keeps its names: Optimiser
// (the numbers, which reach the page as the widget's page data: none is typed here),
// build_optimizer (buildOptimizer: Adam as torch.optim.Adam computes it, with one of the
// schedules), and the schedules themselves: one_cycle (OneCycleLR as PyTorch computes it, β₁
// cycling with the learning rate), warmup (lesson 7's linear warm-up, then constant) and
// constant. tests/package/test_trainer_node.py compares them with PyTorch's, step by step.
(/** @param {any} global */ function (global) {
  "use strict";

  /** @typedef {{rows: number, cols: number, data: Float32Array}} Matrix */
  /** @typedef {{betas: number[], eps: number, pct_start: number, div_factor: number, final_div_factor: number,
   *    base_momentum: number, max_momentum: number, warmup_steps: number, schedules: string[]}} Optimiser */
  /** @typedef {{lr: number, beta1: number}} Rate  a step's learning rate and Adam's β₁ */

  // ---------------------------------------------------------------- the schedules

  // torch.optim.lr_scheduler.OneCycleLR (cosine, two phases): pct_start of the steps from
  // maxLr/div_factor up to maxLr, then down to maxLr/div_factor/final_div_factor, while Adam's
  // β₁ goes max_momentum → base_momentum → max_momentum. step counts the optimiser steps already
  // taken (0 for the first).
  /** @param {Optimiser} o @param {number} step @param {number} totalSteps @param {number} maxLr @returns {Rate} */
  function oneCycle(o, step, totalSteps, maxLr) {
    const initial = maxLr / o.div_factor, min = initial / o.final_div_factor;
    const phases = [{ end: o.pct_start * totalSteps - 1, lr: [initial, maxLr], beta1: [o.max_momentum, o.base_momentum] },
                    { end: totalSteps - 1, lr: [maxLr, min], beta1: [o.base_momentum, o.max_momentum] }];
    /** @param {number} a @param {number} b @param {number} pct */
    const anneal = function (a, b, pct) { return b + (a - b) / 2 * (Math.cos(Math.PI * pct) + 1); };
    let start = 0;
    for (let i = 0; i < phases.length; i++) {
      const ph = phases[i];
      if (step <= ph.end || i === phases.length - 1) {
        const pct = (step - start) / (ph.end - start);
        return { lr: anneal(ph.lr[0], ph.lr[1], pct), beta1: anneal(ph.beta1[0], ph.beta1[1], pct) };
      }
      start = ph.end;
    }
    throw new Error("unreachable: the last phase always answers");
  }

  // lesson 7's warm-up (norm_placement): lr · min(1, (step + 1) / warmup_steps), then lr
  /** @param {Optimiser} o @param {number} step @param {number} lr @returns {Rate} */
  function warmup(o, step, lr) { return { lr: lr * Math.min(1, (step + 1) / o.warmup_steps), beta1: o.betas[0] }; }

  /** @param {Optimiser} o @param {number} lr @returns {Rate} */
  function constant(o, lr) { return { lr: lr, beta1: o.betas[0] }; }

  // the learning rate and β₁ of step `step` (0-based) of schedule `name` with peak rate lr
  /** @param {Optimiser} o @param {string} name @param {number} lr @param {number} step @param {number} totalSteps @returns {Rate} */
  function schedule(o, name, lr, step, totalSteps) {
    if (name === "one_cycle") return oneCycle(o, step, totalSteps, lr);
    if (name === "warmup") return warmup(o, step, lr);
    if (name === "constant") return constant(o, lr);
    throw new Error("unknown schedule " + name + "; use one of " + o.schedules.join(", "));
  }

  // ---------------------------------------------------------------- Adam (torch.optim.Adam)

  // the distinct parameter matrices of a tree (a tied matrix once), in the order of
  // named_parameters()
  /** @param {any} tree @param {Matrix[]} [out] @param {Set<Matrix>} [seen] @returns {Matrix[]} */
  function parameters(tree, out, seen) {
    const list = out || [], met = seen || new Set();
    if (tree.data instanceof Float32Array) { if (!met.has(tree)) { met.add(tree); list.push(tree); } return list; }
    Object.keys(tree).forEach(function (k) { parameters(tree[k], list, met); });
    return list;
  }

  // m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², p ← p − lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + ε)
  /** @param {Matrix[]} ps @param {Optimiser} o */
  function adam(ps, o) {
    const state = ps.map(function (p) { return { m: new Float32Array(p.data.length), v: new Float32Array(p.data.length) }; });
    const beta2 = o.betas[1], eps = o.eps;
    let t = 0;
    return {
      /** one step with these gradients (in the order of ps) @param {Matrix[]} gs @param {number} lr @param {number} beta1 */
      step: function (gs, lr, beta1) {
        t += 1;
        const c1 = 1 - Math.pow(beta1, t), c2 = Math.sqrt(1 - Math.pow(beta2, t));
        const rate = lr / c1, keep1 = 1 - beta1, keep2 = 1 - beta2;
        for (let n = 0; n < ps.length; n++) {
          const m = state[n].m, v = state[n].v, gr = gs[n].data, w = ps[n].data;
          for (let i = 0; i < w.length; i++) {
            const gi = gr[i];
            m[i] += (gi - m[i]) * keep1;
            v[i] = v[i] * beta2 + keep2 * gi * gi;
            w[i] -= rate * m[i] / (Math.sqrt(v[i]) / c2 + eps);
          }
        }
      },
      steps: function () { return t; },
    };
  }

  // build_optimizer: Adam over the parameters of `tree` and the schedule `name` (peak rate lr,
  // totalSteps steps). rate() is the next step's {lr, beta1}; step(gs) takes that step with the
  // gradients gs (a tree shaped like `tree`, or its parameters() list)
  /** @param {any} tree @param {Optimiser} o @param {string} name @param {number} lr @param {number} totalSteps */
  function buildOptimizer(tree, o, name, lr, totalSteps) {
    schedule(o, name, lr, 0, totalSteps);  // an unknown schedule fails here, not at the first step
    const opt = adam(parameters(tree), o);
    const rate = function () { return schedule(o, name, lr, opt.steps(), totalSteps); };
    return {
      rate: rate,
      /** @param {any} gs */
      step: function (gs) {
        const at = rate();
        opt.step(Array.isArray(gs) ? gs : parameters(gs), at.lr, at.beta1);
      },
      steps: opt.steps,
    };
  }

  global.TrainerOptim = { oneCycle: oneCycle, warmup: warmup, constant: constant, schedule: schedule,
                          parameters: parameters, adam: adam, buildOptimizer: buildOptimizer };
})(typeof window !== "undefined" ? window : self);
