// @ts-check
// The Web Worker behind lesson 9's "measure on this device" (widgets/kv_measure.js): it times
// greedy generation (Transformer.generate) with and without the key/value cache, off the
// page's main thread, so that the page stays responsive while it measures.
//
// Message in: {type: "start", config, lengths, repeats, seed}: config the decoder-only model's
// sizes (the one lesson 9's PyTorch curve timed, pagedata/cost.py kv_measure), with random
// weights (Xavier-uniform, as tutorial_code's init_parameters; the time does not depend on
// their values). After one untimed warm-up of each mode (the JIT), each length is generated
// `repeats` times in each mode, alternating, from a one-token prompt, never stopping at EOS.
// Messages out: {type: "timed", N, cache, repeat, seconds} after each generation and
// {type: "done"} at the end (the page takes the medians).
importScripts("maths.js", "transformer.js");

(function () {
  "use strict";
  /** @type {any} */
  const G = globalThis;

  // a small seeded generator of uniform numbers in [0, 1) (mulberry32, as trainer_task.js)
  /** @param {number} seed */
  function mulberry32(seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // DecoderOnlyTransformer's parameters by state_dict name: matrices Xavier-uniform, biases 0,
  // LayerNorm γ 1 and β 0, the output projection tied to the embedding (§3.4)
  /** @param {any} cfg @param {number} seed */
  function randomModel(cfg, seed) {
    const rand = mulberry32(seed), M = G.Transformer.matrix, D = cfg.d_model;
    /** @type {Object<string, any>} */
    const tensors = {};
    /** @param {string} name @param {number} rows @param {number} cols */
    function xavier(name, rows, cols) {
      const bound = Math.sqrt(6 / (rows + cols)), data = new Float32Array(rows * cols);
      for (let i = 0; i < data.length; i++) data[i] = (2 * rand() - 1) * bound;
      tensors[name] = M(rows, cols, data);
    }
    /** @param {string} name @param {number} n @param {number} value */
    function vector(name, n, value) { tensors[name] = M(1, n, new Float32Array(n).fill(value)); }
    /** @param {string} name @param {number} out @param {number} inp */
    function linear(name, out, inp) { xavier(name + ".weight", out, inp); vector(name + ".bias", out, 0); }
    /** @param {string} name */
    function norm(name) { vector(name + ".weight", D, 1); vector(name + ".bias", D, 0); }
    xavier("embed.tokens.weight", cfg.vocab_size, D);
    for (let l = 0; l < cfg.n_layers; l++) {
      const p = "decoder.layers." + l + ".";
      ["W_Q", "W_K", "W_V", "W_O"].forEach(function (w) { linear(p + "self_attn." + w, D, D); });
      norm(p + "sublayer1.norm");
      linear(p + "ffn.W_1", cfg.d_ff, D);
      linear(p + "ffn.W_2", D, cfg.d_ff);
      norm(p + "sublayer3.norm");
    }
    if (cfg.norm_first) norm("decoder.norm");
    vector("out.bias", cfg.vocab_size, 0);
    return G.Transformer.fromTensors(cfg, { pad_id: cfg.pad_id, bos_id: cfg.pad_id, eos_id: -1 }, tensors,
                                     { "out.weight": "embed.tokens.weight" });
  }

  /** @type {any} */
  let job = null;

  function tick() {
    if (!job) return;
    const task = job.tasks[job.next];
    const t0 = performance.now();
    G.Transformer.generate(job.model, [job.prompt], task.N, { useCache: task.cache, stopAtEos: false });
    const seconds = (performance.now() - t0) / 1000;
    if (task.timed) postMessage({ type: "timed", N: task.N, cache: task.cache, repeat: task.repeat, seconds: seconds });
    job.next += 1;
    if (job.next >= job.tasks.length) {
      job = null;
      postMessage({ type: "done" });
      return;
    }
    setTimeout(tick, 0);
  }

  onmessage = function (event) {
    const m = event.data;
    if (m.type !== "start") return;
    const rand = mulberry32(m.seed + 1);
    const tasks = [{ N: m.lengths[0], cache: true, timed: false, repeat: 0 },
                   { N: m.lengths[0], cache: false, timed: false, repeat: 0 }];  // warm-up
    m.lengths.forEach(function (/** @type {number} */ N) {
      for (let r = 1; r <= m.repeats; r++) {
        tasks.push({ N: N, cache: true, timed: true, repeat: r }, { N: N, cache: false, timed: true, repeat: r });
      }
    });
    job = { model: randomModel(m.config, m.seed), prompt: [1 + Math.floor(rand() * (m.config.vocab_size - 1))],
            tasks: tasks, next: 0 };
    setTimeout(tick, 0);
  };
})();
