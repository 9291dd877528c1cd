// @ts-check
// Lesson 8 widget: train a small reversal model in the reader's browser, with the course's switches.
//
// The page holds <div class="widget" data-widget="train" data-scripts="…">. Nothing heavy loads
// until the widget comes into view; then Train starts a Web Worker (../trainer_worker.js, which
// loads the forward and backward passes, Adam and the schedules, and the task) so the page stays
// responsive. The widget shows the training loss, the validation exact match (the sequences
// whose exact match decides when a run stops: a validation set, not a test set) and the
// cross-attention of one fixed input, drawn as the reversal widget draws it. Without JavaScript
// the div stays hidden and the lesson's static figures tell the story.
//
// Its data (the page marker [[widget:browser_training.train]]) holds what it trains with (the
// task, the model, the switches with their choices and defaults and what each model switch sets
// in the model's config, the optimiser and its schedules, all defined once in
// tutorial_code/experiments/browser_training.py and common/trainer_optim.py: no number of the
// optimiser is typed here), how the build's PyTorch run of each setting it ran ended, and the
// thresholds of the rule by which the widget says whether the reader's run agrees with it. When
// a run has ended (or stopped because its loss or a gradient was no longer a finite number, with
// its last good weights), a button hands the trained model to the decode widget above: a
// "course:trained-model" event on document.
(function () {
  "use strict";
  /** @type {any} */
  const G = globalThis;
  const CourseWidgets = G.CourseWidgets;

  const LABELS = {
    ko: {
      title: "숫자 뒤집기 모델을 브라우저에서 직접 학습시키기",
      train: "학습", pause: "일시 정지", resume: "계속", reset: "처음으로",
      position: "위치 인코딩 (6강)", scaling: "√dₖ로 나누기 (3강)", norm: "층 정규화를 놓는 자리 (7강)",
      schedule: "학습률 스케줄 (7강·8강)", lr: "최대 학습률 (7강)", heads: "헤드 수 (5강)",
      on: "켬", off: "끔", post: "Post-LN (원 논문)", pre: "Pre-LN (GPT-2)",
      schedules: { one_cycle: "원사이클 (8강)", warmup: "7강의 웜업 후 고정", constant: "처음부터 고정" },
      waiting: "설정을 고르고 학습을 누르세요.",
      progress: function (/** @type {number} */ s, /** @type {number} */ n, /** @type {string} */ loss, /** @type {string} */ em) {
        return n + "스텝 중 " + s + "스텝: 손실 " + loss + ", 검증 시퀀스 완전 일치율 " + em;
      },
      paused: "일시 정지했습니다. 계속을 누르면 이어서 학습합니다.",
      done: function (/** @type {number} */ s, /** @type {string} */ em) { return s + "스텝에서 멈췄습니다. 검증 시퀀스 완전 일치율 " + em + "."; },
      // what was no longer a finite number (NaN or ±∞): the loss, or a gradient
      what: { loss: "손실이", gradient: "기울기가" },  // with the particle each takes
      diverged: function (/** @type {number} */ s, /** @type {string} */ what) {
        return s + "스텝에서 " + what + " 유한한 수가 아니게 되어(NaN 또는 무한대) 학습을 멈췄습니다. 그 스텝은 적용하지 않고 그 전 스텝의 파라미터를 남겼습니다. 학습률을 낮춰 보세요.";
      },
      failed: function (/** @type {string} */ e) { return "학습을 실행하지 못했습니다: " + e + ". 페이지의 다른 위젯은 그대로 쓸 수 있습니다."; },
      curve: "학습 손실", exact: "검증 시퀀스 완전 일치율",
      caption: function (/** @type {number} */ h) { return "마지막 층 헤드 " + h + "의 크로스 어텐션 (고정 입력). 행은 쓴 토큰, 열은 원문 토큰, 테두리는 거울 위치입니다."; },
      corner: "씀", headName: function (/** @type {number} */ h) { return "헤드 " + h; }, head: "헤드",
      use: "이 모델을 위의 디코더에서 쓰기",
      used: "위의 디코더에 이 모델을 보냈습니다.",
      // the PyTorch run of the same setting, and whether the reader's run agrees
      build: {
        reached: function (/** @type {number} */ s, /** @type {string} */ target) { return "같은 설정의 PyTorch 실행은 " + s + "스텝에서 기준(" + target + ")에 이르렀습니다."; },
        diverged: function (/** @type {number} */ s, /** @type {string} */ what) { return "같은 설정의 PyTorch 실행은 " + s + "스텝에서 " + what + " 유한한 수가 아니게 되어 멈췄습니다."; },
        short: function (/** @type {number} */ n, /** @type {string} */ target, /** @type {string} */ em) { return "같은 설정의 PyTorch 실행은 " + n + "스텝 안에 기준(" + target + ")에 이르지 못했고, 검증 시퀀스 완전 일치율 " + em + "로 끝났습니다."; },
      },
      agreeReached: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "여러분의 실행도 같은 결과입니다. 둘 다 기준에 이르렀고, 이른 스텝(여러분 " + a + "스텝, PyTorch " + b + "스텝)의 차이가 " + w + "스텝 이내입니다."; },
      differReached: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "여러분의 실행은 이와 다릅니다. 둘 다 기준에 이르렀지만, 이른 스텝(여러분 " + a + "스텝, PyTorch " + b + "스텝)의 차이가 " + w + "스텝보다 큽니다."; },
      agreeDiverged: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "여러분의 실행도 같은 결과입니다. 둘 다 발산했고, 멈춘 스텝(여러분 " + a + "스텝, PyTorch " + b + "스텝)의 차이가 " + w + "스텝 이내입니다."; },
      differDiverged: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "여러분의 실행은 이와 다릅니다. 둘 다 발산했지만, 멈춘 스텝(여러분 " + a + "스텝, PyTorch " + b + "스텝)의 차이가 " + w + "스텝보다 큽니다."; },
      agreeShort: function (/** @type {string} */ a, /** @type {string} */ b, /** @type {string} */ p) { return "여러분의 실행도 같은 결과입니다. 둘 다 기준에 이르지 못했고 발산하지도 않았으며, 마지막 완전 일치율(여러분 " + a + ", PyTorch " + b + ")의 차이가 " + p + "퍼센트포인트 이내입니다."; },
      differShort: function (/** @type {string} */ a, /** @type {string} */ b, /** @type {string} */ p) { return "여러분의 실행은 이와 다릅니다. 둘 다 기준에 이르지 못했지만, 마지막 완전 일치율(여러분 " + a + ", PyTorch " + b + ")의 차이가 " + p + "퍼센트포인트보다 큽니다."; },
      differ: function (/** @type {string} */ mine, /** @type {string} */ theirs) { return "여러분의 실행은 이와 다릅니다. 여러분의 실행은 " + mine + ", PyTorch 실행은 " + theirs + "."; },
      mine: { reached: "기준에 이르렀고", diverged: "발산했고", short: "기준에 이르지 못했고" },
      theirs: { reached: "기준에 이르렀습니다", diverged: "발산했습니다", short: "기준에 이르지 못했습니다" },
      notRun: function (/** @type {string[]} */ names) { return "이 설정은 PyTorch로 학습하지 않았으므로 비교할 실행이 없습니다. PyTorch로 학습한 설정 가운데 가장 가까운 것과는 다음 스위치가 다릅니다: " + names.join(", ") + "."; },
    },
    en: {
      title: "Train the reversal model in your browser",
      train: "Train", pause: "Pause", resume: "Resume", reset: "Reset",
      position: "Positional encoding (lesson 6)", scaling: "Divide by √dₖ (lesson 3)", norm: "Where the LayerNorm sits (lesson 7)",
      schedule: "Learning-rate schedule (lessons 7, 8)", lr: "Peak learning rate (lesson 7)", heads: "Heads (lesson 5)",
      on: "on", off: "off", post: "Post-LN (the paper)", pre: "Pre-LN (GPT-2)",
      schedules: { one_cycle: "one-cycle (lesson 8)", warmup: "lesson 7's warm-up, then constant", constant: "constant from the start" },
      waiting: "Pick the settings and press Train.",
      progress: function (/** @type {number} */ s, /** @type {number} */ n, /** @type {string} */ loss, /** @type {string} */ em) {
        return "step " + s + " of " + n + ": loss " + loss + ", exact match on the validation sequences " + em;
      },
      paused: "Paused. Press Resume to go on training.",
      done: function (/** @type {number} */ s, /** @type {string} */ em) { return "Stopped at step " + s + ". Exact match on the validation sequences: " + em + "."; },
      what: { loss: "the loss", gradient: "a gradient" },
      diverged: function (/** @type {number} */ s, /** @type {string} */ what) {
        return "At step " + s + " " + what + " was no longer a finite number (NaN or infinite), so training stopped; that step was not applied and the parameters of the step before are kept. Try a lower learning rate.";
      },
      failed: function (/** @type {string} */ e) { return "Training could not run: " + e + ". The page's other widgets still work."; },
      curve: "Training loss", exact: "Exact match on the validation sequences",
      caption: function (/** @type {number} */ h) { return "Cross-attention of the last layer, head " + h + " (a fixed input). Rows: the token written; columns: the source tokens; outlined: the mirrored position."; },
      corner: "wrote", headName: function (/** @type {number} */ h) { return "head " + h; }, head: "Head",
      use: "Use this model in the decoder above",
      used: "This model was sent to the decoder above.",
      build: {
        reached: function (/** @type {number} */ s, /** @type {string} */ target) { return "The PyTorch run of the same setting reached the threshold (" + target + ") at step " + s + "."; },
        diverged: function (/** @type {number} */ s, /** @type {string} */ what) { return "The PyTorch run of the same setting stopped at step " + s + ", when " + what + " was no longer a finite number."; },
        short: function (/** @type {number} */ n, /** @type {string} */ target, /** @type {string} */ em) { return "The PyTorch run of the same setting did not reach the threshold (" + target + ") in " + n + " steps; it ended at an exact match of " + em + " on the validation sequences."; },
      },
      agreeReached: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "Your run agrees with it: both reached the threshold, yours at step " + a + " and the PyTorch run's at step " + b + ", no more than " + w + " steps apart."; },
      differReached: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "Your run differs from it: both reached the threshold, but yours at step " + a + " and the PyTorch run's at step " + b + ", more than " + w + " steps apart."; },
      agreeDiverged: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "Your run agrees with it: both diverged, yours stopping at step " + a + " and the PyTorch run's at step " + b + ", no more than " + w + " steps apart."; },
      differDiverged: function (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ w) { return "Your run differs from it: both diverged, but yours stopped at step " + a + " and the PyTorch run's at step " + b + ", more than " + w + " steps apart."; },
      agreeShort: function (/** @type {string} */ a, /** @type {string} */ b, /** @type {string} */ p) { return "Your run agrees with it: neither reached the threshold nor diverged, and their final exact matches (yours " + a + ", the PyTorch run's " + b + ") are no more than " + p + " percentage points apart."; },
      differShort: function (/** @type {string} */ a, /** @type {string} */ b, /** @type {string} */ p) { return "Your run differs from it: neither reached the threshold, but their final exact matches (yours " + a + ", the PyTorch run's " + b + ") are more than " + p + " percentage points apart."; },
      differ: function (/** @type {string} */ mine, /** @type {string} */ theirs) { return "Your run differs from it: yours " + mine + ", while the PyTorch run " + theirs + "."; },
      mine: { reached: "reached the threshold", diverged: "diverged", short: "stayed below the threshold" },
      theirs: { reached: "reached it", diverged: "diverged", short: "stayed below it" },
      notRun: function (/** @type {string[]} */ names) { return "This setting was not trained in PyTorch, so there is no run to compare with. The closest setting that was trained differs from yours in: " + names.join(", ") + "."; },
    },
  };

  // what the Train button trains and the switches' choices come from the page data
  // (tutorial_code/experiments/browser_training.py, Config): one definition for the page and
  // for the build's PyTorch runs it compares with
  const SWITCHES = ["position", "scaling", "heads", "norm", "schedule", "lr"];

  /** @typedef {{reached_step: number | null, diverged_step: number | null, nonfinite?: string | null, exact: number, steps?: number}} Ending */
  /** @typedef {{name?: string, setting: Object<string, string>, exact: number, reached_step: number | null,
   *    diverged_step: number | null, nonfinite: string | null, steps_run: number}} BuildRun */
  /** @typedef {{base: any, model: any, switch_config: Object<string, Object<string, any>>, optimiser: any,
   *    switches: {name: string, values: string[], default: string}[], runs: BuildRun[],
   *    agree: {evals_within: number, exact_within: number, diverged_steps_within: number}}} TrainData */

  /** @param {any} t @param {string} name @param {string} value @returns {string} */
  function choiceLabel(t, name, value) {
    if (name === "position" || name === "scaling" || name === "norm") return t[value];
    if (name === "schedule") return t.schedules[value];
    return value;  // heads and learning rates are numbers
  }

  // what the worker trains: the task, the model's config (the sizes, the heads, and what
  // switch_config says each model switch's choice sets), the optimiser, the schedule and the rate
  /** @param {Object<string, string>} setting @param {TrainData} data */
  function settings(setting, data) {
    const config = Object.assign({}, data.model, { n_heads: Number(setting.heads) });
    Object.keys(data.switch_config).forEach(function (k) { Object.assign(config, data.switch_config[k][setting[k]]); });
    return { base: data.base, config: config, optimiser: data.optimiser, schedule: setting.schedule, lr: Number(setting.lr) };
  }

  // ---------------------------------------------------------------- the reader's run against the build's

  // how a run ended: "diverged" (its loss or a gradient was no longer a finite number),
  // "reached" (the threshold) or "short"
  /** @param {Ending} run */
  function outcome(run) { return run.diverged_step ? "diverged" : (run.reached_step ? "reached" : "short"); }

  // whether the reader's run agrees with the build's, by the page data's rule (agree):
  // both reached the threshold at most evals_within evaluations apart; both diverged at most
  // diverged_steps_within steps apart; neither, final exact matches at most exact_within apart.
  // Anything else differs.
  /** @param {Ending} mine @param {Ending} build @param {TrainData["agree"]} agree @param {number} evalEvery */
  function verdict(mine, build, agree, evalEvery) {
    const a = outcome(mine), b = outcome(build);
    if (a !== b) return { agree: false, kind: "mixed", mine: a, build: b };
    if (a === "diverged") {
      return { agree: Math.abs(Number(mine.diverged_step) - Number(build.diverged_step)) <= agree.diverged_steps_within, kind: a };
    }
    if (a === "reached") {
      return { agree: Math.abs(Number(mine.reached_step) - Number(build.reached_step)) <= agree.evals_within * evalEvery, kind: a };
    }
    return { agree: Math.abs(mine.exact - build.exact) <= agree.exact_within + 1e-12, kind: a };
  }

  // the build's run of this setting, or null
  /** @param {TrainData} data @param {Object<string, string>} setting */
  function findRun(data, setting) {
    return data.runs.find(function (r) { return SWITCHES.every(function (k) { return r.setting[k] === setting[k]; }); }) || null;
  }

  // the switches in which the closest run the build has differs from `setting` (fewest first)
  /** @param {TrainData} data @param {Object<string, string>} setting */
  function closestDifference(data, setting) {
    /** @type {string[] | null} */
    let best = null;
    data.runs.forEach(function (r) {
      const diff = SWITCHES.filter(function (k) { return r.setting[k] !== setting[k]; });
      if (!best || diff.length < best.length) best = diff;
    });
    return best || SWITCHES;
  }

  // the sentences shown when the reader's run ends: what the build's run reached, and the verdict
  /** @param {any} t @param {TrainData} data @param {Object<string, string>} setting @param {Ending} mine */
  function comparison(t, data, setting, mine) {
    const build = findRun(data, setting);
    if (!build) {
      return { kind: "not-run", text: t.notRun(closestDifference(data, setting).map(function (k) { return t[k]; })) };
    }
    const b = data.base, target = percent(b.target), o = outcome(build);
    const first = o === "reached" ? t.build.reached(build.reached_step, target)
      : o === "diverged" ? t.build.diverged(build.diverged_step, t.what[String(build.nonfinite)])
      : t.build.short(build.steps_run, target, percent(build.exact));
    const v = verdict(mine, build, data.agree, b.eval_every), w = data.agree.evals_within * b.eval_every;
    const p = (100 * data.agree.exact_within).toFixed(0);
    let second;
    if (v.kind === "mixed") second = t.differ(t.mine[String(v.mine)], t.theirs[String(v.build)]);
    else if (v.kind === "diverged") {
      second = (v.agree ? t.agreeDiverged : t.differDiverged)(mine.diverged_step, build.diverged_step, data.agree.diverged_steps_within);
    } else if (v.kind === "reached") second = (v.agree ? t.agreeReached : t.differReached)(mine.reached_step, build.reached_step, w);
    else second = (v.agree ? t.agreeShort : t.differShort)(percent(mine.exact), percent(build.exact), p);
    return { kind: v.agree ? "agree" : "differ", text: first + " " + second };
  }

  /** @param {any} el @param {string} id @param {string[][]} choices @param {string} value */
  function select(el, id, choices, value) {
    const s = el("select", { id: id });
    choices.forEach(function (c) { s.appendChild(el("option", { value: c[0], text: c[1] })); });
    s.value = value;
    return s;
  }

  /** @param {HTMLElement} root @param {any} ctx @param {any} t */
  function build(root, ctx, t) {
    const el = ctx.el, uid = ctx.uid, M = G.CourseMath, data = ctx.data;
    /** @type {any} */
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
    data.switches.forEach(function (/** @type {TrainData["switches"][0]} */ sw) {
      ui[sw.name] = select(el, uid + "-" + sw.name, sw.values.map(function (v) { return [v, choiceLabel(t, sw.name, v)]; }), sw.default);
    });
    ui.line = M.svg("polyline", { fill: "none", stroke: "currentColor", "stroke-width": "1.5", points: "" });
    ui.curve.appendChild(ui.line);
    /** @param {string} name @returns {HTMLElement[]} */
    const field = function (name) { return [el("label", { for: ui[name].id, text: t[name] }), ui[name]]; };
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, field("position").concat(field("scaling"), field("heads"))),
      el("div", { class: "widget-controls" }, field("norm").concat(field("schedule"), field("lr"))),
      el("div", { class: "widget-controls" }, [ui.train, ui.pause, ui.reset]), ui.status,
      el("p", {}, [el("span", { text: t.exact + ": " }), ui.exact]), ui.curve,
      el("div", { class: "widget-controls" }, field("head")), ui.map, ui.compare,
      el("div", { class: "widget-controls" }, [ui.use]));
    ui.use.style.display = "none";  // offered once a run has ended
    return ui;
  }

  /** @param {number} x */
  function percent(x) { return (100 * x).toFixed(1) + "%"; }

  /** @param {any} state */
  function drawCurve(state) {
    const L = state.losses, top = Math.max.apply(null, L.concat([1e-9]));
    state.ui.line.setAttribute("points", L.map(function (/** @type {number} */ y, /** @type {number} */ i) {
      return (300 * i / Math.max(1, state.steps - 1)).toFixed(1) + "," + (100 - 95 * y / top).toFixed(1);
    }).join(" "));
  }

  /** @param {any} state @param {any} t */
  function drawMap(state, t) {
    if (!state.cross || !state.tokens) return;
    const head = Number(state.ui.head.value) || 0, rows = state.cross, src = sourceTokens(state.tokens, state.example);
    const L = state.example.length;
    state.ui.map.replaceChildren(CourseWidgets.matrixTable({
      caption: t.caption(head + 1), corner: t.corner,
      cols: src.map(function (id) { return state.tokens.names[id]; }),
      rows: rows.map(function (/** @type {any} */ _, /** @type {number} */ i) { return String(i + 1); }),
      cell: function (/** @type {number} */ i, /** @type {number} */ j) { return CourseWidgets.weightCell(rows[i][head][j], i < L && j === L - i); },
    }));
  }

  // the source tokens of the fixed input, as trainer_task.js builds them ([BOS, digits…, EOS])
  /** @param {any} tokens @param {number[]} digits @returns {number[]} */
  function sourceTokens(tokens, digits) {
    return [tokens.bos_id].concat(digits.map(function (d) { return d + tokens.digit0; }), [tokens.eos_id]);
  }

  /** @param {HTMLElement} root @param {any} ctx */
  function init(root, ctx) {
    const t = ctx.labels(LABELS), ui = build(root, ctx, t), /** @type {TrainData} */ data = ctx.data, base = data.base;
    /** @type {any} */
    const state = { ui: ui, losses: [], steps: base.steps, example: base.example, worker: null, tokens: null };
    const controls = SWITCHES.map(function (k) { return ui[k]; });

    function stop() {
      if (state.worker) state.worker.terminate();
      state.worker = null;
      ui.pause.setAttribute("disabled", "");
      ui.train.removeAttribute("disabled");
      controls.forEach(function (/** @type {HTMLElement} */ c) { c.removeAttribute("disabled"); });
    }

    // when the run has ended: the build's run of the same setting beside it, and the model on offer
    /** @param {Ending} mine */
    function finish(mine) {
      const c = comparison(t, data, state.setting, mine);
      ui.compare.textContent = c.text;
      root.dataset.compare = c.kind;
      state.result = { config: state.config, tokens: state.tokens, weights: state.weights,
                       tied: { "out.weight": "embed.tokens.weight" }, steps: mine.steps, exact: mine.exact,
                       length: base.length };
      ui.use.style.display = "";
    }

    /** @param {MessageEvent} event */
    function onMessage(event) {
      const m = event.data;
      if (m.tokens) state.tokens = m.tokens;
      if (m.type === "progress") {
        if (m.loss !== null) state.losses.push(m.loss);
        if (m.exact !== undefined) { state.exact = m.exact; ui.exact.textContent = percent(m.exact); ui.exact.dataset.value = String(m.exact); }
        if (m.cross) { state.cross = m.cross; drawMap(state, t); }
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
        finish({ reached_step: exact >= base.target ? m.step : null, diverged_step: null, exact: exact, steps: m.step });
      } else if (m.type === "diverged") {
        state.weights = m.weights;  // the last step's weights, before the one that failed
        root.dataset.weights = Object.keys(m.weights).every(function (k) { return m.weights[k].data.every(isFinite); })
          ? "finite" : "broken";
        root.dataset.state = "diverged";
        root.dataset.nonfinite = m.nonfinite;
        root.dataset.divergedStep = String(m.step);
        ui.status.textContent = t.diverged(m.step, t.what[m.nonfinite]);
        stop();
        finish({ reached_step: null, diverged_step: m.step, nonfinite: m.nonfinite, exact: state.exact || 0, steps: m.step - 1 });
      }
    }

    /** @param {string} message */
    function fail(message) {
      root.dataset.state = "failed";
      ui.status.textContent = t.failed(message);
      stop();
    }

    function clear() {
      state.losses = []; state.cross = null; state.exact = undefined; state.result = null;
      ui.compare.textContent = ""; delete root.dataset.compare;
      delete root.dataset.nonfinite; delete root.dataset.divergedStep;
      ui.use.style.display = "none";
    }

    ui.train.addEventListener("click", function () {
      stop();
      clear();
      state.setting = {};
      SWITCHES.forEach(function (k) { state.setting[k] = ui[k].value; });
      const s = settings(state.setting, data);
      state.config = s.config;
      CourseWidgets.options(ui.head, s.config.n_heads, t.headName);
      try {
        state.worker = new Worker(root.dataset.worker || new URL("../trainer_worker.js", SCRIPT_BASE).href);
      } catch (error) { return fail(String(/** @type {any} */ (error).message || error)); }
      state.worker.onmessage = onMessage;
      state.worker.onerror = function (/** @type {ErrorEvent} */ e) { e.preventDefault(); fail(e.message || "worker error"); };
      state.worker.postMessage({ type: "start", settings: s });
      root.dataset.state = "training";
      ui.train.setAttribute("disabled", "");
      ui.pause.removeAttribute("disabled");
      ui.pause.textContent = t.pause;
      controls.forEach(function (/** @type {HTMLElement} */ c) { c.setAttribute("disabled", ""); });
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
    ui.head.addEventListener("change", function () { drawMap(state, t); });
    // nothing moves on its own: the curve and the map change only when a new evaluation arrives
    root.dataset.state = "ready";
  }

  // the comparison rule and its sentences, for the tests (no page state)
  CourseWidgets.trainComparison = { LABELS: LABELS, verdict: verdict, comparison: comparison, settings: settings };

  // where this file was loaded from: the worker sits one folder up
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const SCRIPT_BASE = script ? script.src : document.baseURI;

  CourseWidgets.register("train", init);
})();
