// @ts-check
// The course's byte-level BPE tokenizer in plain JavaScript: encode and decode as
// tutorial_code/writing/tokenizer.py does, with its names and in its order (pre_tokenise →
// preTokenise, Tokenizer.from_json → fromJSON, encode_piece → encodePiece, token_texts →
// tokenTexts, ...).
// It reads the ranks the Python side saves (Tokenizer.save:
// {"pattern": ..., "tokens": [base64 bytes, in rank order]}); it does not train. A test runs it
// in Node on thousands of strings and compares every token with the Python tokenizer's.
// A byte string is held as a JavaScript string of char codes 0-255, one per byte, so that
// joining two tokens is `a + b` and a Map can look it up.
// Top-level `var`, as Transformer (transformer.js): a global of the page and of a worker.
var Tokenizer = (function () {
  "use strict";

  /** @typedef {{vocab: string[], ranks: Map<string, number>, pattern: string, split: RegExp,
   *    cache: Map<string, number[]>}} BPE */

  // ---- 1. split
  // the pre-tokens of text, in order (the pattern comes with the ranks: SPLIT_PATTERN in Python)
  /** @param {string} text @param {RegExp} split @returns {string[]} */
  function preTokenise(text, split) {
    return text.match(split) || [];
  }

  // ---- 2. bytes
  /** @param {string} text @returns {string} its UTF-8 bytes, one char code each */
  function utf8Bytes(text) {
    // TextEncoder would write a lone surrogate (half of a UTF-16 pair) as U+FFFD; Python cannot
    // encode one at all, and neither can we
    const lone = /[\uD800-\uDFFF]/u.exec(text);
    if (lone) {
      throw new Error("cannot encode a lone surrogate (U+" + lone[0].charCodeAt(0).toString(16).toUpperCase() +
                      "): it has no UTF-8 bytes");
    }
    const bytes = new TextEncoder().encode(text);
    let out = "";
    for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
    return out;
  }

  // ---- 4. encode and decode (3., training, is Python's alone)
  // the JSON Tokenizer.save writes → a tokenizer
  /** @param {{pattern: string, tokens: string[]}} data @returns {BPE} */
  function fromJSON(data) {
    const vocab = data.tokens.map(function (b64) { return atob(b64); });
    for (let b = 0; b < 256; b++) {
      if (vocab[b] !== String.fromCharCode(b)) throw new Error("the first 256 tokens must be the bytes 0-255, in order");
    }
    /** @type {Map<string, number>} */
    const ranks = new Map();
    vocab.forEach(function (token, rank) { ranks.set(token, rank); });
    if (ranks.size !== vocab.length) throw new Error("a token appears twice in the vocabulary");
    return { vocab: vocab, ranks: ranks, pattern: data.pattern, split: new RegExp(data.pattern, "gu"), cache: new Map() };
  }

  // the tokens of one pre-token's bytes: merge the adjacent pair whose joined bytes have the
  // lowest rank (on a tie the leftmost) until no adjacent pair joins into a token
  /** @param {BPE} tok @param {string} piece bytes @returns {number[]} */
  function encodePiece(tok, piece) {
    const whole = tok.ranks.get(piece);
    if (whole !== undefined) return [whole];   // a whole pre-token that is a token (tiktoken does the same)
    const parts = piece.split("");
    while (parts.length > 1) {
      let best = tok.vocab.length, at = -1;
      for (let i = 0; i < parts.length - 1; i++) {
        const rank = tok.ranks.get(parts[i] + parts[i + 1]);
        if (rank !== undefined && rank < best) { best = rank; at = i; }
      }
      if (at < 0) break;                          // no adjacent pair is a token
      parts.splice(at, 2, parts[at] + parts[at + 1]);
    }
    return parts.map(function (part) { return /** @type {number} */ (tok.ranks.get(part)); });
  }

  // text → token ids: split, then each pre-token's bytes merged
  /** @param {BPE} tok @param {string} text @returns {number[]} */
  function encode(tok, text) {
    /** @type {number[]} */
    const ids = [];
    preTokenise(text, tok.split).forEach(function (piece) {
      let done = tok.cache.get(piece);
      if (done === undefined) {                  // a frequent word is merged once
        done = encodePiece(tok, utf8Bytes(piece));
        tok.cache.set(piece, done);
      }
      for (let i = 0; i < done.length; i++) ids.push(done[i]);
    });
    return ids;
  }

  // token ids → their bytes, joined (a Uint8Array)
  /** @param {BPE} tok @param {number[]} ids @returns {Uint8Array} */
  function decodeBytes(tok, ids) {
    const bad = ids.filter(function (i) { return !(Number.isInteger(i) && i >= 0 && i < tok.vocab.length); });
    if (bad.length) throw new Error("token ids must be in 0.." + (tok.vocab.length - 1) + ", got " + bad.slice(0, 5).join(", "));
    const joined = ids.map(function (i) { return tok.vocab[i]; }).join("");
    const out = new Uint8Array(joined.length);
    for (let i = 0; i < joined.length; i++) out[i] = joined.charCodeAt(i);
    return out;
  }

  // token ids → text; bytes that are not whole UTF-8 characters become U+FFFD (as in Python)
  /** @param {BPE} tok @param {number[]} ids @returns {string} */
  function decode(tok, ids) {
    return new TextDecoder("utf-8").decode(decodeBytes(tok, ids));
  }

  // how text is split: each token's text (part of a character shows as U+FFFD)
  /** @param {BPE} tok @param {string} text @returns {string[]} */
  function tokenTexts(tok, text) {
    return encode(tok, text).map(function (id) { return decode(tok, [id]); });
  }

  // fetch the ranks' JSON and make a tokenizer of it
  /** @param {string} url @returns {Promise<BPE>} */
  function load(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + ": HTTP " + r.status);
      return r.json();
    }).then(fromJSON);
  }

  const api = {
    preTokenise: preTokenise, utf8Bytes: utf8Bytes, fromJSON: fromJSON, encodePiece: encodePiece,
    encode: encode, decodeBytes: decodeBytes, decode: decode, tokenTexts: tokenTexts, load: load,
  };
  return /** @type {Closed<typeof api>} */ (api);
})();
