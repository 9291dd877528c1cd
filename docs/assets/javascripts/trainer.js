// Training the lesson 8 reversal model in the page: Adam with the build's schedules, over the
// forward and backward passes of transformer.js (one forward pass for inference and training).
//
// It follows tutorial_code/experiments/seq2seq.py and keeps its names: noam_lr, build_optimizer
// (Adam, and OneCycleLR as PyTorch computes it, β₁ cycling with the learning rate), seq2seq_loss
// (Transformer.seq2seqLoss), then one training step. The tests run 20 steps here and in PyTorch
// from the same weights on the same batches and compare the losses at every step.
(function (global) {
  "use strict";

  // ---------------------------------------------------------------- the schedules of seq2seq.py

  // noam_lr: lr = D^-0.5 · min(step^-0.5, step · warmup^-1.5), step counted from 1 (§5.3)
  function noamLr(step, dModel, warmup) {
    step = Math.max(step, 1);
    return Math.pow(dModel, -0.5) * Math.min(Math.pow(step, -0.5), step * Math.pow(warmup, -1.5));
  }

  // torch.optim.lr_scheduler.OneCycleLR with its defaults: 30 % of the steps from max_lr/25 up
  // to max_lr, then down to max_lr/25/1e4, cosine both ways, while Adam's β₁ goes 0.95 → 0.85
  // → 0.95. step counts the optimiser steps already taken (0 for the first).
  function oneCycle(step, totalSteps, maxLr) {
    const initial = maxLr / 25, min = initial / 1e4;
    const phases = [{ end: 0.3 * totalSteps - 1, lr: [initial, maxLr], beta1: [0.95, 0.85] },
                    { end: totalSteps - 1, lr: [maxLr, min], beta1: [0.85, 0.95] }];
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
    return null;
  }

  // the learning rate and β₁ of step `step` (0-based) of a recipe {schedule, lr, warmup, betas}
  function schedule(recipe, step, totalSteps, dModel) {
    if (recipe.schedule === "one_cycle") return oneCycle(step, totalSteps, recipe.lr);
    if (recipe.schedule === "noam") return { lr: noamLr(step + 1, dModel, recipe.warmup), beta1: recipe.betas[0] };
    if (recipe.schedule === "constant") return { lr: recipe.lr, beta1: recipe.betas[0] };
    throw new Error("unknown schedule " + recipe.schedule + "; use one_cycle, noam or constant");
  }

  // ---------------------------------------------------------------- Adam (torch.optim.Adam)

  // the distinct parameter matrices of a model (a tied matrix once), as named_parameters()
  function parameters(tree, out, seen) {
    out = out || []; seen = seen || new Set();
    if (tree.data instanceof Float32Array) { if (!seen.has(tree)) { seen.add(tree); out.push(tree); } return out; }
    Object.keys(tree).forEach(function (k) { parameters(tree[k], out, seen); });
    return out;
  }

  // m ← β₁m + (1−β₁)g, v ← β₂v + (1−β₂)g², p ← p − lr/(1−β₁ᵗ) · m / (√v/√(1−β₂ᵗ) + ε)
  function adam(model, betas, eps) {
    const ps = parameters(model.params);
    const state = ps.map(function (p) { return { m: new Float32Array(p.data.length), v: new Float32Array(p.data.length) }; });
    let t = 0;
    return {
      step: function (g, lr, beta1) {
        const gs = parameters(g), beta2 = betas[1];
        t += 1;
        const c1 = 1 - Math.pow(beta1, t), c2 = Math.sqrt(1 - Math.pow(beta2, t));
        ps.forEach(function (p, n) {
          const m = state[n].m, v = state[n].v, gr = gs[n].data, w = p.data;
          for (let i = 0; i < w.length; i++) {
            m[i] += (gr[i] - m[i]) * (1 - beta1);
            v[i] = v[i] * beta2 + (1 - beta2) * gr[i] * gr[i];
            w[i] -= lr / c1 * m[i] / (Math.sqrt(v[i]) / c2 + eps);
          }
        });
      },
      steps: function () { return t; },
    };
  }

  // ---------------------------------------------------------------- one training step

  // a trainer over a model: trainStep(srcs, tgts) runs seq2seq_loss with its gradient and one
  // Adam step at the recipe's learning rate; returns {loss, lr}
  function trainer(model, recipe, totalSteps) {
    const opt = adam(model, recipe.betas || [0.9, 0.999], recipe.eps || 1e-8);
    return {
      trainStep: function (srcs, tgts) {
        const at = schedule(recipe, opt.steps(), totalSteps, model.cfg.d_model);
        const g = Transformer.grads(model), loss = Transformer.seq2seqLoss(model, srcs, tgts, g);
        if (!isFinite(loss)) return { loss: loss, lr: at.lr };  // the caller stops; weights untouched
        opt.step(g, at.lr, at.beta1);
        return { loss: loss, lr: at.lr };
      },
      steps: opt.steps,
    };
  }

  global.Trainer = { noamLr: noamLr, oneCycle: oneCycle, schedule: schedule, adam: adam,
                     parameters: parameters, trainer: trainer };
})(typeof window !== "undefined" ? window : self);
