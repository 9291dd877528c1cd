// @ts-check
// Lesson 6 widgets: the sinusoidal table (position × dimension), the three steps
// "no position → shuffled → position added" on lesson 4's toy sentence, and RoPE (rotate q by m,
// k by n: the score depends only on m − n).
//
// Data: widgets_architecture.position() (sinusoid, position_steps, rope). The page computes every
// number with the formulas of tutorial_code/position.py; `checks` only feed the browser tests.
// Every shown number also sits in data-value at full precision.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      tableTitle: "사인파 표를 위치와 차원으로 읽기", pos: "위치 pos", dim: "차원",
      value: "표의 값", wavelength: "파장 (위치 수)",
      fn: function (even) { return even ? "sin" : "cos"; },
      tableStatus: function (p, d, v) { return "위치 " + p + ", 차원 " + d + ": " + v; },
      stepsTitle: "위치 정보 없이 섞기, 그리고 위치 더하기",
      steps: ["1. 위치 없음", "2. 순서 섞기", "3. 위치 더하기"],
      stepText: [
        "문장을 그대로 넣었습니다. 각 단어의 출력 벡터입니다.",
        "같은 단어들을 섞어 넣었습니다. 위치 정보가 없으면 단어마다 출력이 그대로이고 순서만 바뀝니다.",
        "섞은 문장의 단어 벡터에 사인파 위치 인코딩을 더했습니다. 이제 같은 단어라도 자리가 바뀌면 출력이 달라집니다.",
      ],
      col: ["위치", "단어", "출력 벡터"],
      diff: "같은 단어의 출력이 섞기 전과 가장 크게 달라진 양",
      ropeTitle: "쿼리는 m만큼, 키는 n만큼 회전하기", m: "쿼리의 위치 m", n: "키의 위치 n",
      both: "둘 다 한 칸 뒤로", bothBack: "둘 다 한 칸 앞으로",
      offset: "m − n", score: "점수 (R_m q)·(R_n k)",
      same: function (off) { return "같은 m − n = " + off + "인 다른 자리"; },
      ropeStatus: function (m, n, s) { return "m = " + m + ", n = " + n + ": 점수 " + s; },
      arrows: function (q, k) { return "첫 성분 쌍: 쿼리(" + q + " 화살표)는 m·θ₀, 키(" + k + " 점선 화살표)는 n·θ₀만큼 돌아갑니다."; },
    },
    en: {
      tableTitle: "Read the sinusoidal table by position and dimension", pos: "Position pos", dim: "Dimension",
      value: "Value in the table", wavelength: "Wavelength (positions)",
      fn: function (even) { return even ? "sin" : "cos"; },
      tableStatus: function (p, d, v) { return "position " + p + ", dimension " + d + ": " + v; },
      stepsTitle: "Shuffle without position information, then add position",
      steps: ["1. No position", "2. Shuffle the order", "3. Add position"],
      stepText: [
        "The sentence as written. Each word's output vector.",
        "The same words, shuffled. Without position information each word keeps its output; only the order changes.",
        "The sinusoidal positional encoding added to the shuffled words' vectors. Now a word's output changes when it moves.",
      ],
      col: ["Position", "Word", "Output vector"],
      diff: "Largest change of a word's output against the unshuffled sentence",
      ropeTitle: "Rotate the query by m and the key by n", m: "Query position m", n: "Key position n",
      both: "Both one step later", bothBack: "Both one step earlier",
      offset: "m − n", score: "Score (R_m q)·(R_n k)",
      same: function (off) { return "Other places with the same m − n = " + off; },
      ropeStatus: function (m, n, s) { return "m = " + m + ", n = " + n + ": score " + s; },
      arrows: function (q, k) { return "First pair of components: the query (" + q + " arrow) turns by m·θ₀, the key (dashed " + k + " arrow) by n·θ₀."; },
    },
  };

  // maths.js: PE(pos, dim) of tc.sinusoidal_table, lesson 4's toy attention, the dot product, SVG
  const maths = CourseMath, pe = maths.sinusoid, svg = maths.svg, dot = maths.dot;

  function show(node, value, text) {
    node.dataset.value = String(value);
    node.textContent = text;
  }

  function range(el, id, max, value) {
    return el("input", { id: id, type: "range", min: "0", max: String(max), step: "1", value: String(value) });
  }

  // ------------------------------------------------------------ the sinusoidal table

  CourseWidgets.register("sinusoid", function (root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, d = ctx.data, uid = ctx.uid;
    const CW = 5, CH = 2;  // canvas pixels per cell: dimensions across, positions down
    const ui = {
      pos: range(el, uid + "-pos", d.length - 1, d.pos), dim: range(el, uid + "-dim", d.d_model - 1, d.dim),
      posOut: el("output", { for: uid + "-pos" }), dimOut: el("output", { for: uid + "-dim" }),
      value: el("output", { "data-key": "value" }), wavelength: el("output", { "data-key": "wavelength" }),
      formula: el("p", { class: "widget-formula" }),
      canvas: el("canvas", { class: "widget-canvas", width: String(d.d_model * CW), height: String(d.length * CH),
                             "aria-hidden": "true" }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    root.replaceChildren(el("p", { class: "widget-title", text: t.tableTitle }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.pos.id, text: t.pos }), ui.pos, ui.posOut]),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.dim.id, text: t.dim }), ui.dim, ui.dimOut]),
      ui.formula,
      el("dl", { class: "widget-readout" }, [el("dt", { text: t.value }), el("dd", {}, [ui.value]),
                                             el("dt", { text: t.wavelength }), el("dd", {}, [ui.wavelength])]),
      ui.canvas, ui.status);

    // the table once, in the figure's colours (blue −1 … white 0 … orange +1)
    const g = ui.canvas.getContext("2d");
    const image = g.createImageData(ui.canvas.width, ui.canvas.height);
    for (let p = 0; p < d.length; p++) {
      for (let j = 0; j < d.d_model; j++) {
        const v = pe(p, j, d.d_model, d.base), a = Math.abs(v);
        const rgb = v >= 0 ? [255 - a * 25, 255 - a * 128, 255 - a * 230] : [255 - a * 222, 255 - a * 136, 255 - a * 75];
        for (let y = p * CH; y < (p + 1) * CH; y++) {
          for (let x = j * CW; x < (j + 1) * CW; x++) {
            const o = 4 * (y * ui.canvas.width + x);
            image.data.set([rgb[0], rgb[1], rgb[2], 255], o);
          }
        }
      }
    }

    function render() {
      const p = Number(ui.pos.value), j = Number(ui.dim.value), D = d.d_model;
      const v = pe(p, j, D, d.base), divisor = Math.pow(d.base, (j - j % 2) / D);
      const lam = 2 * Math.PI * divisor;
      ui.posOut.textContent = String(p);
      ui.dimOut.textContent = String(j);
      show(ui.value, v, v.toFixed(3));
      show(ui.wavelength, lam, lam < 100 ? lam.toFixed(1) : Math.round(lam).toLocaleString("en-US"));
      ui.formula.textContent = "PE(" + p + ", " + j + ") = " + t.fn(j % 2 === 0) + "(" + p + " / " + d.base +
        "^(" + (j - j % 2) + "/" + D + ")) = " + t.fn(j % 2 === 0) + "(" + (p / divisor).toPrecision(4) + ") = " + v.toFixed(3);
      g.putImageData(image, 0, 0);
      g.lineWidth = 2;
      g.strokeStyle = "#000";
      g.strokeRect(0, p * CH - 1, ui.canvas.width, CH + 2);       // the row of this position
      g.strokeRect(j * CW - 1, 0, CW + 2, ui.canvas.height);      // the column of this dimension
      root.dataset.pos = String(p);
      root.dataset.dim = String(j);
      ui.status.textContent = t.tableStatus(p, j, v.toFixed(3));
    }

    // a click on the table picks that cell (a convenience; the sliders do the same by keyboard)
    ui.canvas.addEventListener("click", function (event) {
      const box = ui.canvas.getBoundingClientRect();
      ui.dim.value = String(Math.floor((event.clientX - box.left) / box.width * d.d_model));
      ui.pos.value = String(Math.floor((event.clientY - box.top) / box.height * d.length));
      render();
    });
    ui.pos.addEventListener("input", render);
    ui.dim.addEventListener("input", render);
    render();
  });

  // ------------------------------------------------------------ no position → shuffled → position added

  // softmax(Z W_Q Zᵀ / √d) Z: lesson 4's toy attention (W_K = W_V = identity), its output rows
  function attend(Z, W_Q) { return maths.attend(Z, W_Q, false).output; }

  CourseWidgets.register("position_steps", function (root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, d = ctx.data;
    const X = d.vectors, L = X.length, D = X[0].length;
    const PE = X.map(function (_, p) { return X[0].map(function (_, j) { return pe(p, j, D, d.base); }); });
    const plus = function (Z) { return Z.map(function (row, p) { return row.map(function (x, j) { return x + PE[p][j]; }); }); };
    const pick = function (Z, order) { return order.map(function (i) { return Z[i]; }); };
    const identity = X.map(function (_, i) { return i; });
    const buttons = t.steps.map(function (text, i) {
      return el("button", { type: "button", class: "md-button", "data-step": String(i), "aria-pressed": "false", text: text });
    });
    const ui = {
      text: el("p", {}), body: el("tbody"),
      diff: el("output", { "data-key": "max_diff" }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    const head = el("tr", {}, t.col.map(function (c) { return el("th", { scope: "col", text: c }); }));
    root.replaceChildren(el("p", { class: "widget-title", text: t.stepsTitle }),
      el("div", { class: "widget-controls", role: "group", "aria-label": t.stepsTitle }, buttons), ui.text,
      el("div", { class: "widget-map" }, [el("table", { class: "widget-table" }, [el("thead", {}, [head]), ui.body])]),
      el("p", {}, [el("span", { text: t.diff + ": " }), ui.diff]), ui.status);

    function render(step) {
      const order = step === 0 ? identity : d.perm;
      const out = step === 2 ? attend(plus(pick(X, order)), d.W_Q) : attend(pick(X, order), d.W_Q);
      const ref = pick(step === 2 ? attend(plus(X), d.W_Q) : attend(X, d.W_Q), order);
      let diff = 0;
      ui.body.replaceChildren();
      out.forEach(function (row, p) {
        row.forEach(function (x, k) { diff = Math.max(diff, Math.abs(x - ref[p][k])); });
        ui.body.appendChild(el("tr", { "data-output": JSON.stringify(row) }, [
          el("td", { text: String(p) }), el("td", { text: d.names[ctx.lang][d.words[order[p]]] }),
          el("td", { class: "widget-vector", text: "(" + row.map(function (x) { return x.toFixed(2); }).join(", ") + ")" })]));
      });
      buttons.forEach(function (b, i) { b.setAttribute("aria-pressed", String(i === step)); });
      show(ui.diff, diff, CourseWidgets.difference(diff));
      ui.text.textContent = t.stepText[step];
      root.dataset.step = String(step);
      ui.status.textContent = t.steps[step] + ": " + t.diff + " " + CourseWidgets.difference(diff);
    }

    buttons.forEach(function (b, i) { b.addEventListener("click", function () { render(i); }); });
    if (L !== d.perm.length) throw new Error("perm and sentence differ in length");
    render(0);
  });

  // ------------------------------------------------------------ RoPE

  // rotate each pair (x_2i, x_2i+1) by pos·θ_i, θ_i = base^(−2i/d_k), as tc.RotaryEmbedding
  function rotate(x, pos, base) {
    const out = x.slice();
    for (let i = 0; i < x.length / 2; i++) {
      const a = pos * Math.pow(base, -2 * i / x.length), c = Math.cos(a), s = Math.sin(a);
      out[2 * i] = x[2 * i] * c - x[2 * i + 1] * s;
      out[2 * i + 1] = x[2 * i] * s + x[2 * i + 1] * c;
    }
    return out;
  }


  CourseWidgets.register("rope", function (root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, d = ctx.data, uid = ctx.uid;
    const ui = {
      m: range(el, uid + "-m", d.max_position, d.m), n: range(el, uid + "-n", d.max_position, d.n),
      mOut: el("output", { for: uid + "-m" }), nOut: el("output", { for: uid + "-n" }),
      later: el("button", { type: "button", class: "md-button", text: t.both }),
      earlier: el("button", { type: "button", class: "md-button", text: t.bothBack }),
      offset: el("output", { "data-key": "offset" }), score: el("output", { "data-key": "score" }),
      same: el("p", {}), plot: svg("svg", { viewBox: "-1.2 -1.2 2.4 2.4", class: "widget-arrows", "aria-hidden": "true" }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    const qArrow = svg("line", { x1: 0, y1: 0, class: "widget-arrow-q" });
    const kArrow = svg("line", { x1: 0, y1: 0, class: "widget-arrow-k" });
    // drawn in the palette's colours, which the build hands over with their names (d.colours)
    qArrow.style.stroke = d.colours.q.hex;
    kArrow.style.stroke = d.colours.k.hex;
    ui.plot.append(svg("circle", { cx: 0, cy: 0, r: 1, class: "widget-circle" }), kArrow, qArrow);
    root.replaceChildren(el("p", { class: "widget-title", text: t.ropeTitle }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.m.id, text: t.m }), ui.m, ui.mOut]),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.n.id, text: t.n }), ui.n, ui.nOut]),
      el("div", { class: "widget-controls" }, [ui.earlier, ui.later]),
      el("dl", { class: "widget-readout" }, [el("dt", { text: t.offset }), el("dd", {}, [ui.offset]),
                                             el("dt", { text: t.score }), el("dd", {}, [ui.score])]),
      ui.same, el("div", { class: "widget-figure" }, [ui.plot, el("p", { class: "widget-label", text: t.arrows(d.colours.q.name, d.colours.k.name) })]),
      ui.status);

    function score(m, n) { return dot(rotate(d.q, m, d.base), rotate(d.k, n, d.base)); }

    function render() {
      const m = Number(ui.m.value), n = Number(ui.n.value), s = score(m, n), off = m - n;
      ui.mOut.textContent = String(m);
      ui.nOut.textContent = String(n);
      show(ui.offset, off, String(off));
      show(ui.score, s, s.toFixed(3));
      // the same offset elsewhere: shifting both positions changes nothing
      const others = [];
      for (let n2 = 0; n2 <= d.max_position && others.length < 3; n2 += 7) {
        const m2 = n2 + off;
        if (n2 !== n && m2 >= 0 && m2 <= d.max_position) others.push("(" + m2 + ", " + n2 + ") → " + score(m2, n2).toFixed(3));
      }
      ui.same.textContent = t.same(off) + ": " + others.join(", ");
      const q = rotate(d.q, m, d.base), k = rotate(d.k, n, d.base);
      const scale = Math.max(Math.hypot(q[0], q[1]), Math.hypot(k[0], k[1]), 1e-9);
      qArrow.setAttribute("x2", String(q[0] / scale));
      qArrow.setAttribute("y2", String(-q[1] / scale));
      kArrow.setAttribute("x2", String(k[0] / scale));
      kArrow.setAttribute("y2", String(-k[1] / scale));
      ui.status.textContent = t.ropeStatus(m, n, s.toFixed(3));
    }

    function shift(by) {  // both, or neither: the offset m − n must not change
      const m = Number(ui.m.value) + by, n = Number(ui.n.value) + by;
      if (Math.min(m, n) < 0 || Math.max(m, n) > d.max_position) return;
      ui.m.value = String(m);
      ui.n.value = String(n);
      render();
    }
    ui.later.addEventListener("click", function () { shift(1); });
    ui.earlier.addEventListener("click", function () { shift(-1); });
    ui.m.addEventListener("input", render);
    ui.n.addEventListener("input", render);
    render();
  });
})();
