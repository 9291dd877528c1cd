// Training the lesson 8 reversal model in the page: Adam with the build's schedules, over the
// forward and backward passes of transformer.js (one forward pass for inference and training).
//
// It follows tutorial_code/experiments/common/seq2seq.py and keeps its names: noam_lr, build_optimizer
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

  // ---------------------------------------------------------------- one training step

  // true when every number of the matrices is finite: their sum (in float64, where float32
  // numbers cannot overflow) is finite exactly then, since a NaN or an infinity makes it one
  function allFinite(ms) {
    let sum = 0;
    for (let n = 0; n < ms.length; n++) {
      const d = ms[n].data;
      for (let i = 0; i < d.length; i++) sum += d[i];
    }
    return isFinite(sum);
  }

  // a trainer over a model: trainStep(srcs, tgts) runs seq2seq_loss with its gradient and one
  // Adam step at the recipe's learning rate; returns {loss, lr}
  function trainer(model, recipe, totalSteps) {
    const opt = adam(model, recipe.betas || [0.9, 0.999], recipe.eps || 1e-8);
    const g = Transformer.grads(model), gs = parameters(g);  // one tree, zeroed before each step
    return {
      trainStep: function (srcs, tgts) {
        const at = schedule(recipe, opt.steps(), totalSteps, model.cfg.d_model);
        gs.forEach(function (m) { m.data.fill(0); });
        const loss = Transformer.seq2seqLoss(model, srcs, tgts, g);
        // a loss or a gradient that is no longer a number (or overflowed) is not applied: the
        // weights stay those of the last good step, and the caller stops (finite false)
        const finite = isFinite(loss) && allFinite(gs);
        if (finite) opt.step(g, at.lr, at.beta1);
        return { loss: finite ? loss : NaN, lr: at.lr, finite: finite };
      },
      steps: opt.steps,
    };
  }

  // ---------------------------------------------------------------- the reversal task

  // a seeded stream of numbers in [0, 1) (mulberry32): the same seed, the same run anywhere
  function random(seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // the tokens of digit_tasks: padding, BOS, EOS, then the digits 0–9
  const TOKENS = { pad_id: 0, bos_id: 1, eos_id: 2, digit0: 3, names: ["PAD", "BOS", "EOS", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"] };

  // source [BOS, x_1 … x_n, EOS] and target [BOS, x_n … x_1, EOS]
  function pair(digits) {
    const d = digits.map(function (x) { return x + TOKENS.digit0; });
    return { src: [TOKENS.bos_id].concat(d, [TOKENS.eos_id]), tgt: [TOKENS.bos_id].concat(d.slice().reverse(), [TOKENS.eos_id]) };
  }

  function drawDigits(rand, length) {
    return Array.from({ length: length }, function () { return Math.floor(rand() * 10); });
  }

  // the held-out set (n distinct sequences) and a training stream that never yields one of them
  // (a drawn sequence that is held out is drawn again, and counted, as the build's run does)
  function task(seed, length, nHeldOut) {
    const rand = random(seed), heldOut = [], seen = new Set();
    while (heldOut.length < nHeldOut) {
      const d = drawDigits(rand, length), key = d.join("");
      if (!seen.has(key)) { seen.add(key); heldOut.push(pair(d)); }
    }
    const train = random(seed + 1);
    let redrawn = 0;
    return {
      heldOut: heldOut, isHeldOut: function (digits) { return seen.has(digits.join("")); },
      redrawn: function () { return redrawn; },
      batch: function (size) {
        const srcs = [], tgts = [];
        while (srcs.length < size) {
          const d = drawDigits(train, length);
          if (seen.has(d.join(""))) { redrawn += 1; continue; }
          const p = pair(d);
          srcs.push(p.src); tgts.push(p.tgt);
        }
        return { srcs: srcs, tgts: tgts };
      },
    };
  }

  // a new model, initialised as init_parameters does: Xavier-uniform weight matrices, nn.Linear's
  // U(±1/√fan_in) biases, LayerNorm γ = 1 and β = 0, the output projection tied to the embedding
  function initModel(cfg, seed) {
    const rand = random(seed), M = Transformer.matrix, D = cfg.d_model, tensors = {};
    const uniform = function (rows, cols, bound) {
      const m = M(rows, cols);
      for (let i = 0; i < m.data.length; i++) m.data[i] = (2 * rand() - 1) * bound;
      return m;
    };
    const lin = function (name, nIn, nOut) {
      tensors[name + ".weight"] = uniform(nOut, nIn, Math.sqrt(6 / (nIn + nOut)));
      tensors[name + ".bias"] = uniform(1, nOut, 1 / Math.sqrt(nIn));
    };
    const norm = function (name) {
      tensors[name + ".weight"] = M(1, D, new Float32Array(D).fill(1));
      tensors[name + ".bias"] = M(1, D);
    };
    const attn = function (name) { ["W_Q", "W_K", "W_V", "W_O"].forEach(function (w) { lin(name + "." + w, D, D); }); };
    const ffn = function (name) { lin(name + ".W_1", D, cfg.d_ff); lin(name + ".W_2", cfg.d_ff, D); };
    tensors["embed.tokens.weight"] = uniform(cfg.vocab_size, D, Math.sqrt(6 / (cfg.vocab_size + D)));
    for (let l = 0; l < cfg.n_layers; l++) {
      const e = "encoder.layers." + l;
      attn(e + ".self_attn"); ffn(e + ".ffn"); norm(e + ".sublayer1.norm"); norm(e + ".sublayer2.norm");
    }
    for (let l = 0; l < cfg.n_layers; l++) {
      const d = "decoder.layers." + l;
      attn(d + ".self_attn"); attn(d + ".cross_attn"); ffn(d + ".ffn");
      norm(d + ".sublayer1.norm"); norm(d + ".sublayer2.norm"); norm(d + ".sublayer3.norm");
    }
    if (cfg.norm_first) { norm("encoder.norm"); norm("decoder.norm"); }
    tensors["out.bias"] = uniform(1, cfg.vocab_size, 1 / Math.sqrt(D));
    return Transformer.fromTensors(Object.assign({ eps: 1e-5, pad_id: TOKENS.pad_id }, cfg), TOKENS, tensors,
                                   { "out.weight": "embed.tokens.weight" });
  }

  // greedy decoding of the held-out sources (those of one length together, in one batch); the
  // share whose whole output is the reversal
  function exactMatch(model, pairs) {
    const byLength = new Map();
    pairs.forEach(function (p) {
      if (!byLength.has(p.src.length)) byLength.set(p.src.length, []);
      byLength.get(p.src.length).push(p);
    });
    let right = 0;
    byLength.forEach(function (group) {
      const runs = Transformer.greedyDecodeBatch(model, group.map(function (p) { return p.src; }), group[0].tgt.length - 1);
      group.forEach(function (p, i) { if (runs[i].tokens.join(" ") === p.tgt.join(" ")) right += 1; });
    });
    return right / pairs.length;
  }

  // a copy of the weights as plain arrays by name (what the worker hands the page)
  function weights(model) {
    const out = {}, seen = new Map();
    (function walk(node, name) {
      if (node.data instanceof Float32Array) {
        if (!seen.has(node)) { seen.set(node, name); out[name] = { rows: node.rows, cols: node.cols, data: node.data.slice() }; }
        return;
      }
      Object.keys(node).forEach(function (k) { walk(node[k], name ? name + "." + k : k); });
    })(model.params, "");
    return out;
  }

  global.Trainer = {
    random: random, TOKENS: TOKENS, pair: pair, task: task, initModel: initModel, exactMatch: exactMatch,
    weights: weights, noamLr: noamLr, oneCycle: oneCycle, schedule: schedule, adam: adam,
                     parameters: parameters, trainer: trainer };
})(typeof window !== "undefined" ? window : self);
