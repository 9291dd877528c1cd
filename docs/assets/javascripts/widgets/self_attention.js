// @ts-check
// Lesson 4 widget: self-attention over the toy sentence, a causal mask, and shuffled words.
//
// Data ([[widget:worked_examples.self_attention]], tutorial_code/experiments/pagedata/widgets_attention.py):
// the hand-set word vectors, W_Q (W_K = W_V = identity), each language's word order and the
// shuffles the button walks through. The page computes softmax(XW_Q Xᵀ/√d)X itself, and the
// sinusoidal table when position information is on; data.checks are for the browser tests.
(function () {
  "use strict";

  const sinusoid = CourseMath.sinusoidalTable, attend = CourseMath.attend;  // maths.js, loaded before this file

  const LABELS = {
    ko: {
      title: "단어를 눌러 셀프 어텐션 보기",
      sentence: "문장 (단어를 누르면 그 단어의 가중치와 출력)", causal: "인과 마스크", position: "위치 정보 더하기 (6강의 사인파 위치 인코딩)",
      shuffle: "단어 섞기", reset: "원래 순서", features: ["동물", "음식", "동작", "지시어"],
      weights: "어텐션 가중치 (행: 쿼리, 열: 키)",
      output: function (w) { return "‘" + w + "’의 출력"; },
      compare: "같은 단어끼리 비교한 출력: 원래 순서 → 지금 순서",
      word: "단어", before: "원래 순서", after: "지금 순서",
      diff: "가장 큰 차이",
      status: function (w, top, x) { return "‘" + w + "’: " + (top ? "가장 큰 가중치는 ‘" + top + "’ (" + x + ")" : "모든 단어에 같은 가중치 (" + x + ")"); },
    },
    en: {
      title: "Click a word to see its self-attention",
      sentence: "Sentence (click a word for its weights and output)", causal: "Causal mask", position: "Add position information (lesson 6's sinusoidal positional encoding)",
      shuffle: "Shuffle the words", reset: "Original order", features: ["animal", "food", "action", "demonstrative"],
      weights: "Attention weights (rows: queries, columns: keys)",
      output: function (w) { return "Output of “" + w + "”"; },
      compare: "Each word's output: original order → current order",
      word: "word", before: "original order", after: "current order",
      diff: "Largest difference",
      status: function (w, top, x) { return "“" + w + "”: " + (top ? "largest weight on “" + top + "” (" + x + ")" : "the same weight on every word (" + x + ")"); },
    },
  };

  // the sinusoidal table and softmax(X W_Q Xᵀ / √D) X with K = V = X, both from maths.js

  function compute(state) {
    const d = state.data, order = d.orders[state.lang], perm = state.perm;
    const words = perm ? perm.map(function (i) { return order[i]; }) : order.slice();
    const pe = sinusoid(order.length, d.vectors[order[0]].length), pos = state.ui.position.checked;
    const run = function (ws) {
      const X = ws.map(function (w, p) { return d.vectors[w].map(function (v, c) { return pos ? v + pe[p][c] : v; }); });
      return attend(X, d.W_Q, state.ui.causal.checked);
    };
    const now = run(words), before = run(order);
    let diff = 0;  // each word's output now against its output in the original order
    words.forEach(function (w, p) {
      const i = perm ? perm[p] : p;
      now.output[p].forEach(function (x, c) { diff = Math.max(diff, Math.abs(x - before.output[i][c])); });
    });
    return { words: words, weights: now.weights, output: now.output, before: before.output, maxDiff: diff };
  }

  function numbers(el, values, quantity, digits) {
    return values.map(function (x, c) {
      return el("td", { "data-quantity": quantity, "data-index": String(c), "data-value": String(x), text: x.toFixed(digits) });
    });
  }

  function render(state) {
    const ui = state.ui, t = state.t, el = state.el, d = state.data, r = compute(state);
    const name = function (w) { return d.words[state.lang][w]; }, sel = r.words.indexOf(state.selected);
    state.result = r;
    ui.words.replaceChildren.apply(ui.words, r.words.map(function (w, p) {
      const b = el("button", { type: "button", class: "widget-word", "data-word": w, "aria-pressed": String(p === sel), text: name(w) });
      b.addEventListener("click", function () { state.selected = w; render(state); state.ui.words.children[p].focus(); });
      b.addEventListener("keydown", function (event) {  // arrows move along the sentence
        const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        const next = (p + step + r.words.length) % r.words.length;
        ui.words.children[next].focus();
      });
      return b;
    }));
    const head = el("tr", {}, [el("td", { text: "" })].concat(r.words.map(function (w) { return el("th", { scope: "col", text: name(w) }); })));
    ui.weights.replaceChildren(el("caption", { text: t.weights }), head);
    ui.weights.dataset.matrix = JSON.stringify(r.weights);
    r.weights.forEach(function (row, i) {
      const tr = el("tr", { class: i === sel ? "widget-selected" : "" }, [el("th", { scope: "row", text: name(r.words[i]) })]);
      row.forEach(function (x) {
        const td = el("td", { text: x.toFixed(3) });
        td.style.setProperty("--w", x.toFixed(3));
        tr.appendChild(td);
      });
      ui.weights.appendChild(tr);
    });
    ui.output.replaceChildren(el("caption", { text: t.output(name(r.words[sel])) }),
      el("tr", {}, t.features.map(function (f) { return el("th", { scope: "col", text: f }); })),
      el("tr", {}, numbers(el, r.output[sel], "output", 3)));
    ui.output.dataset.matrix = JSON.stringify(r.output);
    ui.compare.replaceChildren(el("caption", { text: t.compare }),
      el("tr", {}, [el("th", { scope: "col", text: t.word }), el("th", { scope: "col", text: t.before }), el("th", { scope: "col", text: t.after })]));
    d.orders[state.lang].forEach(function (w, i) {
      const p = r.words.indexOf(w);
      const fmt = function (v) { return "[" + v.map(function (x) { return x.toFixed(2); }).join(", ") + "]"; };
      ui.compare.appendChild(el("tr", {}, [el("th", { scope: "row", text: name(w) }),
        el("td", { text: fmt(r.before[i]) }), el("td", { text: fmt(r.output[p]) })]));
    });
    ui.diff.textContent = CourseWidgets.difference(r.maxDiff);
    ui.diff.dataset.value = String(r.maxDiff);
    const row = r.weights[sel], top = row.indexOf(Math.max.apply(null, row));
    const even = row.every(function (x) { return Math.abs(x - row[0]) < 1e-12; });
    ui.status.textContent = t.status(name(r.words[sel]), even ? null : name(r.words[top]), row[top].toFixed(3));
  }

  function build(root, ctx, t) {
    const el = ctx.el, uid = ctx.uid;
    const ui = {
      words: el("div", { class: "widget-controls widget-sentence", role: "group", "aria-label": t.sentence }),
      causal: el("input", { id: uid + "-causal", type: "checkbox" }),
      position: el("input", { id: uid + "-position", type: "checkbox" }),
      shuffle: el("button", { type: "button", class: "md-button md-button--primary", text: t.shuffle }),
      reset: el("button", { type: "button", class: "md-button", text: t.reset }),
      weights: el("table", { class: "widget-matrix", "data-name": "weights" }),
      output: el("table", { class: "widget-matrix", "data-name": "output" }),
      compare: el("table", { class: "widget-matrix widget-compare" }),
      diff: el("span", { "data-quantity": "max_diff" }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("p", { class: "widget-label", text: t.sentence }), ui.words, ui.status,
      el("div", { class: "widget-controls" }, [
        el("span", {}, [ui.causal, el("label", { for: ui.causal.id, text: " " + t.causal })]),
        el("span", {}, [ui.position, el("label", { for: ui.position.id, text: " " + t.position })])]),
      el("div", { class: "widget-scroll" }, [ui.weights]), el("div", { class: "widget-scroll" }, [ui.output]),
      el("div", { class: "widget-controls" }, [ui.shuffle, ui.reset]),
      el("div", { class: "widget-scroll" }, [ui.compare]),
      el("p", {}, [el("span", { text: t.diff + ": " }), ui.diff]));
    return ui;
  }

  CourseWidgets.register("self_attention", function (root, ctx) {
    const t = ctx.labels(LABELS);
    // the first word selected (it stays selected when shuffled), the sentence as written, no mask, no positions: the lesson's table
    const state = { t: t, el: ctx.el, data: ctx.data, lang: ctx.lang, ui: build(root, ctx, t), perm: null, next: 0 };
    state.selected = ctx.data.orders[ctx.lang][0];
    const ui = state.ui, perms = ctx.data.perms;
    ui.shuffle.addEventListener("click", function () {
      state.perm = perms[state.next % perms.length];
      state.next += 1;
      render(state);
    });
    ui.reset.addEventListener("click", function () { state.perm = null; state.next = 0; render(state); });
    [ui.causal, ui.position].forEach(function (box) { box.addEventListener("change", function () { render(state); }); });
    render(state);
  });
})();
