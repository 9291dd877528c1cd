// @ts-check
// The maths the lesson widgets and the in-page forward pass share, written once.
//
// In the order of tutorial_code/ and with its names: attention.py (matmul, transpose, softmax,
// the toy attention of lessons 4 and 6) → masks.py (causalMask, paddingMask) → position.py
// (sinusoidalTable), and last the one drawing helper (svg). transformer.js (Float32Array rows)
// and the widgets (arrays of numbers) call the same functions, so a number a widget shows and
// a number the forward pass computes come from one piece of code. Every widget page loads this
// file first (scripts/coursebuild/pages/widgets.py).
// Top-level `var`: CourseMath is a global of the page (and of the trainer's worker, which loads
// this file with importScripts), and the type check sees its type from the code below.
var CourseMath = (function () {
  "use strict";

  // ---------------------------------------------------------------- attention.py

  /** @typedef {number[][]} Rows a matrix as an array of rows */

  // A B for matrices as arrays of rows: (n, m) @ (m, p) → (n, p)
  /** @param {Rows} A @param {Rows} B @returns {Rows} */
  function matmul(A, B) {
    return A.map(function (row) {
      return B[0].map(function (_, j) { return row.reduce(function (s, a, k) { return s + a * B[k][j]; }, 0); });
    });
  }

  /** @param {Rows} A @returns {Rows} */
  function transpose(A) { return A[0].map(function (_, j) { return A.map(function (row) { return row[j]; }); }); }

  // a · b for two vectors of the same length
  /** @param {ArrayLike<number>} a @param {ArrayLike<number>} b */
  function dot(a, b) {
    let s = 0;
    for (let i = 0; i < a.length; i++) s += a[i] * b[i];
    return s;
  }

  // torch.softmax over one row, in place (a plain array or a Float32Array row): minus the
  // largest score first, for exp's range; a −∞ (blocked) score gets exactly 0
  /** @template {number[] | Float32Array} R @param {R} row @returns {R} */
  function softmaxInPlace(row) {
    let max = -Infinity, total = 0;
    for (let j = 0; j < row.length; j++) max = Math.max(max, row[j]);
    for (let j = 0; j < row.length; j++) { row[j] = Math.exp(row[j] - max); total += row[j]; }
    for (let j = 0; j < row.length; j++) row[j] /= total;
    return row;
  }

  /** @param {number[]} scores @returns {number[]} */
  function softmax(scores) { return softmaxInPlace(scores.slice()); }  // a new row

  /** @param {Rows} S @returns {Rows} */
  function softmaxRows(S) { return S.map(softmax); }

  // the toy attention of lessons 4 and 6: softmax(X W_Q Xᵀ / √D) X, with W_K = W_V = identity
  // (the keys and the values are the inputs themselves); causal blocks the keys after the query.
  // Returns {weights (L, L), output (L, D)}.
  /** @param {Rows} X @param {Rows} W_Q @param {boolean} [causal] @returns {{weights: Rows, output: Rows}} */
  function attend(X, W_Q, causal) {
    const D = X[0].length, Q = matmul(X, W_Q);
    const weights = Q.map(function (q, i) {
      return softmax(X.map(function (k, j) {
        return causal && !causalMask(i, j) ? -Infinity : q.reduce(function (a, v, c) { return a + v * k[c]; }, 0) / Math.sqrt(D);
      }));
    });
    const output = weights.map(function (w) {
      return X[0].map(function (_, c) { return w.reduce(function (a, v, j) { return a + v * X[j][c]; }, 0); });
    });
    return { weights: weights, output: output };
  }

  // ---------------------------------------------------------------- masks.py
  // True means "may attend", as everywhere in the package

  // causal_mask: query i sees the keys j ≤ i only (§3.2.3)
  /** @param {number} i the query @param {number} j the key */
  function causalMask(i, j) { return j <= i; }

  // padding_mask: a function (i, j) that blocks the keys that are padding
  /** @param {ArrayLike<number>} tokens @param {number} padId @returns {(i: number, j: number) => boolean} */
  function paddingMask(tokens, padId) {
    return function (i, j) { return tokens[j] !== padId; };
  }

  // ---------------------------------------------------------------- position.py

  // one entry of sinusoidal_table: PE(pos, 2i) = sin(pos / base^(2i/D)), PE(pos, 2i+1) = cos(same)
  /** @param {number} pos @param {number} dim @param {number} D @param {number} [base] 10000 unless given */
  function sinusoid(pos, dim, D, base) {
    const angle = pos / Math.pow(base || 10000, (dim - dim % 2) / D);
    return dim % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  }

  // sinusoidal_table(length, d_model, base): (L, D) as arrays of rows
  /** @param {number} length @param {number} D @param {number} [base] @returns {Rows} */
  function sinusoidalTable(length, D, base) {
    return Array.from({ length: length }, function (_, pos) {
      return Array.from({ length: D }, function (_, dim) { return sinusoid(pos, dim, D, base); });
    });
  }

  // ---------------------------------------------------------------- drawing

  const SVG = "http://www.w3.org/2000/svg";

  // svg("line", { x1: 0, … }): an SVG element with these attributes
  /** @param {string} tag @param {Object<string, string | number>} [attrs] @returns {SVGElement} */
  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    return node;
  }

  const api = {
    matmul: matmul, transpose: transpose, dot: dot, softmaxInPlace: softmaxInPlace, softmax: softmax,
    softmaxRows: softmaxRows, attend: attend, causalMask: causalMask, paddingMask: paddingMask,
    sinusoid: sinusoid, sinusoidalTable: sinusoidalTable, svg: svg,
  };
  return /** @type {Closed<typeof api>} */ (api);  // a misspelt CourseMath.name is a type error
})();
