// Lesson 8 widget: train a small reversal model in the reader's browser, with the course's switches.
//
// The page holds <div class="widget" data-widget="train" data-scripts="…">. Nothing heavy loads
// until the widget comes into view; then Train starts a Web Worker (../trainer_worker.js, which
// loads the forward and backward passes and Adam) so the page stays responsive. The widget shows
// the training loss, the held-out exact match and the cross-attention of one fixed input, drawn
// as the reversal widget draws it. Without JavaScript the div stays hidden and the lesson's
// static figures tell the story.
//
// Its data (the page marker [[widget:browser_training.train]]) holds what it trains with (the
// task, the model, the switches with their choices and defaults, all defined once in
// tutorial_code/experiments/browser_training.py), how the build's PyTorch run of each setting it
// ran ended, and the thresholds of the rule by which the widget says whether the reader's run
// agrees with it. When a run has ended (or stopped on NaN, with its last good weights), a button
// hands the trained model to the decode widget above: a "course:trained-model" event on document.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "숫자 뒤집기 모델을 브라우저에서 직접 학습시키기",
      train: "학습", pause: "일시 정지", resume: "계속", reset: "처음으로",
      position: "위치 인코딩 (6강)", scaling: "√dₖ로 나누기 (3강)", norm: "층 정규화를 놓는 자리 (7강)",
      warmup: "웜업 (7강)", lr: "최대 학습률 (7강)", heads: "헤드 수 (5강)",
      on: "켬", off: "끔", post: "Post-LN (원 논문)", pre: "Pre-LN (GPT-2)",
      warmupOn: "있음 (원사이클)", warmupOff: "없음 (일정한 학습률)",
      waiting: "설정을 고르고 학습을 누르세요.",
      progress: function (s, n, loss, em) { return n + "단계 중 " + s + "단계: 손실 " + loss + ", 테스트 시퀀스 완전 일치율 " + em; },
      paused: "일시 정지했습니다. 계속을 누르면 이어서 학습합니다.",
      done: function (s, em) { return s + "단계에서 멈췄습니다. 테스트 시퀀스 완전 일치율 " + em + "."; },
      nan: function (s) { return s + "단계에서 손실이 NaN이 되어 학습을 멈췄습니다. 그 전 단계의 파라미터를 남겼습니다. 학습률을 낮춰 보세요."; },
      failed: function (e) { return "학습을 실행하지 못했습니다: " + e + ". 페이지의 다른 위젯은 그대로 쓸 수 있습니다."; },
      curve: "학습 손실", exact: "테스트 시퀀스 완전 일치율",
      caption: function (h) { return "마지막 층 헤드 " + h + "의 크로스 어텐션 (고정 입력). 행은 쓴 토큰, 열은 원문 토큰, 테두리는 거울 위치입니다."; },
      corner: "씀", headName: function (h) { return "헤드 " + h; }, head: "헤드",
      use: "이 모델을 위의 디코더에서 쓰기",
      used: "위의 디코더에 이 모델을 보냈습니다.",
      // the build's PyTorch run of the same setting, and whether the reader's run agrees
      build: {
        reached: function (s, target) { return "빌드가 같은 설정으로 PyTorch에서 학습한 실행은 " + s + "단계에서 기준(" + target + ")에 이르렀습니다."; },
        diverged: function (s) { return "빌드가 같은 설정으로 PyTorch에서 학습한 실행은 " + s + "단계에서 손실이 NaN이 되어 멈췄습니다."; },
        short: function (n, target, em) { return "빌드가 같은 설정으로 PyTorch에서 학습한 실행은 " + n + "단계 안에 기준(" + target + ")에 이르지 못했고, 테스트 시퀀스 완전 일치율 " + em + "로 끝났습니다."; },
      },
      agreeReached: function (a, b, w) { return "여러분의 실행도 같은 결과입니다. 둘 다 기준에 이르렀고, 이른 단계(여러분 " + a + "단계, 빌드 " + b + "단계)의 차이가 " + w + "단계 이내입니다."; },
      differReached: function (a, b, w) { return "여러분의 실행은 이와 다릅니다. 둘 다 기준에 이르렀지만, 이른 단계(여러분 " + a + "단계, 빌드 " + b + "단계)의 차이가 " + w + "단계보다 큽니다."; },
      agreeDiverged: function (a, b) { return "여러분의 실행도 같은 결과입니다. 둘 다 발산했습니다(손실이 NaN이 된 단계: 여러분 " + a + "단계, 빌드 " + b + "단계)."; },
      agreeShort: function (a, b, p) { return "여러분의 실행도 같은 결과입니다. 둘 다 기준에 이르지 못했고 발산하지도 않았으며, 마지막 완전 일치율(여러분 " + a + ", 빌드 " + b + ")의 차이가 " + p + "퍼센트포인트 이내입니다."; },
      differShort: function (a, b, p) { return "여러분의 실행은 이와 다릅니다. 둘 다 기준에 이르지 못했지만, 마지막 완전 일치율(여러분 " + a + ", 빌드 " + b + ")의 차이가 " + p + "퍼센트포인트보다 큽니다."; },
      differ: function (mine, theirs) { return "여러분의 실행은 이와 다릅니다. 여러분의 실행은 " + mine + ", 빌드의 실행은 " + theirs + "."; },
      mine: { reached: "기준에 이르렀고", diverged: "발산했고", short: "기준에 이르지 못했고" },
      theirs: { reached: "기준에 이르렀습니다", diverged: "발산했습니다", short: "기준에 이르지 못했습니다" },
      notRun: function (names) { return "빌드는 이 설정으로는 PyTorch에서 학습하지 않았으므로 비교할 실행이 없습니다. 빌드가 학습한 설정 가운데 가장 가까운 것과는 다음 스위치가 다릅니다: " + names.join(", ") + "."; },
    },
    en: {
      title: "Train the reversal model in your browser",
      train: "Train", pause: "Pause", resume: "Resume", reset: "Reset",
      position: "Positional encoding (lesson 6)", scaling: "Divide by √dₖ (lesson 3)", norm: "Where the LayerNorm sits (lesson 7)",
      warmup: "Warm-up (lesson 7)", lr: "Peak learning rate (lesson 7)", heads: "Heads (lesson 5)",
      on: "on", off: "off", post: "Post-LN (the paper)", pre: "Pre-LN (GPT-2)",
      warmupOn: "yes (one-cycle)", warmupOff: "no (constant rate)",
      waiting: "Pick the settings and press Train.",
      progress: function (s, n, loss, em) { return "step " + s + " of " + n + ": loss " + loss + ", exact match on the test sequences " + em; },
      paused: "Paused. Press Resume to go on training.",
      done: function (s, em) { return "Stopped at step " + s + ". Exact match on the test sequences: " + em + "."; },
      nan: function (s) { return "The loss became NaN at step " + s + ", so training stopped; the parameters of the step before are kept. Try a lower learning rate."; },
      failed: function (e) { return "Training could not run: " + e + ". The page's other widgets still work."; },
      curve: "Training loss", exact: "Exact match on the test sequences",
      caption: function (h) { return "Cross-attention of the last layer, head " + h + " (a fixed input). Rows: the token written; columns: the source tokens; outlined: the mirrored position."; },
      corner: "wrote", headName: function (h) { return "head " + h; }, head: "Head",
      use: "Use this model in the decoder above",
      used: "This model was sent to the decoder above.",
      build: {
        reached: function (s, target) { return "The build's PyTorch run of the same setting reached the threshold (" + target + ") at step " + s + "."; },
        diverged: function (s) { return "The build's PyTorch run of the same setting stopped at step " + s + ", when its loss became NaN."; },
        short: function (n, target, em) { return "The build's PyTorch run of the same setting did not reach the threshold (" + target + ") in " + n + " steps; it ended at an exact match of " + em + " on the test sequences."; },
      },
      agreeReached: function (a, b, w) { return "Your run agrees with it: both reached the threshold, yours at step " + a + " and the build's at step " + b + ", no more than " + w + " steps apart."; },
      differReached: function (a, b, w) { return "Your run differs from it: both reached the threshold, but yours at step " + a + " and the build's at step " + b + ", more than " + w + " steps apart."; },
      agreeDiverged: function (a, b) { return "Your run agrees with it: both diverged, the loss becoming NaN at step " + a + " in yours and at step " + b + " in the build's."; },
      agreeShort: function (a, b, p) { return "Your run agrees with it: neither reached the threshold nor diverged, and their final exact matches (yours " + a + ", the build's " + b + ") are no more than " + p + " percentage points apart."; },
      differShort: function (a, b, p) { return "Your run differs from it: neither reached the threshold, but their final exact matches (yours " + a + ", the build's " + b + ") are more than " + p + " percentage points apart."; },
      differ: function (mine, theirs) { return "Your run differs from it: yours " + mine + ", while the build's " + theirs + "."; },
      mine: { reached: "reached the threshold", diverged: "diverged", short: "stayed below the threshold" },
      theirs: { reached: "reached it", diverged: "diverged", short: "stayed below it" },
      notRun: function (names) { return "The build did not run this setting in PyTorch, so there is no run to compare with. The closest setting it ran differs from yours in: " + names.join(", ") + "."; },
    },
  };

  // what the Train button trains and the switches' choices come from the page data
  // (tutorial_code/experiments/browser_training.py, Config): one definition for the page and
  // for the build's PyTorch runs it compares with
  const SWITCHES = ["position", "scaling", "heads", "norm", "warmup", "lr"];

  function choiceLabel(t, name, value) {
    if (name === "position" || name === "scaling") return t[value];
    if (name === "norm") return t[value];
    if (name === "warmup") return value === "on" ? t.warmupOn : t.warmupOff;
    return value;  // heads and learning rates are numbers
  }

  function settings(ui, data) {
    const heads = Number(ui.heads.value), lr = Number(ui.lr.value);
    return Object.assign({}, data.base, {
      config: Object.assign({}, data.model, { n_heads: heads, norm_first: ui.norm.value === "pre",
                position: ui.position.value === "on" ? "sinusoidal" : "none", scaled: ui.scaling.value === "on" }),
      recipe: { schedule: ui.warmup.value === "on" ? "one_cycle" : "constant", lr: lr, betas: [0.9, 0.999], eps: 1e-8 },
    });
  }

  // ---------------------------------------------------------------- the reader's run against the build's

  // how a run ended: "diverged" (its loss became NaN), "reached" (the threshold) or "short"
  function outcome(run) { return run.nan_step ? "diverged" : (run.reached_step ? "reached" : "short"); }

  // whether the reader's run agrees with the build's, by the page data's rule (agree):
  // both reached the threshold at most evals_within evaluations apart; both diverged; neither,
  // final exact matches at most exact_within apart. Anything else differs.
  function verdict(mine, build, agree, evalEvery) {
    const a = outcome(mine), b = outcome(build);
    if (a !== b) return { agree: false, kind: "mixed", mine: a, build: b };
    if (a === "diverged") return { agree: true, kind: a };
    if (a === "reached") return { agree: Math.abs(mine.reached_step - build.reached_step) <= agree.evals_within * evalEvery, kind: a };
    return { agree: Math.abs(mine.exact - build.exact) <= agree.exact_within + 1e-12, kind: a };
  }

  // the build's run of this setting, or null
  function findRun(data, setting) {
    return data.runs.find(function (r) { return SWITCHES.every(function (k) { return r.setting[k] === setting[k]; }); }) || null;
  }

  // the switches in which the closest run the build has differs from `setting` (fewest first)
  function closestDifference(data, setting) {
    let best = null;
    data.runs.forEach(function (r) {
      const diff = SWITCHES.filter(function (k) { return r.setting[k] !== setting[k]; });
      if (!best || diff.length < best.length) best = diff;
    });
    return best || SWITCHES;
  }

  // the sentences shown when the reader's run ends: what the build's run reached, and the verdict
  function comparison(t, data, setting, mine) {
    const build = findRun(data, setting);
    if (!build) {
      return { kind: "not-run", text: t.notRun(closestDifference(data, setting).map(function (k) { return t[k]; })) };
    }
    const b = data.base, target = percent(b.target), o = outcome(build);
    const first = o === "reached" ? t.build.reached(build.reached_step, target)
      : o === "diverged" ? t.build.diverged(build.nan_step) : t.build.short(build.steps_run, target, percent(build.exact));
    const v = verdict(mine, build, data.agree, b.eval_every), w = data.agree.evals_within * b.eval_every;
    const p = (100 * data.agree.exact_within).toFixed(0);
    let second;
    if (v.kind === "mixed") second = t.differ(t.mine[v.mine], t.theirs[v.build]);
    else if (v.kind === "diverged") second = t.agreeDiverged(mine.nan_step, build.nan_step);
    else if (v.kind === "reached") second = (v.agree ? t.agreeReached : t.differReached)(mine.reached_step, build.reached_step, w);
    else second = (v.agree ? t.agreeShort : t.differShort)(percent(mine.exact), percent(build.exact), p);
    return { kind: v.agree ? "agree" : "differ", text: first + " " + second };
  }

  function select(el, id, choices, value) {
    const s = el("select", { id: id });
    choices.forEach(function (c) { s.appendChild(el("option", { value: c[0], text: c[1] })); });
    s.value = value;
    return s;
  }

  function build(root, ctx, t) {
    const el = ctx.el, uid = ctx.uid, M = CourseMath, data = ctx.data;
    const ui = {
      train: el("button", { type: "button", class: "md-button md-button--primary", text: t.train }),
      pause: el("button", { type: "button", class: "md-button", text: t.pause, disabled: "" }),
      reset: el("button", { type: "button", class: "md-button", text: t.reset }),
      head: el("select", { id: uid + "-head" }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite", text: t.waiting }),
      compare: el("p", { class: "widget-compare", "data-key": "compare" }),
      use: el("button", { type: "button", class: "md-button", text: t.use }),
      exact: el("output", { "data-key": "exact" }),
      curve: M.svg("svg", { viewBox: "0 0 300 100", class: "widget-curve", role: "img", "aria-label": t.curve }),
      map: el("div", { class: "widget-map" }),
    };
    data.switches.forEach(function (sw) {
      ui[sw.name] = select(el, uid + "-" + sw.name, sw.values.map(function (v) { return [v, choiceLabel(t, sw.name, v)]; }), sw.default);
    });
    ui.line = M.svg("polyline", { fill: "none", stroke: "currentColor", "stroke-width": "1.5", points: "" });
    ui.curve.appendChild(ui.line);
    const field = function (name) { return [el("label", { for: ui[name].id, text: t[name] }), ui[name]]; };
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, [].concat(field("position"), field("scaling"), field("heads"))),
      el("div", { class: "widget-controls" }, [].concat(field("norm"), field("warmup"), field("lr"))),
      el("div", { class: "widget-controls" }, [ui.train, ui.pause, ui.reset]), ui.status,
      el("p", {}, [el("span", { text: t.exact + ": " }), ui.exact]), ui.curve,
      el("div", { class: "widget-controls" }, field("head")), ui.map, ui.compare,
      el("div", { class: "widget-controls" }, [ui.use]));
    ui.use.style.display = "none";  // offered once a run has ended
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
    if (!state.cross || !state.tokens) return;
    const head = Number(state.ui.head.value) || 0, rows = state.cross, src = sourceTokens(state.tokens, state.example);
    const L = state.example.length;
    state.ui.map.replaceChildren(CourseWidgets.matrixTable({
      caption: t.caption(head + 1), corner: t.corner,
      cols: src.map(function (id) { return state.tokens.names[id]; }),
      rows: rows.map(function (_, i) { return String(i + 1); }),
      cell: function (i, j) { return CourseWidgets.weightCell(rows[i][head][j], i < L && j === L - i); },
    }));
  }

  // the source tokens of the fixed input, as trainer.js builds them ([BOS, digits…, EOS])
  function sourceTokens(tokens, digits) {
    return [tokens.bos_id].concat(digits.map(function (d) { return d + tokens.digit0; }), [tokens.eos_id]);
  }

  function init(root, ctx) {
    const t = ctx.labels(LABELS), ui = build(root, ctx, t), data = ctx.data, base = data.base;
    const state = { ui: ui, losses: [], steps: base.steps, example: base.example, worker: null, tokens: null };
    const controls = SWITCHES.map(function (k) { return ui[k]; });

    function stop() {
      if (state.worker) state.worker.terminate();
      state.worker = null;
      ui.pause.setAttribute("disabled", "");
      ui.train.removeAttribute("disabled");
      controls.forEach(function (c) { c.removeAttribute("disabled"); });
    }

    // when the run has ended: the build's run of the same setting beside it, and the model on offer
    function finish(mine) {
      const c = comparison(t, data, state.setting, mine);
      ui.compare.textContent = c.text;
      root.dataset.compare = c.kind;
      state.result = { config: state.config, tokens: state.tokens, weights: state.weights,
                       tied: { "out.weight": "embed.tokens.weight" }, steps: mine.steps, exact: mine.exact,
                       length: base.length };
      ui.use.style.display = "";
    }

    function onMessage(event) {
      const m = event.data;
      if (m.tokens) state.tokens = m.tokens;
      if (m.type === "progress") {
        if (m.loss !== null) state.losses.push(m.loss);
        if (m.exact !== undefined) { state.exact = m.exact; ui.exact.textContent = percent(m.exact); ui.exact.dataset.value = String(m.exact); }
        if (m.cross) { state.cross = m.cross; drawMap(state, t, ctx); }
        state.step = m.step;
        root.dataset.step = String(m.step);
        if (m.step % base.eval_every === 0 || m.exact !== undefined) {
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
        const exact = state.exact || 0;
        finish({ reached_step: exact >= base.target ? m.step : null, nan_step: null, exact: exact, steps: m.step });
      } else if (m.type === "nan") {
        state.weights = m.weights;  // the last step's weights, before the one that failed
        root.dataset.weights = Object.keys(m.weights).every(function (k) { return m.weights[k].data.every(isFinite); })
          ? "finite" : "broken";
        root.dataset.state = "nan";
        ui.status.textContent = t.nan(m.step);
        stop();
        finish({ reached_step: null, nan_step: m.step, exact: state.exact || 0, steps: m.step - 1 });
      }
    }

    function fail(message) {
      root.dataset.state = "failed";
      ui.status.textContent = t.failed(message);
      stop();
    }

    function clear() {
      state.losses = []; state.cross = null; state.exact = undefined; state.result = null;
      ui.compare.textContent = ""; delete root.dataset.compare;
      ui.use.style.display = "none";
    }

    ui.train.addEventListener("click", function () {
      stop();
      clear();
      const s = settings(ui, data);
      state.config = s.config;
      state.setting = {};
      SWITCHES.forEach(function (k) { state.setting[k] = ui[k].value; });
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
      clear();
      ui.exact.textContent = ""; ui.line.setAttribute("points", ""); ui.map.replaceChildren();
      ui.status.textContent = t.waiting;
      root.dataset.state = "ready";
    });
    // the trained model to the decode widget above (reversal.js listens for this event)
    ui.use.addEventListener("click", function () {
      if (!state.result) return;
      document.dispatchEvent(new CustomEvent("course:trained-model", { detail: state.result }));
      ui.status.textContent = t.used;
    });
    ui.head.addEventListener("change", function () { drawMap(state, t, ctx); });
    // nothing moves on its own: the curve and the map change only when a new evaluation arrives
    root.dataset.state = "ready";
  }

  // the comparison rule and its sentences, for the tests (no page state)
  CourseWidgets.trainComparison = { LABELS: LABELS, verdict: verdict, comparison: comparison };

  // where this file was loaded from: the worker sits one folder up
  const SCRIPT_BASE = document.currentScript ? document.currentScript.src : document.baseURI;

  CourseWidgets.register("train", init);
})();
