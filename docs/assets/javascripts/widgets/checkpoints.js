// @ts-check
// Lesson 8 widget: the cross-attention on the lesson's example at points of the build's training
// run, on a slider, so the reader watches the anti-diagonal appear.
//
// The page holds [[widget:reversal.checkpoints]]: the data is results["widgets"]["checkpoints"]
// of the reversal experiment (tutorial_code/experiments/reversal.py, class Checkpoints): for each
// point, the samples seen, the validation exact match, the greedy output and the cross-attention
// of every layer and head, all computed by PyTorch. The widget only shows them; the one thing it
// computes is the mean over heads. It starts on the last point, the trained model of the
// lesson's static figures. Without JavaScript the static figure and table tell the same story.
(function () {
  "use strict";

  const W = CourseWidgets;  // widgets/common.js, loaded before this file

  const LABELS = {
    ko: {
      title: "학습하는 동안 자라는 반대 대각선",
      point: "학습 지점", layer: "층", head: "헤드",
      layerName: function (l) { return l + "층"; }, headName: function (h) { return "헤드 " + h; },
      headMean: "헤드 평균",
      position: function (k, n, s) { return "지점 " + k + "/" + n + ": 학습 샘플 " + s.toLocaleString("ko-KR") + "개를 본 뒤"; },
      summary: function (exact, mirror) {
        return "검증 완전 일치율(교사 강요) " + (exact * 100).toFixed(1) + "%, 이 입력의 거울 위치 가중치 " + mirror.toFixed(2);
      },
      output: "이 지점의 그리디 출력", right: "바르게 뒤집었습니다.", wrong: "아직 바르게 뒤집지 못했습니다.",
      caption: function (l, h) {
        return l + "층 " + h + "의 크로스 어텐션 (이 입력). 행은 디코더가 읽은 토큰, 열은 원문 토큰, 테두리는 거울 위치입니다.";
      },
      corner: "읽음 \\ 원문",
    },
    en: {
      title: "The anti-diagonal growing during training",
      point: "Training point", layer: "Layer", head: "Head",
      layerName: function (l) { return "layer " + l; }, headName: function (h) { return "head " + h; },
      headMean: "head mean",
      position: function (k, n, s) { return "point " + k + " of " + n + ": after " + s.toLocaleString("en-US") + " training samples"; },
      summary: function (exact, mirror) {
        return "validation exact match (teacher forcing) " + (exact * 100).toFixed(1) + "%, weight on this input's mirrored positions " + mirror.toFixed(2);
      },
      output: "Greedy output at this point", right: "Reversed correctly.", wrong: "Not reversed correctly yet.",
      caption: function (l, h) {
        return "Cross-attention of layer " + l + ", " + h + " (this input). Rows: the token the decoder read; columns: the source tokens; outlined: the mirrored position.";
      },
      corner: "read \\ source",
    },
  };

  // the cross-attention shown: one head, or the mean over heads (head = -1), (L_t, L_s)
  function weights(point, layer, head) {
    const heads = point.cross[layer];
    if (head >= 0) return heads[head];
    return heads[0].map(function (row, i) {
      return row.map(function (_, j) {
        let sum = 0;
        heads.forEach(function (h) { sum += h[i][j]; });
        return sum / heads.length;
      });
    });
  }

  function mirrorWeight(point, layer, head) {
    const m = point.mirror_weight[layer];
    if (head >= 0) return m[head];
    return m.reduce(function (a, b) { return a + b; }, 0) / m.length;
  }

  function build(root, ctx, t) {
    const el = ctx.el, uid = ctx.uid, n = ctx.data.checkpoints.length;
    const ui = {
      slider: el("input", { id: uid + "-point", type: "range", min: "0", max: String(n - 1), step: "1",
                            "aria-describedby": uid + "-position" }),
      position: el("output", { id: uid + "-position", for: uid + "-point", class: "widget-position" }),
      layer: el("select", { id: uid + "-layer" }), head: el("select", { id: uid + "-head" }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
      output: el("ol", { class: "widget-tokens widget-output", "aria-label": t.output }),
      verdict: el("p", { class: "widget-verdict" }),
      map: el("div", { class: "widget-map" }),
    };
    const slider = el("div", { class: "widget-controls widget-slider" }, [
      el("label", { for: ui.slider.id, text: t.point }), ui.slider, ui.position]);
    const pickers = el("div", { class: "widget-controls" }, [
      el("label", { for: ui.layer.id, text: t.layer }), ui.layer,
      el("label", { for: ui.head.id, text: t.head }), ui.head]);
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }), slider, pickers, ui.status,
      el("p", { class: "widget-label", text: t.output }), ui.output, ui.verdict, ui.map);
    return ui;
  }

  function render(state) {
    const ui = state.ui, t = state.t, d = state.data;
    const k = Number(ui.slider.value), layer = Number(ui.layer.value), head = Number(ui.head.value);
    const point = d.checkpoints[k];
    ui.slider.setAttribute("aria-valuetext", t.position(k + 1, d.checkpoints.length, point.samples));
    ui.position.textContent = t.position(k + 1, d.checkpoints.length, point.samples);
    ui.status.textContent = t.summary(point.valid_exact_match, mirrorWeight(point, layer, head));
    ui.output.replaceChildren();
    point.greedy_output.forEach(function (name) { ui.output.appendChild(W.el("li", { "data-token": name, text: name })); });
    ui.verdict.textContent = point.correct ? t.right : t.wrong;
    const w = weights(point, layer, head);
    const mirror = {};
    d.mirror.forEach(function (rc) { mirror[rc[0] + "," + rc[1]] = true; });
    const headName = head >= 0 ? t.headName(head + 1) : t.headMean;
    ui.map.replaceChildren(W.matrixTable({
      caption: t.caption(layer + 1, headName), corner: t.corner, cols: d.src_tokens, rows: d.tgt_tokens,
      cell: function (i, j) { return W.weightCell(w[i][j], mirror[i + "," + j]); },
    }));
  }

  W.register("checkpoints", function (root, ctx) {
    const t = ctx.labels(LABELS), d = ctx.data, first = d.checkpoints[0];
    const state = { ui: build(root, ctx, t), t: t, data: d };
    const ui = state.ui;
    W.options(ui.layer, first.cross.length, t.layerName);
    W.options(ui.head, first.cross[0].length, t.headName);
    ui.head.insertBefore(ctx.el("option", { value: "-1", text: t.headMean }), ui.head.firstChild);
    // the start: the point the lesson's static figures show (the trained model), last layer, head mean
    ui.slider.value = String(d.initial);
    ui.layer.value = String(first.cross.length - 1);
    ui.head.value = "-1";
    [ui.slider, ui.layer, ui.head].forEach(function (c) {
      c.addEventListener(c === ui.slider ? "input" : "change", function () { render(state); });
    });
    render(state);
  });
})();
