// @ts-check
// Lesson 7 widget: D and d_ff → the parameters of one encoder block (attention, feed-forward
// network, two LayerNorms) and their shares; a post-LN / pre-LN switch on the block diagram.
//
// Data: widgets_architecture.block() { D, d_ff, h, presets, checks }. The page counts with the
// formulas of lesson 7 (4D² + 4D, 2·D·d_ff + d_ff + D, 2 · 2D); `checks` are
// tc.count_parameters of real EncoderLayers and only feed the browser tests.
(function () {
  "use strict";

  const MAX = 65536;  // a width beyond any published model; larger input is a typing slip
  const LABELS = {
    ko: {
      title: "블록의 파라미터와 층 정규화를 놓는 자리",
      D: "모델 폭 D", d_ff: "피드포워드 안쪽 폭 d_ff",
      presets: { base: "논문의 기본 블록", reference: "이 강좌의 기준 블록" },
      parts: { attention: "멀티헤드 어텐션", feed_forward: "피드포워드 신경망", norms: "층 정규화 2개", total: "합계" },
      cols: ["구성 요소", "파라미터", "비율"],
      bad: function (name, v) { return name + "에는 1부터 65,536까지의 자연수를 넣으세요. 지금 입력: “" + v + "”"; },
      status: function (total, ffn) { return "합계 " + total + "개, 피드포워드 신경망 비율 " + ffn; },
      placement: "층 정규화를 놓는 자리", post: "Post-LN (2017 논문)", pre: "Pre-LN (GPT-2)",
      flow: {
        input: "입력 x", attention: "멀티헤드 어텐션", ffn: "피드포워드 신경망", add: "더하기 (잔차 연결)",
        norm: "층 정규화", output: "다음 블록으로", final: "마지막 블록 뒤에만: 층 정규화",
      },
      note: {
        post: "더한 결과가 매번 층 정규화를 지납니다. 입력에서 출력까지 이어지는 잔차 경로가 하위 층마다 한 번씩 정규화에 끊깁니다.",
        pre: "층 정규화는 하위 층으로 들어가는 가지에만 있고, 잔차 경로는 더하기만 이어집니다. 블록의 파라미터 수는 같고, 모델 끝에 층 정규화 하나(파라미터 2D개)가 더 붙습니다.",
      },
    },
    en: {
      title: "The block's parameters, and where the LayerNorm goes",
      D: "Model width D", d_ff: "Inner width of the feed-forward network d_ff",
      presets: { base: "The paper's base block", reference: "This course's reference block" },
      parts: { attention: "Multi-head attention", feed_forward: "Feed-forward network", norms: "Two LayerNorms", total: "Total" },
      cols: ["Part", "Parameters", "Share"],
      bad: function (name, v) { return "Type a whole number from 1 to 65,536 for " + name + "; you typed “" + v + "”."; },
      status: function (total, ffn) { return "total " + total + ", feed-forward share " + ffn; },
      placement: "LayerNorm placement", post: "Post-LN (2017 paper)", pre: "Pre-LN (GPT-2)",
      flow: {
        input: "input x", attention: "multi-head attention", ffn: "feed-forward network", add: "add (residual connection)",
        norm: "layer normalization", output: "to the next block", final: "after the last block only: layer normalization",
      },
      note: {
        post: "Every sum goes through a LayerNorm: the residual path from input to output is cut by a normalization after each sub-layer.",
        pre: "The LayerNorm sits only on the branch into each sub-layer; the residual path is nothing but additions. The block has the same parameter count; the model gets one more LayerNorm (2D parameters) at its end.",
      },
    },
  };
  // the block as a list of steps, in the order of tutorial_code/layers.py (SublayerConnection)
  const FLOWS = {
    post: ["input", "attention", "add", "norm", "ffn", "add", "norm", "output"],
    pre: ["input", "norm", "attention", "add", "norm", "ffn", "add", "output", "final"],
  };

  function counts(D, dff) {
    const c = { attention: 4 * D * D + 4 * D, feed_forward: 2 * D * dff + dff + D, norms: 2 * 2 * D };
    c.total = c.attention + c.feed_forward + c.norms;
    return c;
  }

  CourseWidgets.register("block", function (root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, d = ctx.data, uid = ctx.uid;
    const fmt = new Intl.NumberFormat(ctx.lang === "en" ? "en-US" : "ko-KR");
    const pct = new Intl.NumberFormat(ctx.lang === "en" ? "en-US" : "ko-KR", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
    function number(id, value, step) {
      return el("input", { id: id, type: "number", min: "1", max: String(MAX), step: String(step), value: String(value),
                           inputmode: "numeric", "aria-describedby": uid + "-status" });
    }
    const ui = {
      D: number(uid + "-D", d.D, 8), dff: number(uid + "-dff", d.d_ff, 64),
      body: el("tbody"), bar: el("div", { class: "widget-shares", "aria-hidden": "true" }),
      flow: el("ol", { class: "widget-flow" }), note: el("p", {}),
      status: el("p", { id: uid + "-status", class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    const presets = Object.keys(d.presets).map(function (name) {
      const b = el("button", { type: "button", class: "md-button", "data-preset": name,
                               text: t.presets[name] + " (" + d.presets[name].join(", ") + ")" });
      b.addEventListener("click", function () {
        ui.D.value = String(d.presets[name][0]);
        ui.dff.value = String(d.presets[name][1]);
        render();
      });
      return b;
    });
    const radios = ["post", "pre"].map(function (kind) {
      const r = el("input", { type: "radio", name: uid + "-ln", id: uid + "-" + kind, value: kind });
      r.addEventListener("change", draw);
      return r;
    });
    radios[0].checked = true;  // the 2017 paper's placement, as the course's default model
    const head = el("tr", {}, t.cols.map(function (c) { return el("th", { scope: "col", text: c }); }));
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.D.id, text: t.D }), ui.D,
                                               el("label", { for: ui.dff.id, text: t.d_ff }), ui.dff]),
      el("div", { class: "widget-controls" }, presets), ui.status,
      el("table", { class: "widget-table" }, [el("thead", {}, [head]), ui.body]), ui.bar,
      el("fieldset", { class: "widget-controls" }, [el("legend", { text: t.placement }),
        ...radios.map(function (r) { return el("span", {}, [r, el("label", { for: r.id, text: t[r.value] })]); })]),
      ui.flow, ui.note);

    // a whole number in 1..MAX, or null (and the input is marked)
    function read(input, name) {
      const text = input.value.trim(), v = Number(text);
      const ok = /^[0-9]+$/.test(text) && v >= 1 && v <= MAX;
      if (ok) input.removeAttribute("aria-invalid"); else input.setAttribute("aria-invalid", "true");
      return ok ? v : (ui.status.textContent = t.bad(name, input.value), null);
    }

    function render() {
      const D = read(ui.D, "D"), dff = D === null ? null : read(ui.dff, "d_ff");
      if (D === null || dff === null) { root.dataset.valid = "false"; return; }
      root.dataset.valid = "true";
      const c = counts(D, dff);
      ui.body.replaceChildren();
      ui.bar.replaceChildren();
      ["attention", "feed_forward", "norms", "total"].forEach(function (part) {
        const share = c[part] / c.total;
        ui.body.appendChild(el("tr", { "data-part": part }, [
          el("th", { scope: "row", text: t.parts[part] }),
          el("td", { "data-key": part, "data-value": String(c[part]), text: fmt.format(c[part]) }),
          el("td", { "data-key": part + "_share", "data-value": String(share), text: pct.format(share) })]));
        if (part !== "total") {
          const seg = el("span", { class: "widget-share-" + part });
          seg.style.width = (100 * share) + "%";
          ui.bar.appendChild(seg);
        }
      });
      ui.status.textContent = t.status(fmt.format(c.total), pct.format(c.feed_forward / c.total));
    }

    function draw() {
      const kind = radios[1].checked ? "pre" : "post";
      ui.flow.replaceChildren.apply(ui.flow, FLOWS[kind].map(function (step) {
        return el("li", { "data-step": step, class: "widget-flow-" + step, text: t.flow[step] });
      }));
      ui.note.textContent = t.note[kind];
      root.dataset.placement = kind;
    }

    ui.D.addEventListener("input", render);
    ui.dff.addEventListener("input", render);
    render();
    draw();
  });
})();
