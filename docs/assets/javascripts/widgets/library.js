// @ts-check
// Lesson 2 widget: one query slip against the library's three key cards, computed in the page.
//
// Data ([[widget:worked_examples.library]], tutorial_code/experiments/pagedata/widgets_attention.py): the keys,
// values and preset queries of the worked example. The page computes q·k, ÷√d_k, softmax and
// Σ w_i v_i itself; data.checks are for the browser tests only. Every number shown carries its
// full-precision value in data-value. Drag the query on the plane, or focus it and use arrows.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "쿼리 쪽지를 직접 움직여 보기",
      plane: "쿼리 평면. 화살표 키로 쿼리를 움직입니다.",
      presets: "예제 쪽지", one: "주제 1만", both: "두 주제가 다 궁금", q: function (i) { return "쿼리 성분 " + i; },
      scale: "√dₖ로 나누기", stretch: function (f) { return "쿼리와 키를 " + f + "배 길게"; },
      book: function (i) { return "책 " + i; }, dot: "내적 q·k", score: "점수", weight: "어텐션 가중치",
      output: "출력 Σ wᵢvᵢ", query: "쿼리",
      bad: function (r) { return "쿼리 성분에는 −" + r + "에서 " + r + " 사이의 수를 입력하세요."; },
      status: function (q, top, w) { return "쿼리 [" + q + "]: 가장 큰 가중치는 책 " + top + " (" + w + ")"; },
    },
    en: {
      title: "Move the query slip yourself",
      plane: "Query plane. Arrow keys move the query.",
      presets: "The example's slips", one: "Topic 1 only", both: "Curious about both", q: function (i) { return "Query component " + i; },
      scale: "Divide by √dₖ", stretch: function (f) { return "Query and keys " + f + "× longer"; },
      book: function (i) { return "Book " + i; }, dot: "Dot product q·k", score: "Score", weight: "Attention weight",
      output: "Output Σ wᵢvᵢ", query: "Query",
      bad: function (r) { return "A query component must be a number from −" + r + " to " + r + "."; },
      status: function (q, top, w) { return "Query [" + q + "]: book " + top + " gets the largest weight, " + w + "."; },
    },
  };
  const svg = CourseMath.svg, softmax = CourseMath.softmax;  // maths.js

  // the four steps of lesson 2 for one query; stretch multiplies the query and keys, not V
  function compute(data, q, scale, stretch) {
    const dots = data.keys.map(function (k) { return stretch * stretch * (q[0] * k[0] + q[1] * k[1]); });
    const scores = scale ? dots.map(function (d) { return d / Math.sqrt(data.d_k); }) : dots;
    const weights = softmax(scores);
    const output = [0, 1].map(function (j) {
      return weights.reduce(function (acc, w, i) { return acc + w * data.values[i][j]; }, 0);
    });
    return { dots: dots, scores: scores, weights: weights, output: output };
  }

  function cell(el, value, digits, name, i) {
    return el("td", { "data-quantity": name, "data-index": String(i), "data-value": String(value),
                      text: value.toFixed(digits) });
  }

  function build(root, ctx, t) {
    const el = ctx.el, d = ctx.data, uid = ctx.uid, R = d.extent;
    const ui = { plane: svg("svg", { viewBox: [-R, -R, 2 * R, 2 * R].join(" "), class: "widget-plane",
                                     role: "application", tabindex: "0", "aria-label": t.plane,
                                     "aria-describedby": uid + "-status" }) };
    const g = svg("g", { transform: "scale(1,-1)" });  // y up, as in the lesson's figure
    g.appendChild(svg("line", { x1: -R, y1: 0, x2: R, y2: 0, class: "widget-axis" }));
    g.appendChild(svg("line", { x1: 0, y1: -R, x2: 0, y2: R, class: "widget-axis" }));
    d.keys.forEach(function (k, i) {
      g.appendChild(svg("line", { x1: 0, y1: 0, x2: k[0], y2: k[1], class: "widget-key" }));
      const label = svg("text", { x: k[0] + 0.15, y: -k[1] - 0.15, class: "widget-key-label", transform: "scale(1,-1)" });
      label.textContent = "k" + (i + 1);
      g.appendChild(label);
    });
    ui.arrow = svg("line", { x1: 0, y1: 0, class: "widget-query" });
    ui.dot = svg("circle", { r: 0.32, class: "widget-handle" });
    g.appendChild(ui.arrow);
    g.appendChild(ui.dot);
    ui.plane.appendChild(g);

    ui.presets = d.presets.map(function (pair) {
      const name = pair[0];
      return el("button", { type: "button", class: "md-button", "data-preset": name, "aria-pressed": "false", text: t[name] });
    });
    ui.q = [1, 2].map(function (i) {
      return el("input", { id: uid + "-q" + i, type: "number", step: String(d.step), min: String(-R), max: String(R),
                           "aria-describedby": uid + "-status" });
    });
    ui.scale = el("input", { id: uid + "-scale", type: "checkbox" });
    ui.stretch = el("input", { id: uid + "-stretch", type: "checkbox" });
    ui.status = el("p", { id: uid + "-status", class: "widget-status", role: "status", "aria-live": "polite" });
    ui.body = el("tbody");
    ui.out = el("p", { class: "widget-output-line" });
    const head = el("tr", {}, [el("th", { scope: "col", text: "" }), el("th", { scope: "col", text: t.dot }),
      el("th", { scope: "col", text: t.score }), el("th", { scope: "col", text: t.weight })]);
    const controls = el("div", { class: "widget-controls" }, [
      el("label", { for: ui.q[0].id, text: t.q(1) }), ui.q[0], el("label", { for: ui.q[1].id, text: t.q(2) }), ui.q[1]]);
    const toggles = el("div", { class: "widget-controls" }, [
      el("span", {}, [ui.scale, el("label", { for: ui.scale.id, text: " " + t.scale })]),
      el("span", {}, [ui.stretch, el("label", { for: ui.stretch.id, text: " " + t.stretch(d.stretch) })])]);
    const presets = el("div", { class: "widget-controls", role: "group", "aria-label": t.presets }, ui.presets);
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-split" }, [ui.plane, el("div", { class: "widget-side" }, [presets, controls, toggles])]),
      el("div", { class: "widget-scroll" }, [el("table", { class: "widget-numbers" }, [el("thead", {}, [head]), ui.body])]),
      ui.out, ui.status);
    return ui;
  }

  function render(state) {
    const ui = state.ui, t = state.t, el = state.el, d = state.data, q = state.q;
    const r = compute(d, q, ui.scale.checked, ui.stretch.checked ? d.stretch : 1);
    ui.arrow.setAttribute("x2", q[0]);
    ui.arrow.setAttribute("y2", q[1]);
    ui.dot.setAttribute("cx", q[0]);
    ui.dot.setAttribute("cy", q[1]);
    ui.q[0].value = String(q[0]);
    ui.q[1].value = String(q[1]);
    ui.body.replaceChildren.apply(ui.body, d.keys.map(function (k, i) {
      const w = cell(el, r.weights[i], 3, "weights", i);
      w.style.setProperty("--w", r.weights[i].toFixed(3));
      return el("tr", {}, [el("th", { scope: "row", text: t.book(i + 1) }), cell(el, r.dots[i], 2, "dots", i),
                           cell(el, r.scores[i], 3, "scores", i), w]);
    }));
    ui.out.replaceChildren(el("span", { text: t.output + " = [" }),
      el("span", { "data-quantity": "output", "data-index": "0", "data-value": String(r.output[0]), text: r.output[0].toFixed(2) }),
      el("span", { text: ", " }),
      el("span", { "data-quantity": "output", "data-index": "1", "data-value": String(r.output[1]), text: r.output[1].toFixed(2) }),
      el("span", { text: "]" }));
    const top = r.weights.indexOf(Math.max.apply(null, r.weights));
    ui.status.textContent = t.status(q.join(", "), top + 1, r.weights[top].toFixed(3));
    ui.presets.forEach(function (b) {
      const p = preset(d, b.dataset.preset);
      b.setAttribute("aria-pressed", String(p[0] === q[0] && p[1] === q[1]));
    });
  }

  function preset(d, name) {  // data.presets: [[name, query], …] in the page's order
    return d.presets.filter(function (pair) { return pair[0] === name; })[0][1];
  }

  function clamp(x, R) { return Math.max(-R, Math.min(R, Math.round(x * 100) / 100)); }

  function wire(state) {
    const ui = state.ui, d = state.data, R = d.extent;
    function move(q) { state.q = [clamp(q[0], R), clamp(q[1], R)]; render(state); }
    ui.presets.forEach(function (b) {
      b.addEventListener("click", function () { move(preset(d, b.dataset.preset).slice()); });
    });
    ui.q.forEach(function (input, i) {
      input.addEventListener("input", function () {
        const v = Number(input.value);  // "" when what is typed is not a number
        if (input.value === "" || !isFinite(v) || Math.abs(v) > R) {
          input.setAttribute("aria-invalid", "true");
          ui.status.textContent = state.t.bad(R);
          return;
        }
        input.removeAttribute("aria-invalid");
        const q = state.q.slice();
        q[i] = v;
        move(q);
      });
    });
    [ui.scale, ui.stretch].forEach(function (box) { box.addEventListener("change", function () { render(state); }); });
    const steps = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    ui.plane.addEventListener("keydown", function (event) {
      const s = steps[event.key];
      if (!s) return;
      event.preventDefault();  // keep the page from scrolling
      move([state.q[0] + s[0] * d.step, state.q[1] + s[1] * d.step]);
    });
    function drag(event) {
      const p = ui.plane.createSVGPoint();
      p.x = event.clientX;
      p.y = event.clientY;
      const at = p.matrixTransform(ui.plane.getScreenCTM().inverse());
      move([Math.round(at.x * 10) / 10, Math.round(-at.y * 10) / 10]);  // snap to 0.1
    }
    ui.plane.addEventListener("pointerdown", function (event) {
      ui.plane.setPointerCapture(event.pointerId);
      ui.plane.focus();
      drag(event);
    });
    ui.plane.addEventListener("pointermove", function (event) {
      if (ui.plane.hasPointerCapture(event.pointerId)) drag(event);
    });
  }

  CourseWidgets.register("library", function (root, ctx) {
    const t = ctx.labels(LABELS), d = ctx.data;
    const state = { t: t, el: ctx.el, data: d, ui: build(root, ctx, t), q: preset(d, d.start).slice() };
    state.ui.scale.checked = true;  // the lesson's worked example divides by √d_k
    wire(state);
    render(state);
  });
})();
