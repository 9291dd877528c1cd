// @ts-check
// Lesson 8's in-page trainer, part two: the reversal task, its random numbers and the starting
// weights.
//
// It follows tutorial_code/experiments/common/trainer_task.py, which mirrors it exactly, and
// keeps its names: mulberry32 (a seeded stream of numbers in [0, 1)), TOKENS, pair, task (the
// validation set and a training stream that never yields one of its sequences), initModel
// (init_values / init_model there), and exactMatch (greedy decoding of the validation set).
// tests/package/test_trainer_node.py checks in Node that both give the same numbers, bit for bit.
(/** @param {any} global */ function (global) {
  "use strict";
  /** @type {any} */
  const G = globalThis;  // Transformer (transformer.js), read when a function runs

  /** @typedef {{src: number[], tgt: number[]}} Pair */

  // a seeded stream of numbers in [0, 1) (mulberry32): the same seed, the same run anywhere
  /** @param {number} seed @returns {() => number} */
  function mulberry32(seed) {
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
  /** @param {number[]} digits @returns {Pair} */
  function pair(digits) {
    const d = digits.map(function (x) { return x + TOKENS.digit0; });
    return { src: [TOKENS.bos_id].concat(d, [TOKENS.eos_id]), tgt: [TOKENS.bos_id].concat(d.slice().reverse(), [TOKENS.eos_id]) };
  }

  /** @param {() => number} rand @param {number} length @returns {number[]} */
  function drawDigits(rand, length) {
    return Array.from({ length: length }, function () { return Math.floor(rand() * 10); });
  }

  // the validation set (n distinct sequences) and a training stream that never yields one of
  // them (a drawn sequence that is held out is drawn again, and counted, as the build's run does)
  /** @param {number} seed @param {number} length @param {number} nHeldOut */
  function task(seed, length, nHeldOut) {
    const rand = mulberry32(seed), seen = new Set();
    /** @type {Pair[]} */
    const heldOut = [];
    while (heldOut.length < nHeldOut) {
      const d = drawDigits(rand, length), key = d.join("");
      if (!seen.has(key)) { seen.add(key); heldOut.push(pair(d)); }
    }
    const train = mulberry32(seed + 1);
    let redrawn = 0;
    return {
      heldOut: heldOut,
      /** @param {number[]} digits */
      isHeldOut: function (digits) { return seen.has(digits.join("")); },
      redrawn: function () { return redrawn; },
      /** the next `size` training pairs @param {number} size */
      batch: function (size) {
        /** @type {number[][]} */
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
  // U(±1/√fan_in) biases, LayerNorm γ = 1 and β = 0, the output projection tied to the embedding.
  // cfg: the model's config (d_model, n_heads, d_ff, n_layers, vocab_size, norm_first, position,
  // attention_scale)
  /** @param {any} cfg @param {number} seed */
  function initModel(cfg, seed) {
    const rand = mulberry32(seed), M = G.Transformer.matrix, D = cfg.d_model;
    /** @type {Object<string, Matrix>} */
    const tensors = {};
    /** @typedef {{rows: number, cols: number, data: Float32Array}} Matrix */
    /** @param {number} rows @param {number} cols @param {number} bound @returns {Matrix} */
    const uniform = function (rows, cols, bound) {
      const m = M(rows, cols);
      for (let i = 0; i < m.data.length; i++) m.data[i] = (2 * rand() - 1) * bound;
      return m;
    };
    /** @param {string} name @param {number} nIn @param {number} nOut */
    const lin = function (name, nIn, nOut) {
      tensors[name + ".weight"] = uniform(nOut, nIn, Math.sqrt(6 / (nIn + nOut)));
      tensors[name + ".bias"] = uniform(1, nOut, 1 / Math.sqrt(nIn));
    };
    /** @param {string} name */
    const norm = function (name) {
      tensors[name + ".weight"] = M(1, D, new Float32Array(D).fill(1));
      tensors[name + ".bias"] = M(1, D);
    };
    /** @param {string} name */
    const attn = function (name) { ["W_Q", "W_K", "W_V", "W_O"].forEach(function (w) { lin(name + "." + w, D, D); }); };
    /** @param {string} name */
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
    return G.Transformer.fromTensors(Object.assign({ eps: 1e-5, pad_id: TOKENS.pad_id }, cfg), TOKENS, tensors,
                                     { "out.weight": "embed.tokens.weight" });
  }

  // greedy decoding of the validation sources (those of one length together, in one batch); the
  // share whose whole output is the reversal
  /** @param {any} model @param {Pair[]} pairs */
  function exactMatch(model, pairs) {
    /** @type {Map<number, Pair[]>} */
    const byLength = new Map();
    pairs.forEach(function (p) {
      const group = byLength.get(p.src.length) || [];
      group.push(p);
      byLength.set(p.src.length, group);
    });
    let right = 0;
    byLength.forEach(function (group) {
      const runs = G.Transformer.greedyDecodeBatch(model, group.map(function (p) { return p.src; }), group[0].tgt.length - 1);
      group.forEach(function (p, i) { if (runs[i].tokens.join(" ") === p.tgt.join(" ")) right += 1; });
    });
    return right / pairs.length;
  }

  global.TrainerTask = { mulberry32: mulberry32, TOKENS: TOKENS, pair: pair, task: task, initModel: initModel,
                         exactMatch: exactMatch };
})(typeof window !== "undefined" ? window : self);
