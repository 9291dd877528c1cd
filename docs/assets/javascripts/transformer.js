// @ts-check
// The course's encoder–decoder (and its decoder-only variant) in plain JavaScript: the forward
// pass the widgets run the site's trained models with (lessons 1 and 8), and beside each forward
// function its backward (…Backward), for lesson 8's trainer (trainer.js). It follows
// tutorial_code/ file by file with its names: attention.py → multihead.py → position.py →
// layers.py → models.py → generate.py.
// A (B, L, D) tensor is here a matrix (B·L, D), the sequences' rows one after the other. Weights:
// the build's export (pagedata/model_export.py), named as in state_dict(). Tests compare outputs
// and every gradient with PyTorch. Generation (generate.py: greedy, and beam search for the
// translator) keeps each decoder layer's keys and values in a cache (newCache), as the Python
// does, so each step computes only the newest position; a step's other arrays come from an
// arena reused at the next step, the cache's never (appendToCache, reorderCache).
// Top-level `var`, as CourseMath (maths.js): a global of the page and of the trainer's worker,
// typed from the code below.
var Transformer = (function () {
  "use strict";

  /** @typedef {{rows: number, cols: number, data: Float32Array}} Matrix */
  /** @typedef {Matrix & {xhat: Matrix, inv: Float32Array}} NormedMatrix */
  /** @typedef {{arrays: Float32Array[], next: number}} Arena */
  /** @typedef {((i: number, j: number) => boolean) | null | undefined} Mask  true: "may attend" */
  /** @typedef {{b?: number, head?: number, dK: number, Lq: number, Lk: number, qRow: number, kRow: number, col: number}} Part */
  // one attention's key/value cache (multihead.py's cache["k"], cache["v"]): k and v hold `stride`
  // rows per sequence, the first `length` of them filled; sequence b's keys from row b·stride
  /** @typedef {{k?: Matrix, v?: Matrix, length?: number, stride?: number}} AttentionCache */
  /** @typedef {{self?: AttentionCache, cross?: AttentionCache}} LayerCache  one decoder layer's (layers.py) */

  // ---- matrices
  // a matrix is {rows, cols, data: Float32Array}, row-major like a contiguous torch tensor
  /** @param {number} rows @param {number} cols @param {Float32Array} [data] @returns {Matrix} */
  function matrix(rows, cols, data) {
    return { rows: rows, cols: cols, data: data || new Float32Array(rows * cols) };
  }

  // An arena recycles arrays: a training step makes the same matrices in the same order, so a
  // call given one reuses, zeroed, its previous call's arrays (keep nothing it returns). Without
  // an arena every array is new.
  /** @returns {Arena} */
  function arena() { return { arrays: [], next: 0 }; }

  // n zeros, from the arena when there is one
  function zeros(mem, n) {
    if (!mem) return new Float32Array(n);
    let a = mem.arrays[mem.next];
    if (a && a.length === n) a.fill(0);
    else mem.arrays[mem.next] = a = new Float32Array(n);
    mem.next += 1;
    return a;
  }

  // a (rows, cols) matrix of zeros
  function alloc(mem, rows, cols) { return matrix(rows, cols, zeros(mem, rows * cols)); }

  // a + b, same shape (the residual connection)
  function add(a, b, mem) {
    const out = alloc(mem, a.rows, a.cols);
    for (let i = 0; i < a.data.length; i++) out.data[i] = a.data[i] + b.data[i];
    return out;
  }

  // a += b: gradients that meet (a residual, a shared input) add up
  function addInto(a, b) {
    for (let i = 0; i < a.data.length; i++) a.data[i] += b.data[i];
    return a;
  }

  // A forward returns what its backward needs; a backward takes the output's gradient (dy),
  // returns the input's and adds the parameters' into g (shaped as the parameters, grads()).

  // a · b over n numbers from offsets a0 and b0; four sums, so the additions do not wait
  function dot(a, a0, b, b0, n) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, j = 0;
    for (; j + 3 < n; j += 4) {
      s0 += a[a0 + j] * b[b0 + j];
      s1 += a[a0 + j + 1] * b[b0 + j + 1];
      s2 += a[a0 + j + 2] * b[b0 + j + 2];
      s3 += a[a0 + j + 3] * b[b0 + j + 3];
    }
    for (; j < n; j++) s0 += a[a0 + j] * b[b0 + j];
    return (s0 + s1) + (s2 + s3);
  }

  // out (+)= a bᵀ for a (m, n) and b (p, n), the one product of both passes. Three rows of a by
  // four of b at a time (twelve sums sharing their loads); the rest one sum at a time (sumInto).
  // Each sum runs over j in order, so a sequence alone or in a batch gives the same numbers.
  function matmulT(a, b, out, add) {
    const m = a.rows, p = b.rows, n = a.cols, A = a.data, Bt = b.data, C = out.data;
    let i = 0;
    for (; i + 2 < m; i += 3) {
      const a0 = i * n, a1 = a0 + n, a2 = a1 + n;
      let o = 0;
      for (; o + 3 < p; o += 4) {
        const b0 = o * n, b1 = b0 + n, b2 = b1 + n, b3 = b2 + n;
        let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0, s20 = 0, s21 = 0, s22 = 0, s23 = 0;
        for (let j = 0; j < n; j++) {
          const w0 = Bt[b0 + j], w1 = Bt[b1 + j], w2 = Bt[b2 + j], w3 = Bt[b3 + j];
          let x = A[a0 + j];
          s00 += x * w0; s01 += x * w1; s02 += x * w2; s03 += x * w3;
          x = A[a1 + j];
          s10 += x * w0; s11 += x * w1; s12 += x * w2; s13 += x * w3;
          x = A[a2 + j];
          s20 += x * w0; s21 += x * w1; s22 += x * w2; s23 += x * w3;
        }
        const c0 = i * p + o, c1 = c0 + p, c2 = c1 + p;
        if (add) {
          C[c0] += s00; C[c0 + 1] += s01; C[c0 + 2] += s02; C[c0 + 3] += s03;
          C[c1] += s10; C[c1 + 1] += s11; C[c1 + 2] += s12; C[c1 + 3] += s13;
          C[c2] += s20; C[c2 + 1] += s21; C[c2 + 2] += s22; C[c2 + 3] += s23;
        } else {
          C[c0] = s00; C[c0 + 1] = s01; C[c0 + 2] = s02; C[c0 + 3] = s03;
          C[c1] = s10; C[c1 + 1] = s11; C[c1 + 2] = s12; C[c1 + 3] = s13;
          C[c2] = s20; C[c2 + 1] = s21; C[c2 + 2] = s22; C[c2 + 3] = s23;
        }
      }
      for (; o < p; o++) for (let r = i; r < i + 3; r++) sumInto(A, r, Bt, o, n, C, p, add);
    }
    for (; i < m; i++) for (let o = 0; o < p; o++) sumInto(A, i, Bt, o, n, C, p, add);
    return out;
  }

  // one entry of matmulT: out[r][c] (+)= a's row r · b's row c, one sum in order over j
  function sumInto(A, r, Bt, c, n, C, p, add) {
    let s = 0;
    for (let j = 0; j < n; j++) s += A[r * n + j] * Bt[c * n + j];
    C[r * p + c] = (add ? C[r * p + c] : 0) + s;
  }

  /** @typedef {{weight: Matrix, bias: Matrix}} LinearParams */

  // nn.Linear: y = x Wᵀ + b, with W stored (out_features, in_features) as PyTorch does
  function linear(x, p, mem) {
    const n = p.weight.rows, b = p.bias.data, y = matmulT(x, p.weight, alloc(mem, x.rows, n), false), Y = y.data;
    for (let i = 0; i < x.rows; i++) for (let o = 0; o < n; o++) Y[i * n + o] += b[o];
    return y;
  }

  // mᵀ, so that a column of m becomes a contiguous row
  function transposed(m, mem) {
    const t = alloc(mem, m.cols, m.rows), M = m.data, T = t.data;
    for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) T[j * m.rows + i] = M[i * m.cols + j];
    return t;
  }

  // backward: dx = dy W, dW += dyᵀ x, db += dy's column sums (matmulT, on transposed copies)
  function linearBackward(dy, x, p, g, mem) {
    const dyT = transposed(dy, mem), R = x.rows, gb = g.bias.data, D = dyT.data;
    const dx = matmulT(dy, transposed(p.weight, mem), alloc(mem, R, p.weight.cols), false);
    matmulT(dyT, transposed(x, mem), g.weight, true);
    for (let o = 0; o < dyT.rows; o++) {
      let column = 0;
      for (let i = 0; i < R; i++) column += D[o * R + i];
      gb[o] += column;
    }
    return dx;
  }

  // nn.LayerNorm over each row (biased variance, as PyTorch); y keeps x̂ (xhat) and 1/σ (inv)
  function layerNorm(x, p, eps, mem) {
    const D = x.cols;
    const y = Object.assign(alloc(mem, x.rows, D), { xhat: alloc(mem, x.rows, D), inv: zeros(mem, x.rows) });
    for (let i = 0; i < x.rows; i++) {
      let mean = 0, variance = 0;
      for (let j = 0; j < D; j++) mean += x.data[i * D + j] / D;
      for (let j = 0; j < D; j++) variance += (x.data[i * D + j] - mean) ** 2 / D;
      const inv = 1 / Math.sqrt(variance + eps);
      y.inv[i] = inv;
      for (let j = 0; j < D; j++) {
        const h = (x.data[i * D + j] - mean) * inv;
        y.xhat.data[i * D + j] = h;
        y.data[i * D + j] = h * p.weight.data[j] + p.bias.data[j];
      }
    }
    return y;
  }

  // backward, y the forward's output: with dĥ = dy·γ, dx = (dĥ − mean(dĥ) − x̂·mean(dĥ·x̂)) / σ;
  // dγ += dy·x̂, dβ += dy
  function layerNormBackward(dy, y, p, g, mem) {
    const D = y.cols, dx = alloc(mem, y.rows, D), xhat = y.xhat.data, dh = new Float64Array(D);
    for (let i = 0; i < y.rows; i++) {
      let sum = 0, sumX = 0;
      for (let j = 0; j < D; j++) {
        const d = dy.data[i * D + j], h = xhat[i * D + j];
        dh[j] = d * p.weight.data[j];
        g.weight.data[j] += d * h;
        g.bias.data[j] += d;
        sum += dh[j];
        sumX += dh[j] * h;
      }
      for (let j = 0; j < D; j++) dx.data[i * D + j] = y.inv[i] * (dh[j] - sum / D - xhat[i * D + j] * sumX / D);
    }
    return dx;
  }

  // ---- attention.py
  // softmax(Q Kᵀ / √d_k) V for one head of one sequence, where it lies in q, k, v (heads side by
  // side in the columns, sequences in the rows): `at` names the d_k columns from at.col, the
  // at.Lq rows of q from at.qRow, the at.Lk rows of k and v from at.kRow; output and weights
  // (from row at.qRow) likewise. mask(i, j) true = "may attend". scale as the Python's scale=:
  // null ÷ √d_k, 1 no division (lesson 8's switch).
  /** @param {Matrix} q @param {Matrix} k @param {Matrix} v @param {Mask} mask @param {?number} scale
   *  @param {Part} at @param {Matrix} output @param {Matrix} weights */
  function attendHead(q, k, v, mask, scale, at, output, weights) {
    const D = q.cols, dK = at.dK, Lk = at.Lk, divisor = Math.sqrt(dK);
    const Q = q.data, K = k.data, V = v.data, O = output.data;
    for (let i = 0; i < at.Lq; i++) {
      const qi = (at.qRow + i) * D + at.col, row = weights.data.subarray((at.qRow + i) * Lk, (at.qRow + i + 1) * Lk);
      for (let j = 0; j < Lk; j++) {
        if (mask && !mask(i, j)) { row[j] = -Infinity; continue; }  // step 3: blocked → −∞
        let s = dot(Q, qi, K, (at.kRow + j) * D + at.col, dK);      // step 1: query · key
        s = scale == null ? s / divisor : s * scale;                // step 2: ÷ √d_k (§3.2.1)
        row[j] = s;
      }
      CourseMath.softmaxInPlace(row);  // step 4: softmax over the keys (maths.js)
      for (let j = 0; j < Lk; j++) {   // step 5: blend the values by the weights
        const w = row[j], vj = (at.kRow + j) * D + at.col;
        if (w === 0) continue;  // a blocked key
        for (let c = 0; c < dK; c++) O[qi + c] += w * V[vj + c];
      }
    }
  }

  // backward, the five steps in reverse: 5: dV = Wᵀ dO, dW = dO Vᵀ; 4: dS = W ⊙ (dW − Σ_j W dW),
  // so a blocked key (weight 0) gets nothing (3); 2 and 1: dQ = dS K / √d_k, dK = dSᵀ Q / √d_k
  // (× scale when given). Adds into the same part of dq, dk and dv.
  /** @param {Matrix} dOut @param {Matrix} q @param {Matrix} k @param {Matrix} v @param {Matrix} weights
   *  @param {?number} scale @param {Part} at @param {Matrix} dq @param {Matrix} dk @param {Matrix} dv */
  function attendHeadBackward(dOut, q, k, v, weights, scale, at, dq, dk, dv) {
    const D = q.cols, dK = at.dK, Lk = at.Lk, divisor = Math.sqrt(dK);
    const dO = dOut.data, Q = q.data, K = k.data, V = v.data, dQ = dq.data, dKs = dk.data, dVs = dv.data;
    const dw = new Float64Array(Lk);
    for (let i = 0; i < at.Lq; i++) {
      const qi = (at.qRow + i) * D + at.col, w = weights.data.subarray((at.qRow + i) * Lk, (at.qRow + i + 1) * Lk);
      let total = 0;
      for (let j = 0; j < Lk; j++) {
        const vj = (at.kRow + j) * D + at.col;
        if (w[j] === 0) { dw[j] = 0; continue; }  // a blocked key passes nothing back
        dw[j] = dot(dO, qi, V, vj, dK);
        total += w[j] * dw[j];
        for (let c = 0; c < dK; c++) dVs[vj + c] += w[j] * dO[qi + c];
      }
      for (let j = 0; j < Lk; j++) {
        if (w[j] === 0) continue;
        const ds = scale == null ? w[j] * (dw[j] - total) / divisor : w[j] * (dw[j] - total) * scale;
        const kj = (at.kRow + j) * D + at.col;
        if (ds === 0) continue;
        for (let c = 0; c < dK; c++) {
          dQ[qi + c] += ds * K[kj + c];
          dKs[kj + c] += ds * Q[qi + c];
        }
      }
    }
  }

  // scaled_dot_product_attention for one head: q (L_q, d_k), k and v (L_k, d_k) → {output,
  // weights}. (Training goes through multiHeadAttentionBackward, which calls attendHeadBackward.)
  /** @param {Matrix} q @param {Matrix} k @param {Matrix} v @param {Mask} [mask] @param {?number} [scale] */
  function scaledDotProductAttention(q, k, v, mask, scale) {
    const output = matrix(q.rows, v.cols), weights = matrix(q.rows, k.rows);
    attendHead(q, k, v, mask, scale, { dK: q.cols, Lq: q.rows, Lk: k.rows, qRow: 0, kRow: 0, col: 0 }, output, weights);
    return { output: output, weights: weights };
  }

  // ---- multihead.py
  // Only attention looks at one sequence (rows b·L …) at a time. split_heads and merge_heads are
  // a choice of columns (head h: d_k from h·d_k) that attendHead uses in place: no copies.
  // where each (sequence, head) lies, sequence by sequence; sequence b's keys start at row
  // b·kStride (kStride = Lk, or a cache's stride)
  function parts(B, nHeads, dK, Lq, Lk, kStride) {
    /** @type {Part[]} */
    const out = [];
    for (let b = 0; b < B; b++) {
      for (let head = 0; head < nHeads; head++) {
        out.push({ b: b, head: head, dK: dK, Lq: Lq, Lk: Lk, qRow: b * Lq, kRow: b * (kStride || Lk), col: head * dK });
      }
    }
    return out;
  }

  // torch.cat([cache["k"], k], dim=2) for B sequences of L new rows each, without copying the
  // past at every step: the cache keeps room (stride rows per sequence) and doubles it when full.
  // Its arrays are made here with matrix(), never taken from an arena, so they outlive the step
  // (an arena hands its arrays out again at the next step).
  /** @param {AttentionCache} cache @param {Matrix} k @param {Matrix} v @param {number} B */
  function appendToCache(cache, k, v, B) {
    const L = k.rows / B, D = k.cols, past = cache.length || 0, need = past + L;
    if (!cache.k || !cache.v || need > (cache.stride || 0)) {
      const stride = Math.max(need, 2 * (cache.stride || 0), 16), grown = [matrix(B * stride, D), matrix(B * stride, D)];
      if (cache.k && cache.v) {
        [cache.k, cache.v].forEach(function (old, i) {
          for (let b = 0; b < B; b++) {
            const from = b * (cache.stride || 0) * D;
            grown[i].data.set(old.data.subarray(from, from + past * D), b * stride * D);
          }
        });
      }
      cache.k = grown[0];
      cache.v = grown[1];
      cache.stride = stride;
    }
    const stride = /** @type {number} */ (cache.stride);
    for (let b = 0; b < B; b++) {
      cache.k.data.set(k.data.subarray(b * L * D, (b + 1) * L * D), (b * stride + past) * D);
      cache.v.data.set(v.data.subarray(b * L * D, (b + 1) * L * D), (b * stride + past) * D);
    }
    cache.length = need;
  }

  // MultiHeadAttention.forward over a batch: masks[b] sequence b's mask, xKV null for
  // self-attention, scale as its scale=. Returns {output, weights[h]} (stacked (B·L_q, L_k)) and
  // what the backward needs. cache (generation): self-attention appends this step's keys and
  // values to it and attends over all it holds; cross-attention projects xKV (the encoder
  // output) at the first step only and reuses it.
  /** @typedef {{W_Q: LinearParams, W_K: LinearParams, W_V: LinearParams, W_O: LinearParams}} AttentionParams */
  /** @param {AttentionParams} p @param {number} nHeads @param {Matrix} xQ @param {Matrix | null} xKV @param {Mask[]} masks
   *  @param {?number} scale @param {Arena} [mem] @param {AttentionCache} [cache] */
  function multiHeadAttention(p, nHeads, xQ, xKV, masks, scale, mem, cache) {
    const source = xKV || xQ, B = masks.length, Lq = xQ.rows / B;
    const q = linear(xQ, p.W_Q, mem);
    let k, v, Lk = source.rows / B, stride = Lk;
    if (cache && xKV && cache.k && cache.v) {
      k = cache.k;  // the encoder output does not change between steps
      v = cache.v;
      Lk = /** @type {number} */ (cache.length);
      stride = /** @type {number} */ (cache.stride);
    } else if (cache && xKV) {
      k = cache.k = linear(source, p.W_K);  // kept by the cache: no arena
      v = cache.v = linear(source, p.W_V);
      cache.length = cache.stride = Lk;
    } else {
      k = linear(source, p.W_K, mem);
      v = linear(source, p.W_V, mem);
      if (cache) {
        appendToCache(cache, k, v, B);  // (B, past + L_q) keys: the cache's rows
        k = /** @type {Matrix} */ (cache.k);
        v = /** @type {Matrix} */ (cache.v);
        Lk = /** @type {number} */ (cache.length);
        stride = /** @type {number} */ (cache.stride);
      }
    }
    const merged = alloc(mem, xQ.rows, q.cols), at = parts(B, nHeads, q.cols / nHeads, Lq, Lk, stride);
    /** @type {Matrix[]} */
    const weights = [];
    for (let head = 0; head < nHeads; head++) weights.push(alloc(mem, B * Lq, Lk));
    at.forEach(function (a) { attendHead(q, k, v, masks[a.b], scale, a, merged, weights[a.head]); });
    return { output: linear(merged, p.W_O, mem), weights: weights, xQ: xQ, source: source, self: !xKV,
             q: q, k: k, v: v, at: at, merged: merged, scale: scale };
  }

  // backward: W_O, then each sequence's heads, then W_Q, W_K, W_V. Returns {dxQ, dSource}; for
  // self-attention the source is xQ, so dxQ holds both and dSource is null.
  function multiHeadAttentionBackward(dOut, r, p, g, mem) {
    const dMerged = linearBackward(dOut, r.merged, p.W_O, g.W_O, mem);
    const dq = alloc(mem, r.q.rows, r.q.cols), dk = alloc(mem, r.k.rows, r.k.cols), dv = alloc(mem, r.v.rows, r.v.cols);
    r.at.forEach(function (a) { attendHeadBackward(dMerged, r.q, r.k, r.v, r.weights[a.head], r.scale, a, dq, dk, dv); });
    const dxQ = linearBackward(dq, r.xQ, p.W_Q, g.W_Q, mem);
    const dSource = addInto(linearBackward(dk, r.source, p.W_K, g.W_K, mem), linearBackward(dv, r.source, p.W_V, g.W_V, mem));
    if (r.self) return { dxQ: addInto(dxQ, dSource), dSource: null };
    return { dxQ: dxQ, dSource: dSource };
  }

  // ---- position.py
  // the (L, D) table as a float32 matrix; each entry is CourseMath.sinusoid (maths.js)
  function sinusoidalTable(length, D) {
    const pe = matrix(length, D);  // kept: never an arena's
    for (let pos = 0; pos < length; pos++) {
      for (let dim = 0; dim < D; dim++) pe.data[pos * D + dim] = CourseMath.sinusoid(pos, dim, D);
    }
    return pe;
  }

  // ---- layers.py
  // W_2(relu(W_1 x))
  function positionwiseFeedForward(p, x, mem) {
    const hidden = linear(x, p.W_1, mem);
    for (let i = 0; i < hidden.data.length; i++) hidden.data[i] = Math.max(0, hidden.data[i]);
    return { output: linear(hidden, p.W_2, mem), x: x, hidden: hidden, weights: null };
  }

  // backward: through W_2, then ReLU passes the gradient where its output is positive, then W_1
  function positionwiseFeedForwardBackward(dy, r, p, g, mem) {
    const dHidden = linearBackward(dy, r.hidden, p.W_2, g.W_2, mem);
    for (let i = 0; i < dHidden.data.length; i++) if (!(r.hidden.data[i] > 0)) dHidden.data[i] = 0;
    return linearBackward(dHidden, r.x, p.W_1, g.W_1, mem);
  }

  /** @typedef {{d_model: number, n_heads: number, d_ff: number, n_layers: number, norm_first: boolean, position: string,
   *    pad_id: number, eps: number, vocab_size?: number, attention_scale?: number | null}} ModelConfig */

  // SublayerConnection: post-LN norm(x + sublayer(x)), or pre-LN x + sublayer(norm(x))
  function sublayerConnection(p, cfg, x, sublayer, mem) {
    if (cfg.norm_first) {
      const normed = layerNorm(x, p.norm, cfg.eps, mem), r = sublayer(normed);
      return { x: add(x, r.output, mem), weights: r.weights, inner: r, normed: normed };
    }
    const r = sublayer(x), normed = layerNorm(add(x, r.output, mem), p.norm, cfg.eps, mem);
    return { x: normed, weights: r.weights, inner: r, normed: normed };
  }

  // backward: the residual's gradient goes to both branches and adds up (sublayerBackward: the
  // sub-layer's)
  function sublayerConnectionBackward(dy, s, p, g, cfg, sublayerBackward, mem) {
    if (cfg.norm_first) return addInto(layerNormBackward(sublayerBackward(dy, s.inner), s.normed, p.norm, g.norm, mem), dy);
    const dSum = layerNormBackward(dy, s.normed, p.norm, g.norm, mem);
    return addInto(sublayerBackward(dSum, s.inner), dSum);
  }

  function encoderLayer(p, cfg, x, masks, mem) {
    const a = sublayerConnection(p.sublayer1, cfg, x, function (y) {
      return multiHeadAttention(p.self_attn, cfg.n_heads, y, null, masks, cfg.attention_scale, mem);
    }, mem);
    const f = sublayerConnection(p.sublayer2, cfg, a.x, function (y) { return positionwiseFeedForward(p.ffn, y, mem); }, mem);
    return { x: f.x, weights: a.weights, a: a, f: f };
  }

  function encoderLayerBackward(dy, r, p, g, cfg, mem) {
    const dA = sublayerConnectionBackward(dy, r.f, p.sublayer2, g.sublayer2, cfg, function (d, inner) {
      return positionwiseFeedForwardBackward(d, inner, p.ffn, g.ffn, mem);
    }, mem);
    return sublayerConnectionBackward(dA, r.a, p.sublayer1, g.sublayer1, cfg, function (d, inner) {
      return multiHeadAttentionBackward(d, inner, p.self_attn, g.self_attn, mem).dxQ;
    }, mem);
  }

  // DecoderLayer: masked self-attention, cross-attention to the encoder output (a decoder-only
  // model's layers have none: no p.cross_attn), then the FFN. cache: this layer's {self, cross}
  // (generation; layers.py's cache.setdefault("self", {}))
  /** @param {LayerCache} [cache] */
  function decoderLayer(p, cfg, x, memory, selfMasks, memoryMasks, mem, cache) {
    const selfCache = cache ? (cache.self = cache.self || {}) : undefined;
    const s = sublayerConnection(p.sublayer1, cfg, x, function (y) {
      return multiHeadAttention(p.self_attn, cfg.n_heads, y, null, selfMasks, cfg.attention_scale, mem, selfCache);
    }, mem);
    let c = null;
    if (p.cross_attn) {
      if (!memory) throw new Error("this decoder layer has cross-attention, so it needs the encoder output (memory)");
      const crossCache = cache ? (cache.cross = cache.cross || {}) : undefined;
      c = sublayerConnection(p.sublayer2, cfg, s.x, function (y) {
        return multiHeadAttention(p.cross_attn, cfg.n_heads, y, memory, memoryMasks, cfg.attention_scale, mem, crossCache);
      }, mem);
    }
    const f = sublayerConnection(p.sublayer3, cfg, (c || s).x, function (y) { return positionwiseFeedForward(p.ffn, y, mem); }, mem);
    return { x: f.x, selfWeights: s.weights, crossWeights: c ? c.weights : null, s: s, c: c, f: f };
  }

  // backward; the cross-attention's gradient for the encoder output is added into dMemory
  function decoderLayerBackward(dy, r, p, g, cfg, dMemory, mem) {
    const dC = sublayerConnectionBackward(dy, r.f, p.sublayer3, g.sublayer3, cfg, function (d, inner) {
      return positionwiseFeedForwardBackward(d, inner, p.ffn, g.ffn, mem);
    }, mem);
    const dS = sublayerConnectionBackward(dC, r.c, p.sublayer2, g.sublayer2, cfg, function (d, inner) {
      const b = multiHeadAttentionBackward(d, inner, p.cross_attn, g.cross_attn, mem);
      addInto(dMemory, b.dSource);
      return b.dxQ;
    }, mem);
    return sublayerConnectionBackward(dS, r.s, p.sublayer1, g.sublayer1, cfg, function (d, inner) {
      return multiHeadAttentionBackward(d, inner, p.self_attn, g.self_attn, mem).dxQ;
    }, mem);
  }

  // ---- models.py
  /** @typedef {{pad_id: number, bos_id: number, eos_id: number, digit0?: number, names?: string[]}} Tokens */
  /** @typedef {{cfg: ModelConfig, params: any, tokens: Tokens, manifest?: any}} Model */

  // Embedding: token vector × √D plus the sinusoidal table (§3.4, §3.5); position "none"
  // leaves the table out (lesson 6's switch)
  // the table, once per width D, grown for longer sequences (float32, as the model's buffer)
  /** @type {Map<number, Matrix>} */
  const tables = new Map();
  function tableFor(length, D) {
    let pe = tables.get(D);
    // at least doubled when it grows, as position.py does, so that generating token by token
    // does not rebuild it at every step
    if (!pe || pe.rows < length) { pe = sinusoidalTable(Math.max(length, 64, 2 * (pe ? pe.rows : 0)), D); tables.set(D, pe); }
    return pe.data;
  }

  // seqs: B lists of token ids of one length L → (B·L, D); row b·L + i is position offset + i
  // (offset: the first position's index, after that many cached ones)
  function embed(model, seqs, mem, offset) {
    const D = model.cfg.d_model, W = model.params.embed.tokens.weight.data, L = seqs[0].length, o = offset || 0;
    const x = alloc(mem, seqs.length * L, D), scale = Math.sqrt(D);
    const table = model.cfg.position !== "none" ? tableFor(o + L, D) : null;
    seqs.forEach(function (tokens, b) {
      for (let i = 0; i < L; i++) {
        const row = (b * L + i) * D;
        for (let j = 0; j < D; j++) x.data[row + j] = W[tokens[i] * D + j] * scale + (table ? table[(o + i) * D + j] : 0);
      }
    });
    return x;
  }

  // backward: each token's embedding row gets √D × its position's gradient (the table is fixed);
  // tied, the same matrix also gets the output projection's
  function embedBackward(dx, model, seqs, g) {
    const D = model.cfg.d_model, gW = g.embed.tokens.weight.data, scale = Math.sqrt(D), L = seqs[0].length;
    seqs.forEach(function (tokens, b) {
      for (let i = 0; i < L; i++) {
        for (let j = 0; j < D; j++) gW[tokens[i] * D + j] += dx.data[(b * L + i) * D + j] * scale;
      }
    });
  }

  // pre-LN stacks end with a LayerNorm (GPT-2)
  function finalNorm(model, stack, x, mem) {
    return model.cfg.norm_first ? layerNorm(x, model.params[stack].norm, model.cfg.eps, mem) : x;
  }

  function finalNormBackward(model, stack, dy, y, g, mem) {
    return model.cfg.norm_first
      ? layerNormBackward(dy, /** @type {NormedMatrix} */ (y), model.params[stack].norm, g[stack].norm, mem) : dy;
  }

  // the sequences of a batch share one length (padded with pad_id, as the Python's batches)
  function sameLength(seqs) {
    if (!seqs.every(function (s) { return s.length === seqs[0].length; })) {
      throw new Error("the sequences of a batch must have one length: pad the shorter ones with pad_id");
    }
    return seqs;
  }

  // EncoderDecoderTransformer.encode: B src id lists → memory (B·L_s, D), the padding masks,
  // the encoder weights ([layer][head], (B·L_s, L_s))
  /** @param {Model} model @param {number[][]} srcs @param {Arena} [mem] */
  function encode(model, srcs, mem) {
    const cfg = model.cfg;
    const weights = [];
    const layers = [];
    const srcMasks = sameLength(srcs).map(function (src) { return CourseMath.paddingMask(src, cfg.pad_id); });
    let x = embed(model, srcs, mem);
    model.params.encoder.layers.forEach(function (p) {
      const r = encoderLayer(p, cfg, x, srcMasks, mem);
      x = r.x;
      weights.push(r.weights);
      layers.push(r);
    });
    return { memory: finalNorm(model, "encoder", x, mem), srcMasks: srcMasks, weights: weights, srcs: srcs, layers: layers };
  }

  function encodeBackward(model, enc, dMemory, g, mem) {
    let dx = finalNormBackward(model, "encoder", dMemory, enc.memory, g, mem);
    for (let l = enc.layers.length - 1; l >= 0; l--) {
      dx = encoderLayerBackward(dx, enc.layers[l], model.params.encoder.layers[l], g.encoder.layers[l], model.cfg, mem);
    }
    embedBackward(dx, model, enc.srcs, g);
  }

  // the last row of each of the B sequences: (B, cols)
  function lastRows(x, B, mem) {
    const L = x.rows / B, out = alloc(mem, B, x.cols);
    for (let b = 0; b < B; b++) out.data.set(x.data.subarray(((b + 1) * L - 1) * x.cols, (b + 1) * L * x.cols), b * x.cols);
    return out;
  }

  // future_mask: target position i (after `offset` cached ones) may see keys j ≤ offset + i
  /** @param {number} offset @returns {(i: number, j: number) => boolean} */
  function futureMask(offset) {
    if (!offset) return CourseMath.causalMask;  // only j ≤ i
    return function (i, j) { return j <= offset + i; };
  }

  // EncoderDecoderTransformer.decode: B tgt id lists → logits (B·L_t, V), cross weights per
  // layer; lastOnly: each sequence's last position only (B, V), all greedy decoding needs.
  // cache (newCache, generation): the tgts are the newest tokens, after `offset` cached ones.
  // A decoder-only model decodes with memory and srcMasks null (decoderOnly below).
  /** @param {Model} model @param {number[][]} tgts @param {Matrix | null} memory @param {Mask[] | null} srcMasks
   *  @param {boolean} lastOnly @param {Arena} [mem] @param {LayerCache[]} [cache] @param {number} [offset] */
  function decode(model, tgts, memory, srcMasks, lastOnly, mem, cache, offset) {
    const cfg = model.cfg;
    const selfWs = [], crossWs = [];
    const layers = [];
    const causal = sameLength(tgts).map(function () { return futureMask(offset || 0); });
    let x = embed(model, tgts, mem, offset);
    model.params.decoder.layers.forEach(function (p, l) {
      const r = decoderLayer(p, cfg, x, memory, causal, srcMasks, mem, cache ? cache[l] : undefined);
      x = r.x;
      selfWs.push(r.selfWeights);
      crossWs.push(r.crossWeights);
      layers.push(r);
    });
    const h = finalNorm(model, "decoder", x, mem), last = lastOnly ? lastRows(h, tgts.length, mem) : h;
    return { logits: linear(last, model.params.out, mem), selfWeights: selfWs, crossWeights: crossWs,
             tgts: tgts, layers: layers, h: h };
  }

  // DecoderOnlyTransformer.forward: B token lists → next-token logits (B·L, V) (lastOnly: (B, V))
  // and the self-attention weights per layer; cache and offset as decode's
  /** @param {Model} model @param {number[][]} tokens @param {boolean} lastOnly @param {Arena} [mem]
   *  @param {LayerCache[]} [cache] @param {number} [offset] */
  function decoderOnly(model, tokens, lastOnly, mem, cache, offset) {
    return decode(model, tokens, null, null, lastOnly, mem, cache, offset);
  }

  // backward of a whole-sequence decode (lastOnly false); returns the gradient of the memory
  function decodeBackward(model, dec, dLogits, memory, g, mem) {
    const dMemory = alloc(mem, memory.rows, memory.cols);
    let dx = finalNormBackward(model, "decoder", linearBackward(dLogits, dec.h, model.params.out, g.out, mem), dec.h, g, mem);
    for (let l = dec.layers.length - 1; l >= 0; l--) {
      dx = decoderLayerBackward(dx, dec.layers[l], model.params.decoder.layers[l], g.decoder.layers[l], model.cfg, dMemory, mem);
    }
    embedBackward(dx, model, dec.tgts, g);
    return dMemory;
  }

  // nn.functional.cross_entropy(logits, targets, ignore_index=pad_id), summed over the
  // positions (targets: one id per row of logits): returns {sum, count, dLogits}, dLogits = (softmax − one-hot) × scale
  // where the target is not padding, 0 where it is
  function crossEntropy(logits, targets, padId, scale, mem) {
    const V = logits.cols, dLogits = alloc(mem, logits.rows, V);
    let sum = 0, count = 0;
    for (let i = 0; i < logits.rows; i++) {
      if (targets[i] === padId) continue;
      const z = logits.data.subarray(i * V, (i + 1) * V);
      let max = -Infinity, total = 0;
      for (let v = 0; v < V; v++) max = Math.max(max, z[v]);
      for (let v = 0; v < V; v++) total += Math.exp(z[v] - max);
      const lse = max + Math.log(total);
      sum += lse - z[targets[i]];
      count += 1;
      for (let v = 0; v < V; v++) dLogits.data[i * V + v] = (Math.exp(z[v] - lse) - (v === targets[i] ? 1 : 0)) * scale;
    }
    return { sum: sum, count: count, dLogits: dLogits };
  }

  // seq2seq_loss for a batch, teacher-forced: the decoder reads tgt[:-1], is scored on tgt[1:];
  // the mean over the positions that are not padding. With g, its gradient is added into g.
  // The same encode and decode as inference; only the loss, a number, leaves the function.
  /** @param {Model} model @param {number[][]} srcs @param {number[][]} tgts @param {any} [g] @param {Arena} [mem]
   *  @returns {number} */
  function seq2seqLoss(model, srcs, tgts, g, mem) {
    const pad = model.cfg.pad_id;
    /** @type {number[]} */
    const targets = [];
    tgts.forEach(function (tgt) { for (let i = 1; i < tgt.length; i++) targets.push(tgt[i]); });
    const n = targets.filter(function (t) { return t !== pad; }).length;
    if (mem) mem.next = 0;
    const enc = encode(model, srcs, mem);
    const dec = decode(model, tgts.map(function (tgt) { return tgt.slice(0, -1); }), enc.memory, enc.srcMasks, false, mem);
    const ce = crossEntropy(dec.logits, targets, pad, 1 / n, mem);
    if (g) encodeBackward(model, enc, decodeBackward(model, dec, ce.dLogits, enc.memory, g, mem), g, mem);
    return ce.sum / n;
  }

  // a tree of zero gradients shaped like model.params; tied parameters share one gradient
  /** @param {Model} model @returns {any} */
  function grads(model) {
    const same = new Map();
    /** @param {any} node @returns {any} */
    function zerosLike(node) {
      if (Array.isArray(node)) return node.map(zerosLike);
      if (node.data instanceof Float32Array) {
        if (!same.has(node)) same.set(node, matrix(node.rows, node.cols));
        return same.get(node);
      }
      /** @type {Object<string, any>} */
      const out = {};
      Object.keys(node).forEach(function (k) { out[k] = zerosLike(node[k]); });
      return out;
    }
    return zerosLike(model.params);
  }

  // ---- generate.py
  // new_cache: one empty {} per decoder layer; the attention calls fill in its "self" and "cross"
  /** @param {number} nLayers @returns {LayerCache[]} */
  function newCache(nLayers) {
    /** @type {LayerCache[]} */
    const cache = [];
    for (let l = 0; l < nLayers; l++) cache.push({});
    return cache;
  }

  // argmax of each of the B rows of logits (B, V), the first of equal maxima as torch.argmax
  function argmaxRows(logits) {
    const V = logits.cols, out = [];
    for (let b = 0; b < logits.rows; b++) {
      let best = 0;
      for (let v = 1; v < V; v++) if (logits.data[b * V + v] > logits.data[b * V + best]) best = v;
      out.push(best);
    }
    return out;
  }

  /** @typedef {{useCache?: boolean, stopAtEos?: boolean}} GenerateOptions  both true unless false */
  /** @typedef {(inputs: number[][], cache: LayerCache[] | null, offset: number, mem: Arena) => any} Step */

  // greedy_loop, which both generators share: step(inputs, cache, offset, mem) returns {logits
  // (B, V) of each sequence's last position, …}. With the cache only the newest tokens go in;
  // without it the whole prefix, every step. A sequence that has written EOS gets pad_id from
  // then on, as in the Python. onStep(out, next, n) sees each step's output before the next
  // step, which reuses its arrays: every step's matrices come from one arena (mem), the cache's
  // never (appendToCache), so what the cache holds survives from step to step.
  /** @param {Step} step @param {number[][]} tokens @param {number} nLayers @param {number} maxNewTokens
   *  @param {GenerateOptions} opts @param {Tokens} t @param {(out: any, next: number[], n: number) => void} [onStep] */
  function greedyLoop(step, tokens, nLayers, maxNewTokens, opts, t, onStep) {
    const useCache = opts.useCache !== false, eos = opts.stopAtEos === false ? null : t.eos_id;
    const cache = useCache ? newCache(nLayers) : null, mem = arena();
    const done = tokens.map(function () { return false; });
    let inputs = tokens, offset = 0;
    tokens = tokens.map(function (row) { return row.slice(); });
    for (let n = 0; n < maxNewTokens; n++) {
      mem.next = 0;
      const out = useCache ? step(inputs, cache, offset, mem) : step(tokens, null, 0, mem);
      if (useCache) offset += inputs[0].length;
      const next = argmaxRows(out.logits).map(function (id, b) { return done[b] ? t.pad_id : id; });
      if (onStep) onStep(out, next, n);
      next.forEach(function (id, b) {
        tokens[b].push(id);
        if (eos !== null && id === eos) done[b] = true;
      });
      inputs = next.map(function (id) { return [id]; });
      if (done.every(Boolean)) break;
    }
    return tokens;
  }

  // generate: continue each prompt (B lists of one length) of a decoder-only model greedily
  /** @param {Model} model @param {number[][]} prompts @param {number} maxNewTokens @param {GenerateOptions} [opts]
   *  @returns {number[][]} */
  function generate(model, prompts, maxNewTokens, opts) {
    return greedyLoop(function (x, cache, offset, mem) {
      return decoderOnly(model, x, true, mem, cache || undefined, offset);
    }, sameLength(prompts), model.cfg.n_layers, maxNewTokens, opts || {}, model.tokens);
  }

  // greedy_decode for B sources at once: the encoder runs once, and with the cache (the default)
  // cross-attention projects its output once too. A sequence that has written EOS goes on with
  // the others, fed padding; its tokens end at its EOS. keepSteps: each step's logits (the next
  // token's scores, (V)) and cross weights ([layer][head] over the source) and the encoder's.
  /** @typedef {{token: number, cross: Float32Array[][], logits: Float32Array}} DecodeStep */
  /** @param {Model} model @param {number[][]} srcs @param {number} maxNewTokens @param {boolean} [keepSteps]
   *  @param {GenerateOptions} [opts]
   *  @returns {{tokens: number[], steps?: DecodeStep[], encoderWeights?: Matrix[][]}[]} */
  function greedyDecodeBatch(model, srcs, maxNewTokens, keepSteps, opts) {
    const t = model.tokens, enc = encode(model, srcs), o = opts || {}, stop = o.stopAtEos !== false;
    const runs = srcs.map(function () { return { tokens: [t.bos_id], steps: /** @type {DecodeStep[]} */ ([]), done: false }; });
    greedyLoop(function (x, cache, offset, mem) {
      return decode(model, x, enc.memory, enc.srcMasks, true, mem, cache || undefined, offset);
    }, srcs.map(function () { return [t.bos_id]; }), model.cfg.n_layers, maxNewTokens, o, t, function (out, next, n) {
      runs.forEach(function (run, b) {
        if (run.done) return;
        run.tokens.push(next[b]);
        if (keepSteps) {
          const Lq = out.crossWeights[0][0].rows / srcs.length, row = b * Lq + Lq - 1;  // this sequence's last query
          const cross = out.crossWeights.map(function (heads) {
            return heads.map(function (w) { return w.data.slice(row * w.cols, (row + 1) * w.cols); });
          });
          const V = out.logits.cols;
          run.steps.push({ token: next[b], cross: cross, logits: out.logits.data.slice(b * V, (b + 1) * V) });
        }
        if (stop && next[b] === t.eos_id) run.done = true;
      });
    });
    return runs.map(function (r) {
      return keepSteps ? { tokens: r.tokens, steps: r.steps, encoderWeights: enc.weights } : { tokens: r.tokens };
    });
  }

  // one source, with each step's cross-attention and the encoder's weights (what the widgets draw)
  /** @param {Model} model @param {number[]} src @param {number} maxNewTokens @param {GenerateOptions} [opts]
   *  @returns {{tokens: number[], steps: DecodeStep[], encoderWeights: Matrix[][]}} */
  function greedyDecode(model, src, maxNewTokens, opts) {
    return /** @type {any} */ (greedyDecodeBatch(model, [src], maxNewTokens, true, opts)[0]);
  }

  // reorder_cache: hypothesis b of the next step extends parents[b], so it gets that one's
  // cached keys and values (self and cross), copied into new arrays
  /** @param {LayerCache[]} cache @param {number[]} parents */
  function reorderCache(cache, parents) {
    cache.forEach(function (layer) {
      [layer.self, layer.cross].forEach(function (part) {
        if (!part || !part.k || !part.v) return;
        const stride = /** @type {number} */ (part.stride), n = /** @type {number} */ (part.length) * part.k.cols;
        ["k", "v"].forEach(function (name) {
          const old = /** @type {Matrix} */ (part[name]), out = matrix(parents.length * stride, old.cols);
          parents.forEach(function (from, b) { out.data.set(old.data.subarray(from * stride * old.cols, from * stride * old.cols + n), b * stride * old.cols); });
          part[name] = out;
        });
      });
    });
  }

  // length_penalty: GNMT's lp(Y) = ((5 + |Y|) / 6)^α (Wu et al. 2016)
  function lengthPenalty(length, alpha) { return Math.pow((5 + length) / 6, alpha); }

  // beam_search for one source: the beamWidth best hypotheses by summed log-probability (ties:
  // the better-ranked hypothesis, then the smaller token id), those that wrote EOS set aside;
  // stops when beamWidth have finished or after maxNewTokens steps; returns them (unfinished
  // ones too if too few finished) best first by score / lp(length written), with the cache
  /** @param {Model} model @param {number[]} src @param {number} maxNewTokens @param {number} beamWidth
   *  @param {number} [alpha] @returns {{tokens: number[], score: number}[]} */
  function beamSearch(model, src, maxNewTokens, beamWidth, alpha) {
    const t = model.tokens, a = alpha === undefined ? 0.6 : alpha, enc = encode(model, [src]);
    const cache = newCache(model.cfg.n_layers), mem = arena();
    let beams = [[t.bos_id]], scores = [0];
    /** @type {{tokens: number[], score: number}[]} */
    let finished = [];
    for (let step = 0; step < maxNewTokens; step++) {
      mem.next = 0;
      const masks = beams.map(function () { return enc.srcMasks[0]; });
      const out = decode(model, beams.map(function (b) { return [b[b.length - 1]]; }), enc.memory, masks, true, mem, cache, step);
      const V = out.logits.cols, L = out.logits.data, ranked = [];
      for (let i = 0; i < beams.length; i++) {
        let max = -Infinity, total = 0;
        for (let v = 0; v < V; v++) max = Math.max(max, L[i * V + v]);
        for (let v = 0; v < V; v++) total += Math.exp(L[i * V + v] - max);
        const lse = max + Math.log(total);
        for (let v = 0; v < V; v++) ranked.push({ score: scores[i] + (L[i * V + v] - lse), parent: i, token: v });
      }
      ranked.sort(function (x, y) { return y.score - x.score || x.parent - y.parent || x.token - y.token; });
      const best = ranked.slice(0, beamWidth), keep = best.filter(function (c) { return c.token !== t.eos_id; });
      best.forEach(function (c) { if (c.token === t.eos_id) finished.push({ tokens: beams[c.parent].concat([c.token]), score: c.score }); });
      if (finished.length >= beamWidth || !keep.length) break;
      reorderCache(cache, keep.map(function (c) { return c.parent; }));
      beams = keep.map(function (c) { return beams[c.parent].concat([c.token]); });
      scores = keep.map(function (c) { return c.score; });
    }
    const hyps = finished.length >= beamWidth ? finished
      : finished.concat(beams.map(function (b, i) { return { tokens: b, score: scores[i] }; }));
    return hyps.map(function (h, i) { return { h: h, i: i }; }).sort(function (x, y) {
      return y.h.score / lengthPenalty(y.h.tokens.length - 1, a) - x.h.score / lengthPenalty(x.h.tokens.length - 1, a) || x.i - y.i;
    }).slice(0, beamWidth).map(function (x) { return x.h; });
  }

  // ---- loading the exported files
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

  // cfg, tokens and {name: matrix} (tied: {name: the name it shares its matrix with}) → a model
  /** @param {ModelConfig} cfg @param {Tokens} tokens @param {Object<string, Matrix>} tensors
   *  @param {Object<string, string>} [tied] @param {any} [manifest] @returns {Model} */
  function fromTensors(cfg, tokens, tensors, tied, manifest) {
    /** @type {any} */
    const params = {};
    Object.keys(tied || {}).forEach(function (name) { tensors[name] = tensors[tied[name]]; });
    Object.keys(tensors).forEach(function (name) { setPath(params, name, tensors[name]); });
    return { cfg: cfg, params: params, tokens: tokens, manifest: manifest };
  }

  // manifest: the JSON the build writes; buffer: the ArrayBuffer of its .bin
  /** @param {any} manifest @param {ArrayBuffer} buffer */
  function fromBuffers(manifest, buffer) {
    if (manifest.dtype !== "int8" || manifest.config.position !== "sinusoidal") {
      throw new Error("transformer.js reads int8 weights of a sinusoidal-position model");
    }
    /** @type {Object<string, Matrix>} */
    const tensors = {};
    manifest.tensors.forEach(function (/** @type {any} */ t) {
      // int8 values times one float32 scale per tensor (model_export.dequantise)
      const q = new Int8Array(buffer, t.offset, t.bytes), data = new Float32Array(t.bytes);
      for (let i = 0; i < t.bytes; i++) data[i] = q[i] * t.scale;
      const shape = t.shape.length === 1 ? [1, t.shape[0]] : t.shape;
      tensors[t.name] = matrix(shape[0], shape[1], data);
    });
    const cfg = Object.assign({ eps: manifest.layer_norm_eps }, manifest.config);
    // tokens: names (the vocabulary), pad_id, bos_id, eos_id, plus what a model's widget needs
    return fromTensors(cfg, manifest.tokens, tensors, manifest.tied, manifest);
  }

  // fetch the manifest and its weights (same folder); resolves to a model for encode/decode
  /** @param {string} manifestUrl @returns {Promise<Model>} */
  function loadModel(manifestUrl) {
    return fetch(manifestUrl).then(function (r) {
      if (!r.ok) throw new Error(manifestUrl + ": HTTP " + r.status);
      return r.json();
    }).then(function (manifest) {
      const url = new URL(manifest.weights, new URL(manifestUrl, (typeof document !== "undefined" ? document.baseURI : self.location.href)));
      return fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + ": HTTP " + r.status);
        return r.arrayBuffer();
      }).then(function (buffer) { return fromBuffers(manifest, buffer); });
    });
  }

  const api = {
    scaledDotProductAttention: scaledDotProductAttention, multiHeadAttention: multiHeadAttention,
    sinusoidalTable: sinusoidalTable, encode: encode, decode: decode, greedyDecode: greedyDecode,
    greedyDecodeBatch: greedyDecodeBatch, decoderOnly: decoderOnly, generate: generate, newCache: newCache,
    beamSearch: beamSearch,
    fromBuffers: fromBuffers, fromTensors: fromTensors, loadModel: loadModel, matrix: matrix,
    // training (trainer.js)
    seq2seqLoss: seq2seqLoss, grads: grads, crossEntropy: crossEntropy, arena: arena,
    attendHead: attendHead, attendHeadBackward: attendHeadBackward,
  };
  return /** @type {Closed<typeof api>} */ (api);
})();
