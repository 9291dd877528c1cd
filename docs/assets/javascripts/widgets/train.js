// Lesson 8 widget: train a small reversal model in the reader's browser, with the course's switches.
//
// The page holds <div class="widget" data-widget="train" data-scripts="…">. Nothing heavy loads
// until the widget comes into view; then Train starts a Web Worker (../trainer_worker.js, which
// loads the forward and backward passes and Adam) so the page stays responsive. The widget shows
// the training loss, the held-out exact match and the cross-attention of one fixed input, drawn
// as the reversal widget draws it. Without JavaScript the div stays hidden and the lesson's
// static figures tell the story.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "숫자 뒤집기 모델을 브라우저에서 직접 학습시키기",
      train: "학습", pause: "일시 정지", resume: "계속", reset: "처음으로",
      position: "위치 인코딩 (6강)", scaling: "√dₖ로 나누기 (3강)", norm: "LayerNorm 위치 (7강)",
      warmup: "웜업 (7강)", lr: "최대 학습률 (7강)", heads: "헤드 수 (5강)",
      on: "켬", off: "끔", post: "post-LN (원 논문)", pre: "pre-LN (GPT-2)",
      oneCycle: "있음 (one-cycle)", constant: "없음 (일정한 학습률)",
      waiting: "설정을 고르고 학습을 누르세요.",
      progress: function (s, n, loss, em) { return n + "단계 중 " + s + "단계: 손실 " + loss + ", 시험 세트 완전 일치율 " + em; },
      paused: "일시 정지했습니다. 계속을 누르면 이어서 학습합니다.",
      done: function (s, em) { return s + "단계에서 멈췄습니다. 시험 세트 완전 일치율 " + em + "."; },
      nan: function (s) { return s + "단계에서 손실이 NaN이 되어 학습을 멈췄습니다. 그 전 단계의 가중치를 남겼습니다. 학습률을 낮춰 보세요."; },
      failed: function (e) { return "학습을 실행하지 못했습니다: " + e + ". 페이지의 다른 위젯은 그대로 쓸 수 있습니다."; },
      curve: "학습 손실", exact: "시험 세트 완전 일치율",
      caption: function (h) { return "마지막 층 헤드 " + h + "의 크로스 어텐션 (고정 입력). 행은 쓴 토큰, 열은 원문 토큰, 테두리는 거울 위치입니다."; },
      corner: "씀", headName: function (h) { return "헤드 " + h; }, head: "헤드",
    },
    en: {
      title: "Train the reversal model in your browser",
      train: "Train", pause: "Pause", resume: "Resume", reset: "Reset",
      position: "Positional encoding (lesson 6)", scaling: "Divide by √dₖ (lesson 3)", norm: "LayerNorm placement (lesson 7)",
      warmup: "Warm-up (lesson 7)", lr: "Peak learning rate (lesson 7)", heads: "Heads (lesson 5)",
      on: "on", off: "off", post: "post-LN (the paper)", pre: "pre-LN (GPT-2)",
      oneCycle: "yes (one-cycle)", constant: "no (constant rate)",
      waiting: "Pick the settings and press Train.",
      progress: function (s, n, loss, em) { return "step " + s + " of " + n + ": loss " + loss + ", held-out exact match " + em; },
      paused: "Paused. Press Resume to go on training.",
      done: function (s, em) { return "Stopped at step " + s + ". Held-out exact match " + em + "."; },
      nan: function (s) { return "The loss became NaN at step " + s + ", so training stopped; the weights of the step before are kept. Try a lower learning rate."; },
      failed: function (e) { return "Training could not run: " + e + ". The page's other widgets still work."; },
      curve: "Training loss", exact: "Held-out exact match",
      caption: function (h) { return "Cross-attention of the last layer, head " + h + " (a fixed input). Rows: the token written; columns: the source tokens; outlined: the mirrored position."; },
      corner: "wrote", headName: function (h) { return "head " + h; }, head: "Head",
    },
  };

  // what the Train button trains: a small configuration, seeded; the switches change it
  const BASE = { length: 6, n_held_out: 200, batch_size: 32, steps: 600, eval_every: 50, target: 0.99,
                 seed: 0, example: [3, 7, 1, 4, 9, 2] };
  const LRS = ["0.001", "0.005", "0.02", "1", "10000"];  // the last one diverges

  function settings(ui) {
    const heads = Number(ui.heads.value), lr = Number(ui.lr.value);
    return Object.assign({}, BASE, {
      config: { vocab_size: 13, d_model: 32, n_heads: heads, d_ff: 64, n_layers: 2,
                norm_first: ui.norm.value === "pre", position: ui.position.value === "on" ? "sinusoidal" : "none",
                scaled: ui.scaling.value === "on" },
      recipe: { schedule: ui.warmup.value === "on" ? "one_cycle" : "constant", lr: lr, betas: [0.9, 0.999], eps: 1e-8 },
    });
  }

  function select(el, id, choices, value) {
    const s = el("select", { id: id });
    choices.forEach(function (c) { s.appendChild(el("option", { value: c[0], text: c[1] })); });
    s.value = value;
    return s;
  }

  function build(root, ctx, t) {
    const el = ctx.el, uid = ctx.uid, M = CourseMath;
    const ui = {
      train: el("button", { type: "button", class: "md-button md-button--primary", text: t.train }),
      pause: el("button", { type: "button", class: "md-button", text: t.pause, disabled: "" }),
      reset: el("button", { type: "button", class: "md-button", text: t.reset }),
      position: select(el, uid + "-pos", [["on", t.on], ["off", t.off]], "on"),
      scaling: select(el, uid + "-scale", [["on", t.on], ["off", t.off]], "on"),
      norm: select(el, uid + "-norm", [["post", t.post], ["pre", t.pre]], "post"),
      warmup: select(el, uid + "-warmup", [["on", t.oneCycle], ["off", t.constant]], "on"),
      lr: select(el, uid + "-lr", LRS.map(function (v) { return [v, v]; }), "0.005"),
      heads: select(el, uid + "-heads", [["1", "1"], ["2", "2"], ["4", "4"]], "4"),
      head: el("select", { id: uid + "-head" }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite", text: t.waiting }),
      exact: el("output", { "data-key": "exact" }),
      curve: M.svg("svg", { viewBox: "0 0 300 100", class: "widget-curve", role: "img", "aria-label": t.curve }),
      map: el("div", { class: "widget-map" }),
    };
    ui.line = M.svg("polyline", { fill: "none", stroke: "currentColor", "stroke-width": "1.5", points: "" });
    ui.curve.appendChild(ui.line);
    const field = function (name) { return [el("label", { for: ui[name].id, text: t[name] }), ui[name]]; };
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, [].concat(field("position"), field("scaling"), field("heads"))),
      el("div", { class: "widget-controls" }, [].concat(field("norm"), field("warmup"), field("lr"))),
      el("div", { class: "widget-controls" }, [ui.train, ui.pause, ui.reset]), ui.status,
      el("p", {}, [el("span", { text: t.exact + ": " }), ui.exact]), ui.curve,
      el("div", { class: "widget-controls" }, field("head")), ui.map);
    return ui;
  }

  function percent(x) { return (100 * x).toFixed(1) + "%"; }

  function drawCurve(state) {
    const L = state.losses, top = Math.max.apply(null, L.concat([1e-9]));
    state.ui.line.setAttribute("points", L.map(function (y, i) {
      return (300 * i / Math.max(1, state.steps - 1)).toFixed(1) + "," + (100 - 95 * y / top).toFixed(1);
    }).join(" "));
  }

  function drawMap(state, t, ctx) {
    if (!state.cross) return;
    const head = Number(state.ui.head.value) || 0, rows = state.cross, src = sourceTokens(state.example);
    const L = state.example.length;
    state.ui.map.replaceChildren(CourseWidgets.matrixTable({
      caption: t.caption(head + 1), corner: t.corner,
      cols: src.map(function (id) { return state.names[id]; }),
      rows: rows.map(function (_, i) { return String(i + 1); }),
      cell: function (i, j) { return CourseWidgets.weightCell(rows[i][head][j], i < L && j === L - i); },
    }));
  }

  // the source tokens of the fixed input, as trainer.js builds them ([BOS, digits…, EOS])
  function sourceTokens(digits) { return [1].concat(digits.map(function (d) { return d + 3; }), [2]); }

  function init(root, ctx) {
    const t = ctx.labels(LABELS), ui = build(root, ctx, t);
    const state = { ui: ui, losses: [], steps: BASE.steps, example: BASE.example, worker: null,
                    names: ["PAD", "BOS", "EOS", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"] };
    const controls = [ui.position, ui.scaling, ui.norm, ui.warmup, ui.lr, ui.heads];

    function stop() {
      if (state.worker) state.worker.terminate();
      state.worker = null;
      ui.pause.setAttribute("disabled", "");
      ui.train.removeAttribute("disabled");
      controls.forEach(function (c) { c.removeAttribute("disabled"); });
    }

    function onMessage(event) {
      const m = event.data;
      if (m.type === "progress") {
        if (m.loss !== null) state.losses.push(m.loss);
        if (m.exact !== undefined) { state.exact = m.exact; ui.exact.textContent = percent(m.exact); ui.exact.dataset.value = String(m.exact); }
        if (m.cross) { state.cross = m.cross; drawMap(state, t, ctx); }
        state.step = m.step;
        root.dataset.step = String(m.step);
        if (m.step % BASE.eval_every === 0 || m.exact !== undefined) {
          drawCurve(state);
          ui.status.textContent = t.progress(m.step, m.steps, m.loss === null ? "—" : m.loss.toFixed(3),
                                             state.exact === undefined ? "—" : percent(state.exact));
        }
      } else if (m.type === "done") {
        drawCurve(state);
        state.weights = m.weights;
        root.dataset.state = "done";
        ui.status.textContent = t.done(m.step, percent(state.exact || 0));
        stop();
      } else if (m.type === "nan") {
        state.weights = m.weights;  // the last step's weights, before the one that failed
        root.dataset.weights = Object.keys(m.weights).every(function (k) { return m.weights[k].data.every(isFinite); })
          ? "finite" : "broken";
        root.dataset.state = "nan";
        ui.status.textContent = t.nan(m.step);
        stop();
      }
    }

    function fail(message) {
      root.dataset.state = "failed";
      ui.status.textContent = t.failed(message);
      stop();
    }

    ui.train.addEventListener("click", function () {
      stop();
      state.losses = []; state.cross = null; state.exact = undefined;
      const s = settings(ui);
      CourseWidgets.options(ui.head, s.config.n_heads, t.headName);
      try {
        state.worker = new Worker(root.dataset.worker || new URL("../trainer_worker.js", SCRIPT_BASE).href);
      } catch (error) { return fail(String(error.message || error)); }
      state.worker.onmessage = onMessage;
      state.worker.onerror = function (e) { e.preventDefault(); fail(e.message || "worker error"); };
      state.worker.postMessage({ type: "start", settings: s });
      root.dataset.state = "training";
      ui.train.setAttribute("disabled", "");
      ui.pause.removeAttribute("disabled");
      ui.pause.textContent = t.pause;
      controls.forEach(function (c) { c.setAttribute("disabled", ""); });
    });
    ui.pause.addEventListener("click", function () {
      if (!state.worker) return;
      const paused = root.dataset.state === "paused";
      state.worker.postMessage({ type: paused ? "resume" : "pause" });
      root.dataset.state = paused ? "training" : "paused";
      ui.pause.textContent = paused ? t.pause : t.resume;
      if (!paused) ui.status.textContent = t.paused;
    });
    ui.reset.addEventListener("click", function () {
      stop();
      state.losses = []; state.cross = null; state.exact = undefined;
      ui.exact.textContent = ""; ui.line.setAttribute("points", ""); ui.map.replaceChildren();
      ui.status.textContent = t.waiting;
      root.dataset.state = "ready";
    });
    ui.head.addEventListener("change", function () { drawMap(state, t, ctx); });
    // nothing moves on its own: the curve and the map change only when a new evaluation arrives
    root.dataset.state = "ready";
  }

  // where this file was loaded from: the worker sits one folder up
  const SCRIPT_BASE = document.currentScript ? document.currentScript.src : document.baseURI;

  CourseWidgets.register("train", init);
})();
