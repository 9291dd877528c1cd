// @ts-check
// Choosing the next token from a decoder's scores, in the page: greedy, temperature, top-k and
// top-p. In the order of tutorial_code/writing/sampling.py and with its names (checkOptions,
// greedy, softmax, ranked, nextTokenProbs, pick, sample), computed in float64 as there;
// tests/package/test_sampling.py checks that both choose the same tokens from the same random
// numbers (a seeded stream such as TrainerTask.mulberry32's).
//
// Temperature divides the scores before the softmax; top-k keeps the k most probable tokens;
// top-p keeps the fewest most probable tokens whose probabilities (of what top-k kept, divided
// by its sum) add up to at least p; tokens of equal probability are ranked by index, the smaller
// first. What is kept is divided by its sum,
// and a random number u in [0, 1) picks the first token, in vocabulary order, whose running
// total of probability exceeds u.
var Sampling = (function () {
  "use strict";

  /** @typedef {{temperature?: number, topK?: number | null, topP?: number | null}} Options */

  // a clear error for options that choose no token, saying what to use instead
  /** @param {number} vocabSize @param {Options} options */
  function checkOptions(vocabSize, options) {
    const t = options.temperature === undefined ? 1 : options.temperature;
    if (!(typeof t === "number" && Number.isFinite(t) && t > 0))
      throw new RangeError("temperature must be a number above 0, got " + t + ": a temperature near 0 " +
        "approaches greedy decoding; use greedy() for exactly that");
    const k = options.topK;
    if (k !== undefined && k !== null && !(Number.isInteger(k) && k >= 1))
      throw new RangeError("topK must be a whole number of at least 1, got " + k +
        " (null, or " + vocabSize + ", keeps every token)");
    const p = options.topP;
    if (p !== undefined && p !== null && !(typeof p === "number" && p > 0 && p <= 1))
      throw new RangeError("topP must be above 0 and at most 1, got " + p + " (1 keeps every token)");
  }

  // the index of the largest score (the first of equal ones)
  /** @param {ArrayLike<number>} logits */
  function greedy(logits) {
    let best = 0;
    for (let i = 1; i < logits.length; i++) if (logits[i] > logits[best]) best = i;
    return best;
  }

  // exp(s − max s), divided by its sum, in float64
  /** @param {ArrayLike<number>} scores @returns {Float64Array} */
  function softmax(scores) {
    let max = -Infinity;
    for (let i = 0; i < scores.length; i++) if (scores[i] > max) max = scores[i];
    const e = new Float64Array(scores.length);
    let sum = 0;
    for (let i = 0; i < scores.length; i++) { e[i] = Math.exp(scores[i] - max); sum += e[i]; }
    for (let i = 0; i < e.length; i++) e[i] /= sum;
    return e;
  }

  // token indices from the most probable to the least; equal probabilities by index
  /** @param {ArrayLike<number>} probs @returns {number[]} */
  function ranked(probs) {
    const order = Array.from({ length: probs.length }, function (_, i) { return i; });
    return order.sort(function (a, b) { return probs[b] - probs[a] || a - b; });
  }

  // the distribution the next token is drawn from, float64: 0 for every token cut off
  /** @param {ArrayLike<number>} logits @param {Options} [options] @returns {Float64Array} */
  function nextTokenProbs(logits, options) {
    const o = options || {};
    checkOptions(logits.length, o);
    const t = o.temperature === undefined ? 1 : o.temperature;
    const scaled = Float64Array.from(logits, function (s) { return s / t; });
    const probs = softmax(scaled);
    const order = ranked(probs);
    let keep = probs.length;
    if (o.topK !== undefined && o.topK !== null) keep = Math.min(keep, o.topK);
    if (o.topP !== undefined && o.topP !== null) {
      // the fewest tokens whose total reaches p; all of them if rounding leaves the total below p
      // of what top-k kept, as a distribution of its own
      let head = 0, running = 0, below = 0;
      for (let r = 0; r < keep; r++) head += probs[order[r]];
      for (let r = 0; r < keep; r++) { running += probs[order[r]] / head; if (running < o.topP) below++; }
      keep = Math.min(keep, below + 1);
    }
    const kept = new Float64Array(probs.length);
    let sum = 0;
    for (let r = 0; r < keep; r++) { kept[order[r]] = probs[order[r]]; sum += probs[order[r]]; }
    for (let i = 0; i < kept.length; i++) kept[i] /= sum;
    return kept;
  }

  // the token a uniform random number u in [0, 1) chooses: the first, in vocabulary order,
  // whose running total of probability exceeds u (never a token of probability 0)
  /** @param {ArrayLike<number>} probs @param {number} u */
  function pick(probs, u) {
    if (!(u >= 0 && u < 1)) throw new RangeError("u must be in [0, 1), got " + u);
    let total = 0, last = -1;
    for (let i = 0; i < probs.length; i++) {
      if (!(probs[i] > 0)) continue;
      total += probs[i];
      last = i;
      if (u < total) return i;
    }
    if (last < 0) throw new RangeError("no token has a probability above 0");
    return last;  // the running total fell short of u by rounding: the last token that can be chosen
  }

  // one sampled token: nextTokenProbs, then pick with the random number u
  /** @param {ArrayLike<number>} logits @param {number} u @param {Options} [options] */
  function sample(logits, u, options) { return pick(nextTokenProbs(logits, options), u); }

  const api = { checkOptions: checkOptions, greedy: greedy, softmax: softmax, ranked: ranked,
    nextTokenProbs: nextTokenProbs, pick: pick, sample: sample };
  return /** @type {Closed<typeof api>} */ (api);
})();
