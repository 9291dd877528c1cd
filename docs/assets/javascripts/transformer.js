// The course's encoder–decoder forward pass in plain JavaScript, for the widgets that run the
// site's trained models (lesson 1's translator, lesson 8's reversal model).
//
// It follows tutorial_code/ file by file and keeps its names: attention.py
// (scaled_dot_product_attention) → multihead.py (MultiHeadAttention) → position.py
// (sinusoidal_table) → layers.py (PositionwiseFeedForward, SublayerConnection, EncoderLayer,
// DecoderLayer) → models.py (Embedding, Encoder, Decoder, EncoderDecoderTransformer) →
// generate.py (greedy_decode). One sequence at a time (no batch dimension B), so a (B, L, D)
// tensor of the Python is here a matrix (L, D). Weights come from the files the build exports
// (tutorial_code/experiments/pagedata/model_export.py), named as in model.state_dict().
// The tests compare this code with PyTorch on held-out inputs (tokens equal, weights to 1e-4).
(function (global) {
  "use strict";

  // ---------------------------------------------------------------- matrices
  // a matrix is {rows, cols, data: Float32Array}, row-major like a contiguous torch tensor
  function matrix(rows, cols, data) {
    return { rows: rows, cols: cols, data: data || new Float32Array(rows * cols) };
  }

  function add(a, b) {  // a + b, same shape (the residual connection)
    const out = matrix(a.rows, a.cols);
    for (let i = 0; i < a.data.length; i++) out.data[i] = a.data[i] + b.data[i];
    return out;
  }

  // nn.Linear: y = x Wᵀ + b, with W stored (out_features, in_features) as PyTorch does
  function linear(x, p) {
    const n = p.weight.rows, k = p.weight.cols, W = p.weight.data;
    const y = matrix(x.rows, n);
    for (let i = 0; i < x.rows; i++) {
      for (let o = 0; o < n; o++) {
        let s = p.bias.data[o];
        for (let j = 0; j < k; j++) s += x.data[i * k + j] * W[o * k + j];
        y.data[i * n + o] = s;
      }
    }
    return y;
  }

  // nn.LayerNorm over each row's D features (biased variance, as PyTorch)
  function layerNorm(x, p, eps) {
    const D = x.cols, y = matrix(x.rows, D);
    for (let i = 0; i < x.rows; i++) {
      let mean = 0, variance = 0;
      for (let j = 0; j < D; j++) mean += x.data[i * D + j] / D;
      for (let j = 0; j < D; j++) variance += (x.data[i * D + j] - mean) ** 2 / D;
      const inv = 1 / Math.sqrt(variance + eps);
      for (let j = 0; j < D; j++) {
        y.data[i * D + j] = (x.data[i * D + j] - mean) * inv * p.weight.data[j] + p.bias.data[j];
      }
    }
    return y;
  }

  // ---------------------------------------------------------------- attention.py
  // softmax(Q Kᵀ / √d_k) V for one head: q (L_q, d_k), k (L_k, d_k), v (L_k, d_v);
  // mask(i, j) true = "may attend" (the package's convention). Returns {output, weights}.
  function scaledDotProductAttention(q, k, v, mask) {
    const dK = q.cols, weights = matrix(q.rows, k.rows), output = matrix(q.rows, v.cols);
    for (let i = 0; i < q.rows; i++) {
      const row = weights.data.subarray(i * k.rows, (i + 1) * k.rows);
      let max = -Infinity;
      for (let j = 0; j < k.rows; j++) {
        let s = 0;  // step 1: query · key
        for (let c = 0; c < dK; c++) s += q.data[i * dK + c] * k.data[j * dK + c];
        s /= Math.sqrt(dK);                          // step 2: ÷ √d_k (§3.2.1)
        row[j] = mask && !mask(i, j) ? -Infinity : s;  // step 3: blocked → −∞
        max = Math.max(max, row[j]);
      }
      let total = 0;  // step 4: softmax over the keys (minus the max, for exp's range)
      for (let j = 0; j < k.rows; j++) { row[j] = Math.exp(row[j] - max); total += row[j]; }
      for (let j = 0; j < k.rows; j++) row[j] /= total;
      for (let j = 0; j < k.rows; j++) {  // step 5: blend the values by the weights
        for (let c = 0; c < v.cols; c++) output.data[i * v.cols + c] += row[j] * v.data[j * v.cols + c];
      }
    }
    return { output: output, weights: weights };
  }

  // ---------------------------------------------------------------- multihead.py
  function splitHead(x, head, dK) {  // columns of one head: (L, D) → (L, d_k)
    const out = matrix(x.rows, dK);
    for (let i = 0; i < x.rows; i++) {
      out.data.set(x.data.subarray(i * x.cols + head * dK, i * x.cols + (head + 1) * dK), i * dK);
    }
    return out;
  }

  function mergeHeads(heads) {  // the concatenation of the heads: h × (L, d_k) → (L, D)
    const L = heads[0].rows, dK = heads[0].cols, out = matrix(L, dK * heads.length);
    heads.forEach(function (x, head) {
      for (let i = 0; i < L; i++) out.data.set(x.data.subarray(i * dK, (i + 1) * dK), i * out.cols + head * dK);
    });
    return out;
  }

  // MultiHeadAttention.forward: x_kv null for self-attention. Returns {output, weights[h]}.
  function multiHeadAttention(p, nHeads, xQ, xKV, mask) {
    const source = xKV || xQ, dK = xQ.cols / nHeads;
    const q = linear(xQ, p.W_Q), k = linear(source, p.W_K), v = linear(source, p.W_V);
    const outs = [], weights = [];
    for (let head = 0; head < nHeads; head++) {
      const r = scaledDotProductAttention(splitHead(q, head, dK), splitHead(k, head, dK),
                                          splitHead(v, head, dK), mask);
      outs.push(r.output);
      weights.push(r.weights);
    }
    return { output: linear(mergeHeads(outs), p.W_O), weights: weights };
  }

  // ---------------------------------------------------------------- position.py
  // PE(pos, 2i) = sin(pos / 10000^(2i/D)), PE(pos, 2i+1) = cos(pos / 10000^(2i/D))
  function sinusoidalTable(length, D) {
    const pe = matrix(length, D);
    for (let pos = 0; pos < length; pos++) {
      for (let twoI = 0; twoI < D; twoI += 2) {
        const angle = pos / Math.pow(10000, twoI / D);
        pe.data[pos * D + twoI] = Math.sin(angle);
        if (twoI + 1 < D) pe.data[pos * D + twoI + 1] = Math.cos(angle);
      }
    }
    return pe;
  }

  // ---------------------------------------------------------------- layers.py
  function positionwiseFeedForward(p, x) {  // W_2(relu(W_1 x))
    const hidden = linear(x, p.W_1);
    for (let i = 0; i < hidden.data.length; i++) hidden.data[i] = Math.max(0, hidden.data[i]);
    return linear(hidden, p.W_2);
  }

  // SublayerConnection: post-LN norm(x + sublayer(x)), or pre-LN x + sublayer(norm(x))
  function sublayerConnection(p, cfg, x, sublayer) {
    if (cfg.norm_first) {
      const r = sublayer(layerNorm(x, p.norm, cfg.eps));
      return { x: add(x, r.output), weights: r.weights };
    }
    const r = sublayer(x);
    return { x: layerNorm(add(x, r.output), p.norm, cfg.eps), weights: r.weights };
  }

  function encoderLayer(p, cfg, x, mask) {
    const a = sublayerConnection(p.sublayer1, cfg, x, function (y) {
      return multiHeadAttention(p.self_attn, cfg.n_heads, y, null, mask);
    });
    const f = sublayerConnection(p.sublayer2, cfg, a.x, function (y) {
      return { output: positionwiseFeedForward(p.ffn, y) };
    });
    return { x: f.x, weights: a.weights };
  }

  function decoderLayer(p, cfg, x, memory, selfMask, memoryMask) {
    const s = sublayerConnection(p.sublayer1, cfg, x, function (y) {
      return multiHeadAttention(p.self_attn, cfg.n_heads, y, null, selfMask);
    });
    const c = sublayerConnection(p.sublayer2, cfg, s.x, function (y) {
      return multiHeadAttention(p.cross_attn, cfg.n_heads, y, memory, memoryMask);
    });
    const f = sublayerConnection(p.sublayer3, cfg, c.x, function (y) {
      return { output: positionwiseFeedForward(p.ffn, y) };
    });
    return { x: f.x, selfWeights: s.weights, crossWeights: c.weights };
  }

  // ---------------------------------------------------------------- models.py
  // Embedding: token vector × √D plus the sinusoidal table (§3.4, §3.5)
  function embed(model, tokens) {
    const D = model.cfg.d_model, W = model.params.embed.tokens.weight.data;
    const pe = sinusoidalTable(tokens.length, D), x = matrix(tokens.length, D);
    for (let i = 0; i < tokens.length; i++) {
      for (let j = 0; j < D; j++) x.data[i * D + j] = W[tokens[i] * D + j] * Math.sqrt(D) + pe.data[i * D + j];
    }
    return x;
  }

  function finalNorm(model, stack, x) {  // pre-LN stacks end with a LayerNorm (GPT-2)
    return model.cfg.norm_first ? layerNorm(x, model.params[stack].norm, model.cfg.eps) : x;
  }

  // EncoderDecoderTransformer.encode: src ids → memory (L_s, D) and encoder weights per layer
  function encode(model, src) {
    const cfg = model.cfg, weights = [];
    const srcMask = function (i, j) { return src[j] !== cfg.pad_id; };  // padding_mask
    let x = embed(model, src);
    model.params.encoder.layers.forEach(function (p) {
      const r = encoderLayer(p, cfg, x, srcMask);
      x = r.x;
      weights.push(r.weights);
    });
    return { memory: finalNorm(model, "encoder", x), srcMask: srcMask, weights: weights };
  }

  function lastRow(x) { return matrix(1, x.cols, x.data.slice((x.rows - 1) * x.cols)); }

  // EncoderDecoderTransformer.decode: tgt ids → logits (L_t, V), cross weights per layer;
  // lastOnly: the logits of the last position only (1, V), all greedy decoding needs
  function decode(model, tgt, memory, srcMask, lastOnly) {
    const cfg = model.cfg, selfWs = [], crossWs = [];
    const causal = function (i, j) { return j <= i; };  // causal_mask: only j ≤ i
    let x = embed(model, tgt);
    model.params.decoder.layers.forEach(function (p) {
      const r = decoderLayer(p, cfg, x, memory, causal, srcMask);
      x = r.x;
      selfWs.push(r.selfWeights);
      crossWs.push(r.crossWeights);
    });
    const h = finalNorm(model, "decoder", x);
    return { logits: linear(lastOnly ? lastRow(h) : h, model.params.out),
             selfWeights: selfWs, crossWeights: crossWs };
  }

  // ---------------------------------------------------------------- generate.py
  // greedy_decode without a cache: each step runs the whole prefix again (the causal mask makes
  // the earlier rows identical to the previous step's). Returns {tokens: [BOS, …, EOS],
  // steps: [{token, cross: [layer][head] → Float32Array over the source}]}.
  function greedyDecode(model, src, maxNewTokens) {
    const t = model.tokens, enc = encode(model, src), tokens = [t.bos_id], steps = [];
    for (let n = 0; n < maxNewTokens; n++) {
      const out = decode(model, tokens, enc.memory, enc.srcMask, true);
      const last = out.logits.data;  // (1, V): the next token's scores
      let next = 0;  // argmax, the first of equal maxima as torch.argmax
      for (let v = 1; v < last.length; v++) if (last[v] > last[next]) next = v;
      const cross = out.crossWeights.map(function (heads) {
        return heads.map(function (w) { return w.data.slice((tokens.length - 1) * w.cols, tokens.length * w.cols); });
      });
      tokens.push(next);
      steps.push({ token: next, cross: cross });
      if (next === t.eos_id) break;
    }
    return { tokens: tokens, steps: steps, encoderWeights: enc.weights };
  }

  // ---------------------------------------------------------------- loading the exported files
  // nest "encoder.layers.0.self_attn.W_Q.weight" into params.encoder.layers[0].self_attn.W_Q.weight
  function setPath(root, name, value) {
    const parts = name.split(".");
    let node = root;
    parts.slice(0, -1).forEach(function (part, i) {
      const isIndex = /^\d+$/.test(parts[i + 1]);
      if (!(part in node)) node[part] = isIndex ? [] : {};
      node = node[part];
    });
    node[parts[parts.length - 1]] = value;
  }

  // manifest: the JSON the build writes; buffer: the ArrayBuffer of its .bin
  function fromBuffers(manifest, buffer) {
    if (manifest.dtype !== "int8" || manifest.config.position !== "sinusoidal") {
      throw new Error("transformer.js reads int8 weights of a sinusoidal-position model");
    }
    const params = {}, tensors = {};
    manifest.tensors.forEach(function (t) {
      // int8 values times one float32 scale per tensor (model_export.dequantise)
      const q = new Int8Array(buffer, t.offset, t.bytes), data = new Float32Array(t.bytes);
      for (let i = 0; i < t.bytes; i++) data[i] = q[i] * t.scale;
      const shape = t.shape.length === 1 ? [1, t.shape[0]] : t.shape;
      tensors[t.name] = matrix(shape[0], shape[1], data);
    });
    Object.keys(manifest.tied).forEach(function (name) { tensors[name] = tensors[manifest.tied[name]]; });
    Object.keys(tensors).forEach(function (name) { setPath(params, name, tensors[name]); });
    const cfg = Object.assign({ eps: manifest.layer_norm_eps }, manifest.config);
    // tokens: names (the vocabulary), pad_id, bos_id, eos_id, plus what a model's widget needs
    return { cfg: cfg, params: params, tokens: manifest.tokens, manifest: manifest };
  }

  // fetch the manifest and its weights (same folder); resolves to a model for encode/decode
  function loadModel(manifestUrl) {
    return fetch(manifestUrl).then(function (r) {
      if (!r.ok) throw new Error(manifestUrl + ": HTTP " + r.status);
      return r.json();
    }).then(function (manifest) {
      const url = new URL(manifest.weights, new URL(manifestUrl, document.baseURI));
      return fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + ": HTTP " + r.status);
        return r.arrayBuffer();
      }).then(function (buffer) { return fromBuffers(manifest, buffer); });
    });
  }

  global.Transformer = {
    scaledDotProductAttention: scaledDotProductAttention, multiHeadAttention: multiHeadAttention,
    sinusoidalTable: sinusoidalTable, encode: encode, decode: decode, greedyDecode: greedyDecode,
    fromBuffers: fromBuffers, loadModel: loadModel,
  };
})(window);
