// Lesson 8 widget: the site's trained reversal model, run in the page (transformer.js).
//
// The page holds <div class="widget" data-widget="reversal" data-model="reversal">; the build
// adds data-model-url (scripts/coursebuild/models.py). Without JavaScript the div stays empty
// and the lesson's static figure and numbers tell the same story. The weights load only when
// the widget comes into view. Labels follow the page's language (<html lang>).
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "숫자 뒤집기 모델을 직접 돌려 보기",
      input: "숫자 (최대 8개)", decode: "디코딩", step: "한 토큰씩", layer: "층", head: "헤드",
      layerName: function (l) { return l + "층"; }, headName: function (h) { return "헤드 " + h; },
      waiting: "이 위젯이 화면에 보이면 모델을 불러옵니다.",
      loading: "모델 파라미터를 불러오는 중입니다…",
      ready: "준비되었습니다. 숫자를 바꾸고 디코딩을 누르세요.",
      failed: function (e) { return "모델을 불러오지 못했습니다: " + e; },
      bad: function (v) { return "숫자(0–9)만 1개에서 8개까지 입력하세요. 지금 입력: “" + v + "”"; },
      long: function (n) { return "숫자가 " + n + "개입니다. 이 모델은 8개까지만 받습니다. 뒤의 " + (n - 8) + "개를 지우고 다시 누르세요."; },
      short: "모델은 8자리 숫자로만 학습했습니다. 8자리가 아니면 틀린 답을 쓸 수 있습니다.",
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
      input: "Digits (up to 8)", decode: "Decode", step: "Next token", layer: "Layer", head: "Head",
      layerName: function (l) { return "layer " + l; }, headName: function (h) { return "head " + h; },
      waiting: "The model loads when this widget comes into view.",
      loading: "Loading the model's parameters…",
      ready: "Ready: change the digits and press Decode.",
      failed: function (e) { return "Could not load the model: " + e; },
      bad: function (v) { return "Type 1 to 8 digits (0–9) and nothing else; you typed “" + v + "”."; },
      long: function (n) { return "That is " + n + " digits; this model takes at most 8. Delete the last " + (n - 8) + " and press again."; },
      short: "The model was trained on 8 digits only; with another length it may write a wrong answer.",
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
    };
    const form = el("form", { class: "widget-controls" }, [
      el("label", { for: ui.input.id, text: t.input }), ui.input, ui.decode, ui.step]);
    const pickers = el("div", { class: "widget-controls" }, [
      el("label", { for: ui.layer.id, text: t.layer }), ui.layer,
      el("label", { for: ui.head.id, text: t.head }), ui.head]);
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }), form, ui.status,
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

  const MAX_DIGITS = 8;  // the labels' "up to 8"; no maxlength, which would drop a ninth digit unseen

  function parse(text) {
    return /^[0-9]{1,8}$/.test(text) ? Array.from(text, Number) : null;
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
    const digits = parse(state.ui.input.value.trim());
    if (!digits) {
      const text = state.ui.input.value.trim();
      state.ui.input.setAttribute("aria-invalid", "true");
      state.ui.status.textContent = /^[0-9]+$/.test(text) && text.length > MAX_DIGITS ? t.long(text.length)
        : t.bad(state.ui.input.value);
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
    state.verdict = (ok ? t.right(ms) : t.wrong(want, ms)) + (digits.length === m.max_digits ? "" : " " + t.short);
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

  function start(state, t) {
    state.root.dataset.state = "loading";
    state.ui.status.textContent = t.loading;
    Transformer.loadModel(state.root.dataset.modelUrl).then(function (model) {
      state.model = model;
      options(state.ui.layer, model.cfg.n_layers, t.layerName);
      options(state.ui.head, model.cfg.n_heads, t.headName);
      state.ui.layer.value = String(model.cfg.n_layers - 1);  // the last layer, as the lesson's figure
      state.ui.input.value = model.manifest.example.join("");  // the lesson's worked example
      decodeInput(state, t);
      reveal(state, t, state.run.steps.length);
      state.ui.status.textContent = t.ready + " " + state.verdict;
      state.root.dataset.state = "ready";
    }).catch(function (error) {
      state.root.dataset.state = "error";
      state.ui.status.textContent = t.failed(error.message);
    });
  }

  function attach(root, index) {
    if (root.dataset.state) return;  // already attached (document$ fires again on instant pages)
    const lang = (document.documentElement.lang || "ko").slice(0, 2);
    const t = LABELS[lang] || LABELS.ko;
    const state = { root: root, ui: build(root, t, "reversal-" + index), shown: 0 };
    root.dataset.state = "waiting";
    state.ui.status.textContent = t.waiting;
    wire(state, t);
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
