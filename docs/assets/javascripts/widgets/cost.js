// @ts-check
// Lesson 9 widgets: an L² calculator (a document of L tokens: entries and float32 memory of one
// L × L matrix, of a whole model, the ratio to L/2, and attention-score work apart from the work
// of projections and the feed-forward network), and a KV-cache step counter (work per
// generation step with and without the cache).
//
// Data: widgets_architecture.cost_widgets() (n2, kvcache). The page computes every number;
// `checks` (the package's module sizes, and counts measured while tc.generate ran) only feed the
// browser tests. Every shown number also sits in data-value at full precision.
(function () {
  "use strict";

  const MIB = 1048576, MAX_N = 1048576;  // 2^20 tokens: far beyond the lesson's lengths
  const LABELS = {
    ko: {
      n2Title: "문서 길이로 어텐션 비용 계산하기",
      N: "문서 길이 L (토큰)", model: "모델",
      models: { course: "이 강좌의 기준 모델", base: "2017 논문의 기본 모델", gpt2: "GPT-2 small" },
      sizes: function (m) { return "D " + m.D + ", 헤드 " + m.h + "개, 층 수 N = " + m.layers + ", d_ff " + m.d_ff; },
      one: "점수 행렬 하나 (헤드 하나, 층 하나)",
      all: function (h, n) { return "모델 전체 (헤드 " + h + "개 × 어텐션 하위 층 " + n + "개)"; },
      entries: "개", memory: "float32 메모리",
      ratio: function (half) { return "길이가 절반(L/2 = " + half + ")일 때와 비교한 칸 수"; },
      work: "층 하나의 곱셈-덧셈 수",
      cols: ["계산", "곱셈-덧셈", "L/2 대비", "비율"],
      parts: { scores: "어텐션 점수 QKᵀ와 가중합", projections: "투영 W_Q, W_K, W_V, W_O", ffn: "피드포워드 신경망" },
      times: function (x) { return x + "배"; },
      bad: function (v) { return "L에는 2부터 1,048,576까지의 짝수를 넣으세요(절반 길이와 비교합니다). 지금 입력: “" + v + "”"; },
      n2Status: function (n, mem) { return "L = " + n + ": 점수 행렬 하나에 " + mem; },
      kvTitle: "생성 단계마다 하는 일: KV 캐시가 있을 때와 없을 때",
      t: "생성 단계 t", prev: "이전 단계", next: "다음 단계",
      rows: { cache: "KV 캐시 사용", no_cache: "캐시 없음" },
      kvCols: [null, "KV 캐시 사용", "캐시 없음"], kvCorner: "계산한 양",
      kvRows: { positions: "이번 단계에 계산하는 위치", entries: "이번 단계의 점수 (헤드 하나, 층 하나)",
                total_positions: "1단계부터 계산한 위치의 합", total_entries: "1단계부터 매긴 점수의 합" },
      kvNote: function (t, c, n) {
        return "캐시를 쓰면 투영과 피드포워드 신경망은 새 위치 하나만 계산하지만, 어텐션은 여전히 새 쿼리로 저장된 키 " + t +
          "개 모두의 점수를 냅니다. 점수는 단계마다 t에 비례해 늘고, 1단계부터 합치면 " + c +
          "개로 t²에 비례합니다. 캐시가 없으면 단계마다 t × t개, 합계 " + n + "개입니다.";
      },
      kvStatus: function (t, c, n) { return "t = " + t + ": 이번 단계 점수 " + c + "개(캐시) 대 " + n + "개(캐시 없음)"; },
    },
    en: {
      n2Title: "Work out the attention cost from a document's length",
      N: "Document length L (tokens)", model: "Model",
      models: { course: "This course's reference model", base: "The 2017 paper's base model", gpt2: "GPT-2 small" },
      sizes: function (m) { return "D " + m.D + ", " + m.h + " heads, N = " + m.layers + " layers, d_ff " + m.d_ff; },
      one: "One score matrix (one head, one layer)",
      all: function (h, n) { return "The whole model (" + h + " heads × " + n + " attention sub-layers)"; },
      entries: " entries", memory: "float32 memory",
      ratio: function (half) { return "Entries against half the length (L/2 = " + half + ")"; },
      work: "Multiply-adds of one layer",
      cols: ["Computation", "Multiply-adds", "Against L/2", "Share"],
      parts: { scores: "Attention scores QKᵀ and weighted sum", projections: "Projections W_Q, W_K, W_V, W_O", ffn: "Feed-forward network" },
      times: function (x) { return x + "×"; },
      bad: function (v) { return "Type an even number from 2 to 1,048,576 for L (it is compared with half its length); you typed “" + v + "”."; },
      n2Status: function (n, mem) { return "L = " + n + ": one score matrix takes " + mem; },
      kvTitle: "The work of each generation step, with and without the KV cache",
      t: "Generation step t", prev: "Previous step", next: "Next step",
      rows: { cache: "With the KV cache", no_cache: "Without a cache" },
      kvCols: [null, "With the KV cache", "Without a cache"], kvCorner: "Work",
      kvRows: { positions: "Positions computed this step", entries: "Scores this step (one head, one layer)",
                total_positions: "Positions since step 1", total_entries: "Scores since step 1" },
      kvNote: function (t, c, n) {
        return "With the cache the projections and the feed-forward network compute only the new position, but attention " +
          "still scores the new query against all " + t + " stored keys: the scores per step grow in proportion to t, and since step 1 they add up to " +
          c + ", in proportion to t². Without a cache each step scores t × t entries, " + n + " in all.";
      },
      kvStatus: function (t, c, n) { return "t = " + t + ": scores this step " + c + " (cache) against " + n + " (no cache)"; },
    },
  };

  function show(node, value, text) {
    node.dataset.value = String(value);
    node.textContent = text;
    return node;
  }

  function bytes(b, fmt) {
    return b >= 1024 * MIB ? fmt(b / (1024 * MIB)) + " GiB" : fmt(b / MIB) + " MiB";
  }

  // what one layer multiplies and adds for a sequence of n tokens (n is L, or L/2 for the ratio column)
  function work(n, m) {
    return { scores: 2 * n * n * m.D, projections: n * 4 * m.D * m.D, ffn: n * 2 * m.D * m.d_ff };
  }

  CourseWidgets.register("n2", function (root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, d = ctx.data, uid = ctx.uid;
    const loc = ctx.lang === "en" ? "en-US" : "ko-KR";
    const int = new Intl.NumberFormat(loc).format;
    const dec = function (x) { return new Intl.NumberFormat(loc, { maximumFractionDigits: x < 10 ? 2 : x < 100 ? 1 : 0 }).format(x); };
    const pct = new Intl.NumberFormat(loc, { style: "percent", maximumFractionDigits: 1 }).format;
    const ui = {
      N: el("input", { id: uid + "-N", type: "number", min: "2", max: String(MAX_N), step: "2", value: String(d.L),
                       inputmode: "numeric", "aria-describedby": uid + "-status" }),
      model: el("select", { id: uid + "-model" }), sizes: el("p", { class: "widget-label" }),
      entries: el("output", { "data-key": "entries" }), mib: el("output", { "data-key": "mib" }),
      modelEntries: el("output", { "data-key": "model_entries" }), modelMib: el("output", { "data-key": "model_mib" }),
      ratioLabel: el("dt", {}), ratio: el("output", { "data-key": "entries_ratio" }), allLabel: el("dt", {}),
      body: el("tbody"),
      status: el("p", { id: uid + "-status", class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    // in the labels' order (smallest model first): the results' JSON keeps its keys sorted
    Object.keys(t.models).filter(function (name) { return name in d.models; }).forEach(function (name) {
      ui.model.appendChild(el("option", { value: name, text: t.models[name] }));
    });
    ui.model.value = d.model;
    const head = el("tr", {}, t.cols.map(function (c) { return el("th", { scope: "col", text: c }); }));
    root.replaceChildren(el("p", { class: "widget-title", text: t.n2Title }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.N.id, text: t.N }), ui.N,
                                               el("label", { for: ui.model.id, text: t.model }), ui.model]),
      ui.sizes, ui.status,
      el("dl", { class: "widget-readout" }, [
        el("dt", { text: t.one }), el("dd", {}, [ui.entries, el("span", { text: " · " }), ui.mib]),
        ui.allLabel, el("dd", {}, [ui.modelEntries, el("span", { text: " · " }), ui.modelMib]),
        ui.ratioLabel, el("dd", {}, [ui.ratio])]),
      el("p", { class: "widget-label", text: t.work }),
      el("div", { class: "widget-map" }, [el("table", { class: "widget-table" }, [el("thead", {}, [head]), ui.body])]));

    function render() {
      const text = ui.N.value.trim(), N = Number(text), m = d.models[ui.model.value];
      if (!/^[0-9]+$/.test(text) || N < 2 || N > MAX_N || N % 2) {
        ui.N.setAttribute("aria-invalid", "true");
        ui.status.textContent = t.bad(ui.N.value);
        root.dataset.valid = "false";
        return;
      }
      ui.N.removeAttribute("aria-invalid");
      root.dataset.valid = "true";
      const E = N * N, all = m.h * m.attention * E;  // m.attention: counted from the model in Python
      ui.sizes.textContent = t.sizes(m);
      show(ui.entries, E, int(E) + t.entries);
      show(ui.mib, 4 * E / MIB, bytes(4 * E, dec));
      ui.allLabel.textContent = t.all(m.h, m.attention);
      show(ui.modelEntries, all, int(all) + t.entries);
      show(ui.modelMib, 4 * all / MIB, bytes(4 * all, dec));
      ui.ratioLabel.textContent = t.ratio(int(N / 2));
      show(ui.ratio, E / ((N / 2) * (N / 2)), t.times(dec(E / ((N / 2) * (N / 2)))));
      const full = work(N, m), half = work(N / 2, m);
      const sum = full.scores + full.projections + full.ffn;
      ui.body.replaceChildren.apply(ui.body, ["scores", "projections", "ffn"].map(function (part) {
        return el("tr", { "data-part": part }, [el("th", { scope: "row", text: t.parts[part] }),
          show(el("td", { "data-key": "work" }), full[part], int(full[part])),
          show(el("td", { "data-key": "work_ratio" }), full[part] / half[part], t.times(dec(full[part] / half[part]))),
          show(el("td", { "data-key": "share" }), full[part] / sum, pct(full[part] / sum))]);
      }));
      ui.status.textContent = t.n2Status(int(N), bytes(4 * E, dec));
    }

    ui.N.addEventListener("input", render);
    ui.model.addEventListener("change", render);
    render();
  });

  CourseWidgets.register("kvcache", function (root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, d = ctx.data, uid = ctx.uid;
    const int = new Intl.NumberFormat(ctx.lang === "en" ? "en-US" : "ko-KR").format;
    const ui = {
      t: el("input", { id: uid + "-t", type: "range", min: "1", max: String(d.N), step: "1", value: String(d.t) }),
      tOut: el("output", { for: uid + "-t", "data-key": "t" }),
      prev: el("button", { type: "button", class: "md-button", text: t.prev }),
      next: el("button", { type: "button", class: "md-button", text: t.next }),
      body: el("tbody"), bars: el("div", { class: "widget-bars", "aria-hidden": "true" }), note: el("p", {}),
      status: el("p", { class: "widget-status", role: "status", "aria-live": "polite" }),
    };
    const head = el("tr", {}, t.kvCols.map(function (c, i) { return el("th", { scope: "col", text: i ? c : t.kvCorner }); }));
    root.replaceChildren(el("p", { class: "widget-title", text: t.kvTitle }),
      el("div", { class: "widget-controls" }, [el("label", { for: ui.t.id, text: t.t }), ui.t, ui.tOut]),
      el("div", { class: "widget-controls" }, [ui.prev, ui.next]),
      el("div", { class: "widget-map" }, [el("table", { class: "widget-table" }, [el("thead", {}, [head]), ui.body])]),
      ui.bars, ui.note, ui.status);

    // step t reads t tokens (t runs to d.N, the steps the widget offers): with the cache only the newest goes through the layers and its one
    // query meets t keys; without it all t positions run again and score a t × t matrix
    function step(t, cached) {
      return cached ? { positions: 1, entries: t, total_positions: t, total_entries: t * (t + 1) / 2 }
                    : { positions: t, entries: t * t, total_positions: t * (t + 1) / 2,
                        total_entries: t * (t + 1) * (2 * t + 1) / 6 };
    }

    function render() {
      const s = Number(ui.t.value), rows = { cache: step(s, true), no_cache: step(s, false) };
      show(ui.tOut, s, String(s));
      // a row per quantity, a column per mode: three columns fit a phone
      ui.body.replaceChildren.apply(ui.body, ["positions", "entries", "total_positions", "total_entries"].map(function (k) {
        return el("tr", {}, [el("th", { scope: "row", text: t.kvRows[k] })].concat(["cache", "no_cache"].map(function (mode) {
          return show(el("td", { "data-key": k, "data-mode": mode }), rows[mode][k], int(rows[mode][k]));
        })));
      }));
      // this step's scores, drawn to one scale: t against t²
      ui.bars.replaceChildren.apply(ui.bars, ["cache", "no_cache"].map(function (mode) {
        const bar = el("span", { class: "widget-bar-" + mode });
        bar.style.width = Math.max(0.5, 100 * rows[mode].entries / rows.no_cache.entries) + "%";
        return el("div", {}, [el("span", { class: "widget-label", text: t.rows[mode] }), bar]);
      }));
      ui.note.textContent = t.kvNote(int(s), int(rows.cache.total_entries), int(rows.no_cache.total_entries));
      ui.status.textContent = t.kvStatus(s, int(rows.cache.entries), int(rows.no_cache.entries));
    }

    function move(by) {
      ui.t.value = String(Math.min(d.N, Math.max(1, Number(ui.t.value) + by)));
      render();
    }
    ui.prev.addEventListener("click", function () { move(-1); });
    ui.next.addEventListener("click", function () { move(1); });
    ui.t.addEventListener("input", render);
    render();
  });
})();
