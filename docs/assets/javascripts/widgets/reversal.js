// @ts-check
// Lesson 8 widget: the site's trained reversal model, run in the page (transformer.js). The
// build adds data-model-url (scripts/coursebuild/outputs/models.py); without JavaScript the
// lesson's static figure tells the same story. The weights load when the widget comes into view.
// The reader's model (widgets/train.js) can take the site's model's place: a
// "course:trained-model" event's detail {config, tokens, weights: {name: {rows, cols, data}},
// tied, steps, exact, length} is built with Transformer.fromTensors; its digit limit is
// `length` (the site's model: its manifest's max_digits); a button goes back.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "숫자 뒤집기 모델을 직접 돌려 보기",
      input: function (n) { return n ? "숫자 (최대 " + n + "개)" : "숫자"; }, decode: "디코딩", step: "한 토큰씩", layer: "층", head: "헤드",
      layerName: function (l) { return l + "층"; }, headName: function (h) { return "헤드 " + h; },
      waiting: "이 위젯이 화면에 보이면 모델을 불러옵니다.",
      loading: "모델 파라미터를 불러오는 중입니다…",
      ready: "준비되었습니다. 숫자를 바꾸고 디코딩을 누르세요.",
      failed: function (e) { return "모델을 불러오지 못했습니다: " + e; },
      bad: function (v, max) { return "숫자(0–9)만 1개에서 " + max + "개까지 입력하세요. 지금 입력: “" + v + "”"; },
      long: function (n, max) { return "숫자가 " + n + "개입니다. 이 모델은 " + max + "개까지만 받습니다. 뒤의 " + (n - max) + "개를 지우고 다시 누르세요."; },
      short: function (max) { return "이 모델은 " + max + "자리 숫자로만 학습했습니다. " + max + "자리가 아니면 틀린 답을 쓸 수 있습니다."; },
      siteModel: function (max) { return "사용 중인 모델: 사이트의 모델 (" + max + "자리 숫자로 학습시킨 모델)"; },
      trainedModel: function (steps, exact, max) {
        return "사용 중인 모델: 직접 학습시킨 모델 (" + steps + "스텝 학습, 검증 시퀀스 완전 일치율 " + exact + ", " + max + "자리 숫자로 학습)";
      },
      back: "사이트의 모델로 돌아가기",
      type: function (max) { return "숫자를 " + max + "개까지 입력하고 디코딩을 누르세요."; },
      switched: "직접 학습시킨 모델로 바꾸었습니다.",
      restored: "사이트의 모델로 돌아왔습니다.",
      trimmed: function (n, max) { return "입력한 숫자 " + n + "개 가운데 이 모델이 받는 앞의 " + max + "개만 남겼습니다."; },
      refused: function (e) { return "학습시킨 모델을 쓸 수 없어 지금 모델을 그대로 씁니다: " + e + ". 학습을 다시 마친 뒤 모델을 다시 넘겨 주세요."; },
      problems: {  // what trainedModel finds wrong in a hand-over
        parts: function () { return "설정, 토큰, 파라미터 가운데 빠진 것이 있습니다"; },
        length: function (v) { return "학습한 숫자 길이가 1 이상의 정수가 아닙니다(받은 값: " + v + ")"; },
        shape: function (name) { return "텐서 " + name + "의 값 개수가 행 수 × 열 수와 다릅니다"; },
        tied: function (name, to) { return "묶어 쓰는 텐서가 빠졌습니다(" + name + " → " + to + ")"; },
        decode: function (e) { return "파라미터가 설정에 맞는 모델을 이루지 못합니다(" + e + ")"; },
      },
      source: "원문", output: "출력 (그리디 디코딩)",
      right: function (ms) { return "뒤집은 순서와 같습니다. 브라우저에서 " + ms + " ms 걸렸습니다."; },
      wrong: function (want, ms) { return "뒤집은 순서(" + want + ")와 다릅니다. 브라우저에서 " + ms + " ms 걸렸습니다."; },
      written: function (n, t) { return n + "번째 토큰: " + t; },
      caption: function (l, h) {
        return l + "층 헤드 " + h + "의 크로스 어텐션. 행은 디코더가 읽은 토큰과 그때 쓴 토큰, " +
               "열은 원문 토큰, 테두리는 거울 위치입니다.";
      },
      corner: "읽음 → 씀",
    },
    en: {
      title: "Run the reversal model yourself",
      input: function (n) { return n ? "Digits (up to " + n + ")" : "Digits"; }, decode: "Decode", step: "Next token", layer: "Layer", head: "Head",
      layerName: function (l) { return "layer " + l; }, headName: function (h) { return "head " + h; },
      waiting: "The model loads when this widget comes into view.",
      loading: "Loading the model's parameters…",
      ready: "Ready: change the digits and press Decode.",
      failed: function (e) { return "Could not load the model: " + e; },
      bad: function (v, max) { return "Type 1 to " + max + " digits (0–9) and nothing else; you typed “" + v + "”."; },
      long: function (n, max) { return "That is " + n + " digits; this model takes at most " + max + ". Delete the last " + (n - max) + " and press again."; },
      short: function (max) { return "The model was trained on " + max + "-digit sequences only; with another length it may write a wrong answer."; },
      siteModel: function (max) { return "Model in use: the site's model (trained on " + max + "-digit sequences)."; },
      trainedModel: function (steps, exact, max) {
        return "Model in use: the model you trained: " + steps + " steps, exact match on the validation sequences " + exact + " (trained on " + max + "-digit sequences).";
      },
      back: "Back to the site's model",
      type: function (max) { return "Type up to " + max + " digits and press Decode."; },
      switched: "Switched to the model you trained.",
      restored: "Back to the site's model.",
      trimmed: function (n, max) { return "Of the " + n + " digits typed, the first " + max + " are kept: this model takes at most " + max + "."; },
      refused: function (e) { return "The trained model could not be used, so the current model stays: " + e + ". Finish a training run and hand the model over again."; },
      problems: {  // what trainedModel finds wrong in a hand-over
        parts: function () { return "its config, tokens or parameters are missing"; },
        length: function (v) { return "the digit length it was trained on is not a whole number of at least 1 (got " + v + ")"; },
        shape: function (name) { return "tensor " + name + " does not hold rows × cols numbers"; },
        tied: function (name, to) { return "tensor " + name + " is tied to " + to + ", which is missing"; },
        decode: function (e) { return "its parameters do not make a model of its config (" + e + ")"; },
      },
      source: "Source", output: "Output (greedy decoding)",
      right: function (ms) { return "Matches the reversed digits. It took " + ms + " ms in your browser."; },
      wrong: function (want, ms) { return "Differs from the reversed digits (" + want + "). It took " + ms + " ms in your browser."; },
      written: function (n, t) { return "token " + n + ": " + t; },
      caption: function (l, h) {
        return "Cross-attention of layer " + l + ", head " + h + ". Rows: the token the decoder read " +
               "and the one it wrote; columns: the source tokens; outlined: the mirrored position.";
      },
      corner: "read → wrote",
    },
  };

  const el = CourseWidgets.el;  // widgets/common.js, loaded before this file

  function options(select, n, name) {
    select.replaceChildren();
    for (let i = 1; i <= n; i++) select.appendChild(el("option", { value: String(i - 1), text: name(i) }));
  }

  // the widget's parts; ids are unique per widget so that labels point at their controls
  function build(root, t, uid) {
    const ui = {
      input: el("input", { id: uid + "-digits", type: "text", inputmode: "numeric", autocomplete: "off",
                           "aria-describedby": uid + "-status" }),
      decode: el("button", { type: "submit", class: "md-button md-button--primary", text: t.decode }),
      step: el("button", { type: "button", class: "md-button", text: t.step }),
      layer: el("select", { id: uid + "-layer" }), head: el("select", { id: uid + "-head" }),
      status: el("p", { id: uid + "-status", class: "widget-status", role: "status", "aria-live": "polite" }),
      source: el("ol", { class: "widget-tokens", "aria-label": t.source }),
      output: el("ol", { class: "widget-tokens widget-output", "aria-label": t.output }),
      map: el("div", { class: "widget-map" }),
      inputLabel: el("label", { for: uid + "-digits" }),
      which: el("p", { class: "widget-model" }),
      back: el("button", { type: "button", class: "md-button", text: t.back, hidden: "" }),
    };
    const form = el("form", { class: "widget-controls" }, [ui.inputLabel, ui.input, ui.decode, ui.step]);
    const pickers = el("div", { class: "widget-controls" }, [
      el("label", { for: ui.layer.id, text: t.layer }), ui.layer,
      el("label", { for: ui.head.id, text: t.head }), ui.head]);
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }), form, ui.status,
      el("div", { class: "widget-controls" }, [ui.which, ui.back]),
      el("p", { class: "widget-label", text: t.source }), ui.source,
      el("p", { class: "widget-label", text: t.output }), ui.output, pickers, ui.map);
    ui.form = form;
    return ui;
  }

  function tokenList(list, names, current) {
    list.replaceChildren();
    names.forEach(function (name, i) {
      const li = el("li", { "data-token": name, text: name });
      if (i === current) li.className = "widget-current";
      list.appendChild(li);
    });
  }

  // cross-attention of one layer and head as a table: a row per decoding step shown so far
  function heatmap(state, t) {
    const layer = Number(state.ui.layer.value), head = Number(state.ui.head.value);
    const names = state.model.tokens.names, src = state.src, run = state.run;
    const table = el("table", { class: "widget-heatmap" });
    table.appendChild(el("caption", { text: t.caption(layer + 1, head + 1) }));
    const top = el("tr", {}, [el("th", { scope: "col", text: t.corner })]);
    src.forEach(function (id) { top.appendChild(el("th", { scope: "col", text: names[id] })); });
    table.appendChild(el("thead", {}, [top]));
    const body = el("tbody");
    run.steps.slice(0, state.shown).forEach(function (step, i) {
      const tr = el("tr", {}, [el("th", { scope: "row", text: names[run.tokens[i]] + " → " + names[step.token] })]);
      const digits = src.length - 2, mirror = i < digits ? digits - i : -1;  // x_{L-i} sits at L - i
      Array.from(step.cross[layer][head]).forEach(function (w, j) {
        // ".73" rather than "0.73": ten columns fit a 390 px phone; the title has 4 decimals
        const td = el("td", { text: w.toFixed(2).replace(/^0\./, "."), title: w.toFixed(4) });
        td.style.setProperty("--w", w.toFixed(3));
        if (w > 0.5) td.classList.add("widget-strong");
        if (j === mirror) td.classList.add("widget-mirror");
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    state.ui.map.replaceChildren(table);
  }

  function render(state, t) {
    const names = state.model.tokens.names;
    tokenList(state.ui.source, state.src.map(function (id) { return names[id]; }));
    const written = state.run.tokens.slice(0, state.shown + 1).map(function (id) { return names[id]; });
    tokenList(state.ui.output, written, state.shown);
    heatmap(state, t);
  }

  // the most digits the model in use takes: the length it was trained on (the site's model: its
  // manifest's max_digits). No maxlength on the field, which would drop a further digit unseen.
  function maxDigits(state) { return state.model.manifest.max_digits; }

  function parse(text, max) {
    return /^[0-9]+$/.test(text) && text.length <= max ? Array.from(text, Number) : null;
  }

  // a refused input leaves no earlier answer on screen under its message
  function clear(state) {
    clearInterval(state.timer);
    state.run = null;
    state.shown = 0;
    [state.ui.source, state.ui.output, state.ui.map].forEach(function (node) { node.replaceChildren(); });
  }

  // run greedy decoding for the digits in the input; false (and a message) on bad input
  function decodeInput(state, t) {
    const max = maxDigits(state), digits = parse(state.ui.input.value.trim(), max);
    if (!digits) {
      const text = state.ui.input.value.trim();
      state.ui.input.setAttribute("aria-invalid", "true");
      state.ui.status.textContent = /^[0-9]+$/.test(text) && text.length > max ? t.long(text.length, max)
        : t.bad(state.ui.input.value, max);
      state.lastInput = null;
      clear(state);
      return false;
    }
    state.ui.input.removeAttribute("aria-invalid");
    state.lastInput = state.ui.input.value;
    const tok = state.model.tokens, m = state.model.manifest;
    state.src = [tok.bos_id].concat(digits.map(function (d) { return d + tok.digit0; }), [tok.eos_id]);
    const t0 = performance.now();
    state.run = Transformer.greedyDecode(state.model, state.src, m.max_new_tokens);
    const ms = (performance.now() - t0).toFixed(1);
    const want = digits.slice().reverse().join(" ");
    const got = state.run.tokens.slice(1, -1).map(function (id) { return tok.names[id]; }).join(" ");
    const ok = got === want && state.run.tokens[state.run.tokens.length - 1] === tok.eos_id;
    state.verdict = (ok ? t.right(ms) : t.wrong(want, ms)) + (digits.length === m.max_digits ? "" : " " + t.short(m.max_digits));
    state.shown = 0;
    return true;
  }

  function reveal(state, t, n) {
    state.shown = Math.min(n, state.run.steps.length);
    render(state, t);
    const step = state.run.steps[state.shown - 1];
    state.ui.status.textContent = state.shown === state.run.steps.length ? state.verdict
      : t.written(state.shown, state.model.tokens.names[step.token]);
  }

  // Decode: every token at once for reduced motion, else one every 250 ms
  function animate(state, t) {
    clearInterval(state.timer);
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return reveal(state, t, state.run.steps.length);
    reveal(state, t, 1);
    state.timer = setInterval(function () {
      reveal(state, t, state.shown + 1);
      if (state.shown >= state.run.steps.length) clearInterval(state.timer);
    }, 250);
  }

  function wire(state, t) {
    const ui = state.ui;
    ui.form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (state.model && decodeInput(state, t)) animate(state, t);
    });
    ui.step.addEventListener("click", function () {
      if (!state.model) return;
      clearInterval(state.timer);
      const fresh = !state.run || state.lastInput !== ui.input.value || state.shown >= state.run.steps.length;
      if (fresh && !decodeInput(state, t)) return;
      reveal(state, t, state.shown + 1);
    });
    [ui.layer, ui.head].forEach(function (s) {
      s.addEventListener("change", function () { if (state.run) heatmap(state, t); });
    });
  }

  // make `model` the one in use: its layers and heads in the pickers, its digit limit in the label,
  // and a line that says which model it is ("site", or "trained" with how far it trained)
  function useModel(state, t, model, which) {
    clearInterval(state.timer);
    const ui = state.ui, head = Number(ui.head.value) || 0, max = model.manifest.max_digits;
    state.model = model;
    options(ui.layer, model.cfg.n_layers, t.layerName);
    options(ui.head, model.cfg.n_heads, t.headName);
    ui.layer.value = String(model.cfg.n_layers - 1);  // the last layer, as the lesson's figure
    ui.head.value = String(Math.min(head, model.cfg.n_heads - 1));
    ui.inputLabel.textContent = t.input(max);
    ui.which.textContent = which === "site" ? t.siteModel(max)
      : t.trainedModel(model.manifest.steps, model.manifest.exact, max);
    ui.back.hidden = which === "site";
    state.root.dataset.inUse = which;
  }

  // decode what the field holds with the model now in use, every token at once; the status says
  // `intro` first. Digits beyond the model's limit are cut, and the status says so.
  function decodeAgain(state, t, intro) {
    const text = state.ui.input.value.trim(), max = maxDigits(state);
    if (!text) {  // nothing typed yet (the site's model had not loaded): nothing to refuse
      clear(state);
      state.ui.status.textContent = intro + " " + t.type(max);
      return;
    }
    let note = "";
    if (/^[0-9]+$/.test(text) && text.length > max) {
      state.ui.input.value = text.slice(0, max);
      note = t.trimmed(text.length, max) + " ";
    }
    if (decodeInput(state, t)) {
      reveal(state, t, state.run.steps.length);
      state.ui.status.textContent = intro + " " + note + state.verdict;
    } else {
      state.ui.status.textContent = intro + " " + state.ui.status.textContent;
    }
  }

  // the site's model, fetched once (when the widget comes into view, or when the reader goes back)
  function siteModel(state) {
    if (!state.sitePromise) state.sitePromise = Transformer.loadModel(state.root.dataset.modelUrl);
    return state.sitePromise;
  }

  function start(state, t) {
    if (state.root.dataset.inUse !== "trained") {
      state.root.dataset.state = "loading";
      state.ui.status.textContent = t.loading;
    }
    siteModel(state).then(function (model) {
      if (state.root.dataset.inUse === "trained") return;  // the reader's model came first: it stays
      useModel(state, t, model, "site");
      state.ui.input.value = model.manifest.example.join("");  // the lesson's worked example
      decodeInput(state, t);
      reveal(state, t, state.run.steps.length);
      state.ui.status.textContent = t.ready + " " + state.verdict;
      state.root.dataset.state = "ready";
    }).catch(function (error) {
      state.sitePromise = null;  // a later try fetches again
      if (state.root.dataset.inUse === "trained") return;
      state.root.dataset.state = "error";
      state.ui.status.textContent = t.failed(error.message);
    });
  }

  // the model of an event's detail, as TrainerTask.initModel builds one (the tensors copied: the
  // trainer may go on changing its own); a detail that cannot make a working model throws a
  // problem (a key of LABELS.*.problems and its arguments)
  function problem(key) {
    const error = /** @type {Error & {problem: string, args: string[]}} */ (new Error(key));
    error.problem = key;
    error.args = Array.prototype.slice.call(arguments, 1);
    return error;
  }

  function trainedModel(detail) {
    const d = detail || {};
    if (!d.config || !d.tokens || !d.weights) throw problem("parts");
    if (!(Number.isInteger(d.length) && d.length >= 1)) throw problem("length", String(d.length));
    /** @type {Object<string, ReturnType<typeof Transformer.matrix>>} */
    const tensors = {};
    Object.keys(d.weights).forEach(function (name) {
      const w = d.weights[name];
      if (!w || !w.data || w.data.length !== w.rows * w.cols) throw problem("shape", name);
      tensors[name] = Transformer.matrix(w.rows, w.cols, Float32Array.from(w.data));
    });
    const tied = d.tied || {};
    Object.keys(tied).forEach(function (name) {
      if (!(tied[name] in tensors)) throw problem("tied", name, tied[name]);
    });
    const cfg = Object.assign({ eps: 1e-5, pad_id: d.tokens.pad_id }, d.config);
    const exact = typeof d.exact === "number" && isFinite(d.exact) ? (100 * d.exact).toFixed(1) + "%" : "—";
    const model = Transformer.fromTensors(cfg, d.tokens, tensors, tied,
      { max_digits: d.length, max_new_tokens: d.length + 1, steps: d.steps, exact: exact });
    // one step of decoding now: a missing tensor or a wrong shape shows here, not at the next press
    const src = [d.tokens.bos_id].concat(new Array(d.length).fill(d.tokens.digit0), [d.tokens.eos_id]);
    try {
      Transformer.greedyDecode(model, src, 1);
    } catch (error) {
      throw problem("decode", error.message);
    }
    return model;
  }

  function listen(state, t) {
    document.addEventListener("course:trained-model", function (event) {
      if (!state.root.isConnected) return;  // a page left by instant navigation
      let model;
      try {
        model = trainedModel(event.detail);
      } catch (error) {
        state.ui.status.textContent = t.refused(error.problem ? t.problems[error.problem].apply(null, error.args) : error.message);
        return;
      }
      useModel(state, t, model, "trained");
      decodeAgain(state, t, t.switched);
      state.root.dataset.state = "ready";
    });
    state.ui.back.addEventListener("click", function () {
      state.ui.status.textContent = t.loading;
      siteModel(state).then(function (model) {
        useModel(state, t, model, "site");
        decodeAgain(state, t, t.restored);
        state.ui.input.focus();  // the button just pressed is hidden now
      }).catch(function (error) {
        state.sitePromise = null;
        state.ui.status.textContent = t.failed(error.message);
      });
    });
  }

  function attach(root, index) {
    if (root.dataset.state) return;  // already attached (document$ fires again on instant pages)
    const lang = (document.documentElement.lang || "ko").slice(0, 2);
    const t = LABELS[lang] || LABELS.ko;
    const state = { root: root, ui: build(root, t, "reversal-" + index), shown: 0 };
    root.dataset.state = "waiting";
    state.ui.status.textContent = t.waiting;
    state.ui.inputLabel.textContent = t.input(null);  // the limit comes with the model
    wire(state, t);
    listen(state, t);
    const seen = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) {
        seen.disconnect();
        start(state, t);
      }
    }, { rootMargin: "200px" });
    seen.observe(root);
  }

  function attachAll() {
    document.querySelectorAll('.widget[data-widget="reversal"]').forEach(attach);
  }

  // Material's document$ emits on every page load (and on instant navigation, if enabled)
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(attachAll);
  else document.addEventListener("DOMContentLoaded", attachAll);
})();
