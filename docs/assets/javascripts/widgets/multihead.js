// @ts-check
// Lesson 5 widget: pick the width D and the head count h (a divisor of D). The parameter count
// 4D² + 4D does not move with h; what moves is which columns of X W_Q each head owns.
//
// Data (tutorial_code/experiments/pagedata/widgets_architecture.py): { D, h, d_choices, checks }. The page
// computes every number itself; `checks` only feed the browser tests. Every shown number also
// sits in data-value at full precision, so that the tests compare it with Python.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "D와 헤드 수를 바꿔 보기",
      D: "모델 폭 D", h: "헤드 수 h",
      d_k: "헤드 하나의 폭 d_k = D / h",
      params: "멀티헤드 어텐션의 파라미터 4D² + 4D",
      perHead: function (D, dk, h) {
        return "헤드마다 W_Q는 " + D + " × " + dk + "이고, " + h + "개를 나란히 붙이면 " + D + " × " + D + "입니다.";
      },
      columns: "헤드마다 맡는 XW_Q의 열",
      head: function (i, a, b) { return "헤드 " + i + ": 열 " + a + "–" + b; },
      more: function (n) { return "… 나머지 헤드 " + n + "개도 " + "같은 폭으로 이어집니다."; },
      status: function (D, h, p) { return "D = " + D + ", h = " + h + ": 파라미터 " + p + "개"; },
    },
    en: {
      title: "Change D and the number of heads",
      D: "Model width D", h: "Heads h",
      d_k: "Width of one head d_k = D / h",
      params: "Parameters of multi-head attention 4D² + 4D",
      perHead: function (D, dk, h) {
        return "Each head's W_Q is " + D + " × " + dk + "; " + h + " of them side by side make " + D + " × " + D + ".";
      },
      columns: "Columns of XW_Q each head owns",
      head: function (i, a, b) { return "head " + i + ": columns " + a + "–" + b; },
      more: function (n) { return "… and " + n + " more heads of the same width."; },
      status: function (D, h, p) { return "D = " + D + ", h = " + h + ": " + p + " parameters"; },
    },
  };
  const LISTED = 16;  // heads listed by name; more would push the page down for no new idea

  function divisors(n) {
    const out = [];
    for (let i = 1; i <= n; i++) if (n % i === 0) out.push(i);
    return out;
  }

  CourseWidgets.register("multihead", function (root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, data = ctx.data, uid = ctx.uid;
    const fmt = new Intl.NumberFormat(ctx.lang === "en" ? "en-US" : "ko-KR");
    const ui = {
      D: el("select", { id: uid + "-D", name: "D" }),
      h: el("select", { id: uid + "-h", name: "h" }),
      d_k: el("output", { "data-key": "d_k" }),
      params: el("output", { "data-key": "params" }),
      formula: el("p", { class: "widget-formula" }),
      perHead: el("p", {}),
      bar: el("div", { class: "widget-columns", "aria-hidden": "true" }),
      list: el("ul", { class: "widget-list", "aria-label": t.columns }),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    data.d_choices.forEach(function (D) { ui.D.appendChild(el("option", { value: String(D), text: String(D) })); });
    ui.D.value = String(data.D);
    root.replaceChildren(
      el("p", { class: "widget-title", text: t.title }),
      el("div", { class: "widget-controls" }, [
        el("label", { for: ui.D.id, text: t.D }), ui.D, el("label", { for: ui.h.id, text: t.h }), ui.h]),
      el("dl", { class: "widget-readout" }, [
        el("dt", { text: t.d_k }), el("dd", {}, [ui.d_k]),
        el("dt", { text: t.params }), el("dd", {}, [ui.params])]),
      ui.formula, ui.perHead,
      el("p", { class: "widget-label", text: t.columns }), ui.bar, ui.list, ui.status);

    // the head select lists the divisors of D; keep h when it still divides D
    function heads(keep) {
      const D = Number(ui.D.value), choices = divisors(D);
      const h = choices.indexOf(keep) >= 0 ? keep : choices.filter(function (c) { return c <= keep; }).pop();
      ui.h.replaceChildren.apply(ui.h, choices.map(function (c) { return el("option", { value: String(c), text: String(c) }); }));
      ui.h.value = String(h);
    }

    function render() {
      const D = Number(ui.D.value), h = Number(ui.h.value), dk = D / h;
      const params = 4 * D * D + 4 * D;
      ui.d_k.dataset.value = String(dk);
      ui.d_k.textContent = fmt.format(dk);
      ui.params.dataset.value = String(params);
      ui.params.textContent = fmt.format(params);
      ui.formula.textContent = "4 · " + fmt.format(D) + "² + 4 · " + fmt.format(D) + " = " +
        fmt.format(4 * D * D) + " + " + fmt.format(4 * D) + " = " + fmt.format(params);
      ui.perHead.textContent = t.perHead(fmt.format(D), fmt.format(dk), h);
      const segments = [], items = [];
      for (let i = 0; i < h; i++) {
        const seg = el("span", { text: h <= LISTED ? String(i + 1) : "" });
        seg.style.flexGrow = "1";
        segments.push(seg);
        if (i < LISTED) items.push(el("li", { "data-key": "head", "data-first": String(i * dk),
                                              "data-last": String((i + 1) * dk - 1), text: t.head(i + 1, i * dk, (i + 1) * dk - 1) }));
      }
      if (h > LISTED) items.push(el("li", { text: t.more(h - LISTED) }));
      ui.bar.replaceChildren.apply(ui.bar, segments);
      ui.list.replaceChildren.apply(ui.list, items);
      root.dataset.heads = String(h);
      ui.status.textContent = t.status(fmt.format(D), h, fmt.format(params));
    }

    ui.D.addEventListener("change", function () { heads(Number(ui.h.value)); render(); });
    ui.h.addEventListener("change", render);
    heads(data.h);
    render();
  });
})();
