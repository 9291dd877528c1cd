// @ts-check
// Lesson 1 widget: the site's trained Korean→English translator, run in the page (transformer.js).
//
// [[widget:translation.translator|model]]: the data is results["widgets"]["translator"] of the
// translation experiment (the grammar's word lists, held-out test sentences, states computed
// in Python for the tests) and data-model-url points at the exported weights, which load only
// when the widget comes into view. A sentence is picked from the test set or composed with
// pickers that offer only what the grammar can write; the model writes the English by greedy
// decoding; choosing an English word shows the cross-attention of the step that wrote it over
// the Korean words (the last layer's head average by default, as the lesson's figure).
(function () {
  "use strict";

  const el = CourseWidgets.el;  // widgets/common.js, loaded before this file

  const LABELS = {
    ko: {
      title: "장난감 번역기를 직접 돌려 보기",
      pick: "테스트 문장", own: "(아래에서 직접 만든 문장)", example: "(강의 예문)",
      adverb: "시간 부사", subjAdj: "주어 앞 형용사", subj: "주어", objAdj: "목적어 앞 형용사", obj: "목적어",
      verb: "동사", order: "어순", sov: "주어 먼저", osv: "목적어 먼저", none: "(없음)",
      source: "한국어 입력", output: "모델이 쓴 영어 (그리디 디코딩). 단어를 고르면 아래에 그 단어를 쓸 때의 가중치가 나옵니다.",
      end: "EOS (끝)", layer: "층", head: "헤드 (5강)", mean: "헤드 평균",
      layerName: function (l) { return l + "층"; }, headName: function (h) { return "헤드 " + h; },
      waiting: "이 위젯이 화면에 보이면 모델을 불러옵니다.",
      loading: "모델 파라미터를 불러오는 중입니다…",
      failed: function (e) { return "모델을 불러오지 못했습니다: " + e; },
      right: function (ms) { return "문법이 정한 번역과 같습니다. 브라우저에서 " + ms + " ms 걸렸습니다."; },
      wrong: function (want, ms) { return "문법이 정한 번역(“" + want + "”)과 다릅니다. 브라우저에서 " + ms + " ms 걸렸습니다."; },
      caption: function (word, l, h) { return "쓰는 단어: " + word + " · " + l + " · " + h + ". 한국어 단어마다 받은 가중치"; },
      korean: "한국어 단어", weight: "가중치",
    },
    en: {
      title: "Run the toy translator yourself",
      pick: "Test sentence", own: "(your own sentence, composed below)", example: "(the lesson's example)",
      adverb: "Time adverb", subjAdj: "Subject's adjective", subj: "Subject", objAdj: "Object's adjective", obj: "Object",
      verb: "Verb", order: "Word order", sov: "subject first", osv: "object first", none: "(none)",
      source: "Korean source", output: "The model's English (greedy decoding). Choose a word to see the weights of the step that wrote it.",
      end: "EOS (end)", layer: "Layer", head: "Head (lesson 5)", mean: "mean of heads",
      layerName: function (l) { return "layer " + l; }, headName: function (h) { return "head " + h; },
      waiting: "The model loads when this widget comes into view.",
      loading: "Loading the model's parameters…",
      failed: function (e) { return "Could not load the model: " + e; },
      right: function (ms) { return "Matches the grammar's translation. It took " + ms + " ms in your browser."; },
      wrong: function (want, ms) { return "Differs from the grammar's translation, “" + want + "”. It took " + ms + " ms in your browser."; },
      caption: function (word, l, h) { return "Writing: " + word + " · " + l + " · " + h + ". The weight on each Korean word"; },
      korean: "Korean word", weight: "weight",
    },
  };

  // ---------------------------------------------------------------- the grammar (ko_en_grammar.py)
  // a choice is a Sentence's fields: subj, obj, verb, subj_adj, obj_adj, adverb (null = none), scrambled
  function korean(g, c) {  // Sentence.korean(): adverb, subject phrase, object phrase, verb (OSV if scrambled)
    const phrase = function (noun, adj, form) {
      return (adj === null ? [] : [g.adjectives[adj][0]]).concat([g.nouns[noun][form]]);
    };
    const subj = phrase(c.subj, c.subj_adj, 0), obj = phrase(c.obj, c.obj_adj, 1);  // 이/가 and 을/를 forms
    const front = c.adverb === null ? [] : [g.adverbs[c.adverb][0]];
    return front.concat(c.scrambled ? obj.concat(subj) : subj.concat(obj), [g.verbs[c.verb][0]]);
  }

  function english(g, c) {  // Sentence.english(): the (adj) S V the (adj) O (adverb)
    const np = function (noun, adj) { return ["the"].concat(adj === null ? [] : [g.adjectives[adj][1]], [g.nouns[noun][2]]); };
    return np(c.subj, c.subj_adj).concat([g.verbs[c.verb][1]], np(c.obj, c.obj_adj),
                                          c.adverb === null ? [] : [g.adverbs[c.adverb][1]]);
  }

  // what picker k may offer, given the pickers before it: triples() and realise() of the grammar
  function allowed(g, c, k) {
    const kind = function (n) { return g.nouns[n][3]; };
    const indices = function (list, keep) { return list.map(function (_, i) { return i; }).filter(keep); };
    const fits = function (noun) { return function (a) { return g.adjectives[a][2].indexOf(kind(noun)) >= 0; }; };
    switch (k) {
      case "subj": return indices(g.nouns, function (n) { return kind(n) === "animate"; });
      case "obj": return indices(g.nouns, function (n) { return n !== c.subj && g.verbs[c.verb][2].indexOf(kind(n)) >= 0; });
      case "subj_adj": return indices(g.adjectives, fits(c.subj));
      case "obj_adj": return indices(g.adjectives, fits(c.obj));
      case "verb": return indices(g.verbs, function () { return true; });
      default: return indices(g.adverbs, function () { return true; });
    }
  }

  // ---------------------------------------------------------------- the page's parts
  /** @type {[string, string, boolean][]} [field, its label in LABELS, whether the part is optional] */
  const PICKERS = [["adverb", "adverb", true], ["subj_adj", "subjAdj", true], ["subj", "subj", false],
                   ["obj_adj", "objAdj", true], ["obj", "obj", false], ["verb", "verb", false]];

  function build(root, ctx, t) {
    const el = ctx.el, uid = ctx.uid, ui = { pickers: {} };
    ui.pick = el("select", { id: uid + "-pick" });
    const fields = PICKERS.map(function (p) {
      const s = el("select", { id: uid + "-" + p[0], "data-field": p[0] });
      ui.pickers[p[0]] = s;
      return el("span", { class: "widget-field" }, [el("label", { for: s.id, text: t[p[1]] }), s]);
    });
    ui.order = el("select", { id: uid + "-order", "data-field": "scrambled" }, [
      el("option", { value: "0", text: t.sov }), el("option", { value: "1", text: t.osv })]);
    fields.push(el("span", { class: "widget-field" }, [el("label", { for: ui.order.id, text: t.order }), ui.order]));
    ui.layer = el("select", { id: uid + "-layer" });
    ui.head = el("select", { id: uid + "-head" });
    ui.status = el("p", { id: uid + "-status", class: "widget-status", role: "status", "aria-live": "polite" });
    ui.source = el("ol", { class: "widget-tokens", "aria-label": t.source });
    ui.output = el("div", { class: "widget-words", role: "group", "aria-label": t.output });
    ui.weights = el("div", { class: "widget-map" });
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.pick.id, text: t.pick }), ui.pick]),
      el("div", { class: "widget-controls widget-composer" }, fields),
      el("p", { class: "widget-label", text: t.source }), ui.source,
      el("p", { class: "widget-label", text: t.output }), ui.output, ui.status,
      el("div", { class: "widget-controls" }, [el("label", { for: ui.layer.id, text: t.layer }), ui.layer,
                                               el("label", { for: ui.head.id, text: t.head }), ui.head]),
      ui.weights);
    return ui;
  }

  function fill(select, values, name, none, keep) {  // keep the current value when still offered
    const before = select.value;
    select.replaceChildren();
    if (none) select.appendChild(el("option", { value: "", text: none }));
    values.forEach(function (v) { select.appendChild(el("option", { value: String(v), text: name(v) })); });
    const offered = Array.from(select.options).map(function (o) { return o.value; });
    select.value = keep !== undefined && offered.indexOf(String(keep)) >= 0 ? String(keep)
      : offered.indexOf(before) >= 0 ? before : offered[0];
  }

  function read(state) {  // the pickers' choice
    const c = {}, p = state.ui.pickers;
    Object.keys(p).forEach(function (k) { c[k] = p[k].value === "" ? null : Number(p[k].value); });
    c.scrambled = state.ui.order.value === "1";
    return c;
  }

  // set the pickers to a choice (null: keep each as it is), offering only what the grammar allows
  function setChoice(state, want) {
    const g = state.data.grammar, t = state.t, p = state.ui.pickers;
    const order = ["adverb", "subj", "subj_adj", "verb", "obj", "obj_adj"];  // each depends on the ones before
    const names = {
      adverb: function (i) { return g.adverbs[i][0]; }, subj: function (i) { return g.nouns[i][0]; },
      obj: function (i) { return g.nouns[i][1]; }, verb: function (i) { return g.verbs[i][0]; },
      subj_adj: function (i) { return g.adjectives[i][0]; }, obj_adj: function (i) { return g.adjectives[i][0]; },
    };
    order.forEach(function (k) {
      const offer = allowed(g, read(state), k);
      fill(p[k], offer, names[k], k === "adverb" || k.slice(-3) === "adj" ? t.none : null,
           want ? (want[k] === null ? "" : want[k]) : undefined);
    });
    if (want) state.ui.order.value = want.scrambled ? "1" : "0";
  }

  // ---------------------------------------------------------------- decoding and drawing
  function translate(state) {
    const g = state.data.grammar, c = read(state), words = korean(g, c);
    const index = state.index, names = state.model.tokens.names;
    state.korean = words;
    const t0 = performance.now();
    state.run = Transformer.greedyDecode(state.model, words.map(function (w) { return index[w]; }), state.data.max_new_tokens);
    state.ms = (performance.now() - t0).toFixed(1);
    const out = state.run.tokens.slice(1).map(function (id) { return names[id]; });
    state.written = out[out.length - 1] === "</s>" ? out.slice(0, -1) : out;
    state.want = english(g, c);
    state.row = Math.min(state.row, state.run.steps.length - 1);
  }

  // the weights of decoding step `row` over the Korean words: one head, or the mean of the heads
  function weights(state, row) {
    const layer = Number(state.ui.layer.value), heads = state.run.steps[row].cross[layer];
    if (state.ui.head.value !== "mean") return Array.from(heads[Number(state.ui.head.value)]);
    return Array.from(heads[0], function (_, j) {
      return heads.reduce(function (s, w) { return s + w[j]; }, 0) / heads.length;
    });
  }

  function drawWeights(state) {
    const t = state.t, row = state.row, w = weights(state, row);
    const word = row < state.written.length ? state.written[row] : t.end;
    const table = el("table", { class: "widget-bars" }, [
      el("caption", { text: t.caption(word, state.ui.layer.selectedOptions[0].text, state.ui.head.selectedOptions[0].text) }),
      el("thead", {}, [el("tr", {}, [el("th", { scope: "col", text: t.korean }), el("th", { scope: "col", text: t.weight })])])]);
    const body = el("tbody");
    state.korean.forEach(function (k, j) {
      const bar = el("span", { class: "widget-bar" });
      bar.style.setProperty("--w", w[j].toFixed(4));
      body.appendChild(el("tr", {}, [el("th", { scope: "row", text: k }),
        el("td", { "data-w": String(w[j]) }, [bar, el("span", { text: w[j].toFixed(3) })])]));
    });
    table.appendChild(body);
    state.ui.weights.replaceChildren(table);
  }

  function draw(state) {
    const t = state.t, ui = state.ui;
    ui.source.replaceChildren.apply(ui.source, state.korean.map(function (k) { return el("li", { text: k }); }));
    const buttons = state.written.concat([t.end]).map(function (w, i) {
      const b = el("button", { type: "button", class: "widget-word", "data-row": String(i),
                               "aria-pressed": String(i === state.row), text: w });
      b.addEventListener("click", function () { select(state, i); });
      b.addEventListener("keydown", function (e) {  // arrows move between the words too
        const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        e.preventDefault();
        const next = Math.max(0, Math.min(buttons.length - 1, i + step));
        select(state, next);
        ui.output.children[next].focus();
      });
      return b;
    });
    ui.output.replaceChildren.apply(ui.output, buttons);
    const same = state.written.join(" ") === state.want.join(" ");
    ui.status.textContent = same ? t.right(state.ms) : t.wrong(state.want.join(" "), state.ms);
    drawWeights(state);
  }

  function select(state, row) {
    state.row = row;
    Array.from(state.ui.output.children).forEach(function (b, i) { b.setAttribute("aria-pressed", String(i === row)); });
    drawWeights(state);
  }

  function update(state) {
    const key = JSON.stringify(read(state));
    if (!state.model || key === state.key) return;  // "input" and "change" both come for one choice
    state.key = key;
    translate(state);
    draw(state);
  }

  // a select's new value: Chromium fires only "input" for an arrow key on a closed select,
  // "change" when it loses focus; both, for a mouse choice
  function onPick(select, handler) {
    ["input", "change"].forEach(function (type) { select.addEventListener(type, handler); });
  }

  // ---------------------------------------------------------------- wiring and loading
  function wire(state) {
    const ui = state.ui, data = state.data, t = state.t;
    const list = [data.example].concat(data.sentences);
    ui.pick.appendChild(el("option", { value: "", text: t.own }));
    list.forEach(function (s, i) {
      ui.pick.appendChild(el("option", { value: String(i), text: s.korean.join(" ") + (i === 0 ? " " + t.example : "") }));
    });
    onPick(ui.pick, function () {
      if (ui.pick.value === "") return;
      setChoice(state, list[Number(ui.pick.value)].choice);
      update(state);
    });
    Object.keys(ui.pickers).concat(["order"]).forEach(function (k) {
      onPick(ui.pickers[k] || ui.order, function () {
        setChoice(state, null);
        ui.pick.value = "";
        update(state);
      });
    });
    [ui.layer, ui.head].forEach(function (s) { onPick(s, function () { if (state.run) drawWeights(state); }); });
    ui.pick.value = "0";
    setChoice(state, data.example.choice);
  }

  function start(state) {
    const root = state.root, t = state.t;
    root.dataset.state = "loading";
    state.ui.status.textContent = t.loading;
    Transformer.loadModel(root.dataset.modelUrl).then(function (model) {
      state.model = model;
      model.tokens.names.forEach(function (name, i) { state.index[name] = i; });
      fill(state.ui.layer, Array.from({ length: model.cfg.n_layers }, function (_, i) { return i; }),
           function (i) { return t.layerName(i + 1); }, null, model.cfg.n_layers - 1);  // the last, as the figure
      fill(state.ui.head, Array.from({ length: model.cfg.n_heads }, function (_, i) { return i; }),
           function (i) { return t.headName(i + 1); }, null);
      state.ui.head.insertBefore(el("option", { value: "mean", text: t.mean }), state.ui.head.firstChild);
      state.ui.head.value = "mean";
      state.row = state.data.example.row;  // the verb's row, the one the lesson reads
      update(state);
      root.dataset.state = "ready";
    }).catch(function (error) {
      root.dataset.state = "error";
      state.ui.status.textContent = t.failed(error.message);
    });
  }

  CourseWidgets.register("translator", function (root, ctx) {
    const t = ctx.labels(LABELS);
    const state = { root: root, data: ctx.data, t: t, ui: build(root, ctx, t), index: {}, row: 0 };
    wire(state);
    state.korean = korean(ctx.data.grammar, read(state));
    state.ui.source.replaceChildren.apply(state.ui.source, state.korean.map(function (k) { return ctx.el("li", { text: k }); }));
    root.dataset.state = "waiting";
    state.ui.status.textContent = t.waiting;
    const seen = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) {
        seen.disconnect();
        start(state);
      }
    }, { rootMargin: "200px" });
    seen.observe(root);
  });
})();
