// @ts-check
// Lesson 1 widget: one context vector of D numbers shared by every word of the sentence.
//
// [[widget:translation.bottleneck]]: the data is results["widgets"]["bottleneck"] of the
// translation experiment (D is that model's d_model, the slider's range, the starting length,
// and states computed in Python that the browser tests compare with). Without JavaScript the
// lesson's prose gives the same numbers.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "문맥 벡터 하나를 단어 몇 개가 나눠 쓸까",
      length: "문장 길이 (단어 수)",
      words: function (n) { return "단어 " + n + "개"; },
      vector: function (d) { return "RNN의 문맥 벡터: 숫자 " + d + "개. 문장이 길어져도 그대로입니다."; },
      share: function (d, n, s, f) {
        return "고르게 나눈다면 단어 하나의 몫: " + d + "칸 ÷ 단어 " + n + "개 = 단어당 " + s + "칸 (" + f + ")";
      },
      attention: function (n, d, total) {
        return "어텐션은 단어마다 " + d + "칸짜리 벡터를 따로 남깁니다: " + n + " × " + d + " = " + total + "칸";
      },
      caption: "칸 하나가 문맥 벡터의 숫자 하나이고, 같은 색의 띠 하나가 단어 하나의 몫입니다.",
    },
    en: {
      title: "How many words share one context vector?",
      length: "Sentence length (words)",
      words: function (n) { return n + " words"; },
      vector: function (d) { return "The RNN's context vector: " + d + " numbers, however long the sentence."; },
      share: function (d, n, s, f) {
        return "Split evenly, each word's share: " + d + " cells ÷ " + n + " words = " + s + " cells per word (" + f + ")";
      },
      attention: function (n, d, total) {
        return "Attention keeps a vector of " + d + " cells for every word: " + n + " × " + d + " = " + total + " cells";
      },
      caption: "Each cell is one number of the context vector; each band of one colour is one word's share.",
    },
  };
  const GROUPED = new Intl.NumberFormat("en-US");

  // the numbers of one state, as the Python (pagedata/translation.py bottleneck) computes them
  function state(d, n) {
    return { n: n, numbers: d, share: d / n, fraction: 1 / n, attention_numbers: n * d };
  }

  function value(el, name, raw, text) {  // data-raw keeps full precision for the tests
    return el("span", { "data-value": name, "data-raw": String(raw), text: text });
  }

  function draw(ui, t, d, n, el) {
    const s = state(d, n);
    ui.count.textContent = t.words(n);
    ui.share.replaceChildren(value(el, "share", s.share, t.share(d, n, s.share.toFixed(1), (100 * s.fraction).toFixed(1) + "%")));
    ui.attention.replaceChildren(value(el, "attention_numbers", s.attention_numbers,
      t.attention(n, d, GROUPED.format(s.attention_numbers))));
    Array.from(ui.vector.children).forEach(function (cell, c) {
      const word = Math.floor(c * n / d);  // cell c belongs to word ⌊c·n/D⌋ when split evenly
      cell.className = "widget-cell widget-band-" + (word % 2);
    });
  }

  CourseWidgets.register("bottleneck", function (root, ctx) {
    const t = ctx.labels(LABELS), data = ctx.data, el = ctx.el, d = data.d_model;
    const ui = {
      slider: el("input", { id: ctx.uid + "-length", type: "range", min: String(data.min), max: String(data.max),
                            step: "1", value: String(data.example.n) }),
      count: el("output", { for: ctx.uid + "-length", class: "widget-count" }),
      vector: el("div", { class: "widget-vector", "aria-hidden": "true" }),
      share: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
      attention: el("p", { class: "widget-status" }),
    };
    for (let c = 0; c < d; c++) ui.vector.appendChild(el("span", { class: "widget-cell" }));
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.slider.id, text: t.length }), ui.slider, ui.count]),
      el("p", { class: "widget-label", text: t.vector(d) }), ui.vector,
      el("p", { class: "widget-label", text: t.caption }), ui.share, ui.attention);
    ui.slider.addEventListener("input", function () { draw(ui, t, d, Number(ui.slider.value), el); });
    draw(ui, t, d, data.example.n, el);
  });
})();
