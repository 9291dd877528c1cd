// @ts-check
// Lesson 3 widget: softmax(QKᵀ/√d_k)V one matrix at a time, and the peak weight as d_k grows.
//
// Data ([[widget:worked_examples.sdpa]], tutorial_code/experiments/pagedata/widgets_attention.py): the page's
// Q, K, V (L = 4, d_k = 4) and the seed of the d_k slider's random queries and keys, which the
// page draws with the same small generator as Python (Park–Miller). Everything shown is
// computed here; data.checks are for the browser tests only. Each matrix carries its full
// values in data-matrix (JSON; a blocked score is null).
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "다섯 단계를 한 행렬씩 넘겨 보기",
      steps: ["1단계: 입력 Q, K, V", "2단계: 점수 QKᵀ", "3단계: √dₖ로 나누기", "3단계와 4단계 사이: 마스크", "4단계: 소프트맥스 (어텐션 가중치)", "5단계: 가중치 × V (출력)"],
      prev: "이전 단계", next: "다음 단계", mask: "마스크", none: "마스크 없음", causal: "인과 마스크 (4강)",
      step: function (i, n, name) { return "화면 " + i + "/" + n + ". " + name; },
      blocked: "가린 칸은 −∞, 소프트맥스 뒤에는 0입니다.",
      row: function (i) { return "쿼리 " + i; }, col: function (j) { return "키 " + j; },
      dim: function (j) { return "성분 " + j; },
      sweep: function (L) { return "dₖ를 키우면: 무작위 쿼리와 키 " + L + "개씩(성분은 −√3~√3에 고르게 퍼져 평균 0, 분산 1)에서 각 행의 최대 가중치를 평균한 값"; },
      dk: "dₖ", scaled: "√dₖ로 나눔", unscaled: "나누지 않음",
      peak: function (d, s, u) { return "dₖ = " + d + ": 나누면 " + s + ", 나누지 않으면 " + u; },
    },
    en: {
      title: "Step through the five steps, one matrix at a time",
      steps: ["Step 1: inputs Q, K, V", "Step 2: scores QKᵀ", "Step 3: divide by √dₖ", "Between steps 3 and 4: the mask", "Step 4: softmax (attention weights)", "Step 5: weights × V (output)"],
      prev: "Previous step", next: "Next step", mask: "Mask", none: "No mask", causal: "Causal mask (lesson 4)",
      step: function (i, n, name) { return "Screen " + i + " of " + n + ". " + name; },
      blocked: "Blocked cells are −∞, and 0 after the softmax.",
      row: function (i) { return "query " + i; }, col: function (j) { return "key " + j; },
      dim: function (j) { return "component " + j; },
      sweep: function (L) { return "As dₖ grows: " + L + " random queries and " + L + " keys (components spread evenly over −√3 to √3: mean 0, variance 1), each row's largest weight, averaged"; },
      dk: "dₖ", scaled: "divided by √dₖ", unscaled: "not divided",
      peak: function (d, s, u) { return "dₖ = " + d + ": " + s + " divided, " + u + " not divided"; },
    },
  };

  const maths = CourseMath, matmul = maths.matmul, transpose = maths.transpose, softmaxRows = maths.softmaxRows;  // maths.js

  // the five steps; a causal mask blocks keys after the query (−∞, so softmax gives exactly 0)
  function steps(d, causal) {
    const scores = matmul(d.Q, transpose(d.K)), dk = d.Q[0].length;
    const scaled = scores.map(function (r) { return r.map(function (x) { return x / Math.sqrt(dk); }); });
    const masked = scaled.map(function (r, i) { return r.map(function (x, j) { return causal && !maths.causalMask(i, j) ? -Infinity : x; }); });
    const weights = softmaxRows(masked);
    return { scores: scores, scaled: scaled, masked: masked, weights: weights, output: matmul(weights, d.V) };
  }

  // the d_k slider's queries and keys: the same generator and order as widgets_attention.py
  function uniform(seed, n, a, m) {
    const out = [];
    let s = seed;
    for (let i = 0; i < n; i++) { s = (s * a) % m; out.push((2 * s / m - 1) * Math.sqrt(3)); }
    return out;
  }
  function peak(sweep, dk) {
    const L = sweep.L, x = uniform(sweep.seed + dk, 2 * L * dk, sweep.a, sweep.m);
    const rows = function (off) { return Array.from({ length: L }, function (_, i) { return x.slice(off + i * dk, off + (i + 1) * dk); }); };
    const S = matmul(rows(0), transpose(rows(L * dk)));
    const mean = function (W) { return W.reduce(function (acc, r) { return acc + Math.max.apply(null, r); }, 0) / L; };
    return { scaled: mean(softmaxRows(S.map(function (r) { return r.map(function (v) { return v / Math.sqrt(dk); }); }))),
             unscaled: mean(softmaxRows(S)) };
  }

  function format(x) { return x === -Infinity ? "−∞" : (Math.abs(x) < 5e-4 ? 0 : x).toFixed(3).replace(/\.?0+$/, "") || "0"; }

  function matrix(el, t, name, M, label) {
    const table = el("table", { class: "widget-matrix", "data-name": name,
      "data-matrix": JSON.stringify(M.map(function (r) { return r.map(function (x) { return isFinite(x) ? x : null; }); })) });
    table.appendChild(el("caption", { text: label }));
    const wide = name === "Q" || name === "K" || name === "V" || name === "output";
    table.appendChild(el("tr", {}, [el("td", { text: "" })].concat(M[0].map(function (_, j) {
      return el("th", { scope: "col", text: wide ? t.dim(j + 1) : t.col(j + 1) });
    }))));
    M.forEach(function (row, i) {
      table.appendChild(el("tr", {}, [el("th", { scope: "row", text: name === "K" || name === "V" ? t.col(i + 1) : t.row(i + 1) })]
        .concat(row.map(function (x) {
          const td = el("td", { text: format(x) });
          if (x === -Infinity) td.className = "widget-blocked";
          if (name === "weights") td.style.setProperty("--w", x.toFixed(3));
          return td;
        }))));
    });
    return table;
  }

  // step i's matrices, and the note on blocked cells; the note keeps its line when it does not
  // apply (hidden), so the widget's height does not change with the mask
  function drawStep(state, i) {
    const t = state.t, el = state.el, d = state.data, ui = state.ui;
    const r = steps(d, ui.mask.value === "causal");
    const shown = [[["Q", d.Q, "Q"], ["K", d.K, "K"], ["V", d.V, "V"]], [["scores", r.scores, "QKᵀ"]],
      [["scaled", r.scaled, "QKᵀ / √" + d.Q[0].length]], [["masked", r.masked, ui.mask.value === "causal" ? t.causal : t.none]],
      [["weights", r.weights, "softmax"]], [["output", r.output, "softmax · V"]]][i];
    ui.view.replaceChildren.apply(ui.view, shown.map(function (m) { return matrix(el, t, m[0], m[1], m[2]); }));
    ui.note.hidden = !(i === 3 || (i > 3 && ui.mask.value === "causal"));
  }

  function render(state) {
    const t = state.t, ui = state.ui, i = state.step, n = t.steps.length - 1;
    drawStep(state, i);
    ui.where.textContent = t.step(i + 1, n + 1, t.steps[i]);
    ui.prev.disabled = i === 0;
    ui.next.disabled = i === n;
  }

  function renderSweep(state) {
    const ui = state.ui, sweep = state.data.sweep, dk = sweep.d_k[Number(ui.dk.value)], p = peak(sweep, dk);
    ui.dk.setAttribute("aria-valuetext", "dₖ = " + dk);
    ui.dkValue.textContent = String(dk);
    [["scaled", ui.bars[0]], ["unscaled", ui.bars[1]]].forEach(function (pair) {
      pair[1].bar.style.setProperty("--w", p[pair[0]].toFixed(3));
      pair[1].value.textContent = p[pair[0]].toFixed(3);
      pair[1].value.dataset.value = String(p[pair[0]]);
    });
    ui.sweepStatus.textContent = state.t.peak(dk, p.scaled.toFixed(3), p.unscaled.toFixed(3));
  }

  function build(root, ctx, t) {
    const el = ctx.el, uid = ctx.uid, sweep = ctx.data.sweep;
    const ui = {
      prev: el("button", { type: "button", class: "md-button", text: t.prev }),
      next: el("button", { type: "button", class: "md-button md-button--primary", text: t.next }),
      mask: el("select", { id: uid + "-mask" }, [el("option", { value: "none", text: t.none }), el("option", { value: "causal", text: t.causal })]),
      where: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
      view: el("div", { class: "widget-matrices" }), note: el("p", { class: "widget-label widget-note", text: t.blocked }),
      dk: el("input", { id: uid + "-dk", type: "range", min: "0", max: String(sweep.d_k.length - 1), step: "1", value: "0" }),
      dkValue: el("output", { for: uid + "-dk" }),
      sweepStatus: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    ui.bars = [t.scaled, t.unscaled].map(function (name, k) {
      const part = { bar: el("span", { class: "widget-bar" + (k ? " widget-bar--alt" : "") }),
                     value: el("span", { class: "widget-bar-value", "data-quantity": k ? "peak_unscaled" : "peak_scaled" }) };
      part.row = el("div", { class: "widget-bar-row" }, [el("span", { class: "widget-bar-name", text: name }), part.bar, part.value]);
      return part;
    });
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, [ui.prev, ui.next, el("label", { for: ui.mask.id, text: t.mask }), ui.mask]),
      ui.where, el("div", { class: "widget-scroll" }, [ui.view]), ui.note,
      el("p", { class: "widget-label", text: t.sweep(sweep.L) }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.dk.id, text: t.dk }), ui.dk, ui.dkValue]),
      ui.bars[0].row, ui.bars[1].row, ui.sweepStatus);
    return ui;
  }

  CourseWidgets.register("sdpa", function (root, ctx) {
    const t = ctx.labels(LABELS);
    const state = { t: t, el: ctx.el, data: ctx.data, ui: build(root, ctx, t), step: 0 };
    const ui = state.ui, last = t.steps.length - 1;
    ui.prev.addEventListener("click", function () { state.step = Math.max(0, state.step - 1); render(state); });
    ui.next.addEventListener("click", function () {
      state.step = Math.min(last, state.step + 1);
      render(state);
      if (state.step === last) ui.prev.focus();  // the button just pressed is now disabled
    });
    ui.mask.addEventListener("change", function () { render(state); });
    ui.dk.addEventListener("input", function () { renderSweep(state); });
    render(state);
    renderSweep(state);
    window.CourseWidgets.steadyHeight(ui.view, t.steps.map(function (_, i) { return i; }),
      function (i) { drawStep(state, i); }, function () { return state.step; });
  });
})();
