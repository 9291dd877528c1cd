// @ts-check
// Lesson 8 widget: who may see whom in encoder-only, decoder-only and encoder–decoder models.
//
// The page holds [[widget:reversal.visibility]]: the data is results["widgets"]["visibility"] of
// the reversal experiment, the masks the models apply to the lesson's example, built by
// tutorial_code.masks (True, here 1, means "may attend"). Picking a variant shows the attention
// matrices it has, with every blocked cell marked by a symbol (not by colour alone); the counts
// of blocked cells are counted here, from the masks, and the tests compare them with Python's.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "누가 누구를 보는가: 변형마다 어텐션 마스크",
      legend: "모델 변형",
      variants: {
        encoder_only: "인코더 전용 (BERT)", decoder_only: "디코더 전용 (GPT)",
        encoder_decoder: "인코더–디코더 (번역)",
      },
      about: {
        encoder_only: "셀프 어텐션 하나뿐이고, 모든 토큰이 모든 토큰을 봅니다.",
        decoder_only: "크로스 어텐션이 없고, 셀프 어텐션에 인과 마스크가 걸립니다.",
        encoder_decoder: "인코더 셀프 어텐션, 인과 마스크를 쓴 디코더 셀프 어텐션, 그리고 크로스 어텐션이 있습니다.",
      },
      names: {
        encoder_self: "인코더 셀프 어텐션 (쿼리·키: 원문)",
        decoder_self: "디코더 셀프 어텐션, 인과 마스크 (쿼리·키: 디코더 입력)",
        cross: "크로스 어텐션 (쿼리: 디코더 입력, 키: 인코더 출력)",
      },
      count: function (blocked, cells) { return "전체 " + cells + "칸 가운데 가린 칸 " + blocked + "칸"; },
      total: function (n, blocked, cells) {
        return "어텐션 " + n + "종, 전체 " + cells + "칸 가운데 가린 칸 " + blocked + "칸";
      },
      key: "● 볼 수 있음, ✕ 마스크가 가림. 행은 쿼리, 열은 키입니다.",
      open: "볼 수 있음", shut: "가림", corner: "쿼리 \\ 키",
    },
    en: {
      title: "Who sees whom: the attention masks of each variant",
      legend: "Model variant",
      variants: {
        encoder_only: "Encoder-only (BERT)", decoder_only: "Decoder-only (GPT)",
        encoder_decoder: "Encoder–decoder (translation)",
      },
      about: {
        encoder_only: "One self-attention, in which every token sees every token.",
        decoder_only: "No cross-attention; the self-attention carries the causal mask.",
        encoder_decoder: "Encoder self-attention, decoder self-attention with the causal mask, and cross-attention.",
      },
      names: {
        encoder_self: "Encoder self-attention (queries and keys: the source)",
        decoder_self: "Decoder self-attention, causal mask (queries and keys: the decoder input)",
        cross: "Cross-attention (queries: the decoder input; keys: the encoder output)",
      },
      count: function (blocked, cells) { return blocked + " of " + cells + " cells blocked"; },
      total: function (n, blocked, cells) {
        return n + (n === 1 ? " kind of attention, " : " kinds of attention, ") + blocked + " of " + cells + " cells blocked";
      },
      key: "● may attend, ✕ blocked by the mask. Rows are queries, columns are keys.",
      open: "may attend", shut: "blocked", corner: "query \\ key",
    },
  };

  function blockedCount(visible) {
    let n = 0;
    visible.forEach(function (row) { row.forEach(function (v) { if (!v) n += 1; }); });
    return n;
  }

  function matrix(name, m, t) {
    const W = window.CourseWidgets, blocked = blockedCount(m.visible), cells = m.queries.length * m.keys.length;
    const table = W.matrixTable({
      caption: t.names[name] + ": " + t.count(blocked, cells), corner: t.corner,
      cols: m.keys, rows: m.queries, className: "widget-mask",
      cell: function (i, j) {
        const open = m.visible[i][j] === 1;
        return W.el("td", { class: open ? "widget-open" : "widget-blocked", title: open ? t.open : t.shut,
                            "data-visible": open ? "1" : "0", text: open ? "●" : "✕" });
      },
    });
    table.dataset.matrix = name;
    table.dataset.blocked = String(blocked);
    return { table: table, blocked: blocked, cells: cells };
  }

  function render(state, variant) {
    const t = state.t, d = state.data, ui = state.ui;
    const shown = d.variants[variant].map(function (name) { return matrix(name, d.matrices[name], t); });
    ui.maps.replaceChildren.apply(ui.maps, shown.map(function (s) {
      return window.CourseWidgets.el("div", { class: "widget-map" }, [s.table]);
    }));
    const blocked = shown.reduce(function (a, s) { return a + s.blocked; }, 0);
    const cells = shown.reduce(function (a, s) { return a + s.cells; }, 0);
    ui.status.textContent = t.variants[variant] + ": " + t.about[variant] + " " + t.total(shown.length, blocked, cells);
    state.root.dataset.variant = variant;
  }

  window.CourseWidgets.register("visibility", function (root, ctx) {
    const t = ctx.labels(LABELS), d = ctx.data, el = ctx.el;
    const radios = d.order.map(function (variant) {
      const input = el("input", { type: "radio", name: ctx.uid + "-variant", id: ctx.uid + "-" + variant, value: variant });
      return el("span", { class: "widget-choice" }, [input, el("label", { for: input.id, text: t.variants[variant] })]);
    });
    const ui = {
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
      maps: el("div", { class: "widget-maps" }),
    };
    const fieldset = el("fieldset", { class: "widget-controls" }, [el("legend", { text: t.legend }), ...radios]);
    const panel = el("div", {}, [ui.status, el("p", { class: "widget-label", text: t.key }), ui.maps]);
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }), fieldset, panel);
    const state = { root: root, ui: ui, t: t, data: d };
    fieldset.addEventListener("change", function (event) {
      if (event.target instanceof HTMLInputElement) render(state, event.target.value);  // a radio
    });
    /** @type {HTMLInputElement} the selector names an input */ (root.querySelector('input[value="' + d.initial + '"]')).checked = true;
    render(state, d.initial);
    window.CourseWidgets.steadyHeight(panel, d.order, function (v) { render(state, v); },
      function () { return root.dataset.variant; });
  });
})();
