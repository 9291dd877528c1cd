// @ts-check
// Lesson 9's "measure on this device": a button times greedy generation with and without the
// KV cache in the reader's browser, at the lengths lesson 9 timed PyTorch at, and draws
// milliseconds per token against the number of tokens beside the build's PyTorch curve.
//
// Data: pagedata/cost.py kv_measure(): the model's sizes (the decoder-only model lesson 9
// timed), the lengths, the repeats, the seed, and PyTorch's ms per token on the build's
// machine (device, threads); colours: the lesson figure's roles (cache "scaled", no cache
// "raw"). The timing runs in a Web Worker (../generation_worker.js), one generation at a time;
// the page takes the median of each length and mode. Every number shown also sits in
// data-value at full precision.
(function () {
  "use strict";

  const LABELS = {
    ko: {
      title: "이 기기에서 재기: KV 캐시가 있을 때와 없을 때의 생성 시간",
      intro: function (m, n) {
        return "위에서 잰 모델과 같은 크기의 디코더 전용 모델(D " + m.d_model + ", 헤드 " + m.n_heads + "개, 층 수 N = " +
          m.n_layers + ", 파라미터 " + n + "개를 무작위 값으로 채운 모델)로 이 브라우저의 JavaScript가 토큰을 생성하는 시간을 잽니다. " +
          "점선은 이 사이트를 만든 기기에서 PyTorch로 잰 값입니다.";
      },
      measure: "이 기기에서 재기", stop: "멈추기", again: "다시 재기",
      x: "생성한 토큰 수 T (로그 눈금)", y: "토큰당 시간 (ms, 로그 눈금)",
      plot: "생성한 토큰 수에 따른 토큰당 생성 시간: 이 브라우저와 PyTorch, KV 캐시를 쓸 때와 쓰지 않을 때",
      series: {
        js_cache: "이 브라우저, KV 캐시 사용", js_no_cache: "이 브라우저, 캐시 없음",
        py_cache: "PyTorch(사이트를 만든 기기), KV 캐시 사용", py_no_cache: "PyTorch(사이트를 만든 기기), 캐시 없음",
      },
      caption: "토큰당 시간 (ms, 중앙값)", corner: "T", notYet: "—",
      device: function (p) { return "사이트를 만든 기기: " + p.device + ", 스레드 " + p.threads + "개, PyTorch " + p.torch; },
      idle: function (lengths, r) {
        return "버튼을 누르면 토큰을 " + lengths + "개씩 KV 캐시를 쓰고 또 쓰지 않고 생성해 시간을 잽니다. 길이와 방식마다 " +
          r + "번 재어 중앙값을 그립니다. 캐시 없이 길게 생성하면 몇 초 걸립니다.";
      },
      running: function (N, cached, r, R) {
        return "재는 중: T = " + N + ", " + (cached ? "KV 캐시 사용" : "캐시 없음") + ", " + R + "번 중 " + r + "번째";
      },
      done: function (N, x, ms, py) {
        return "측정을 마쳤습니다. T = " + N + "에서 이 브라우저는 KV 캐시로 " + x + "배 빨랐고, KV 캐시를 쓰면 토큰 하나에 " + ms +
          " ms 걸렸습니다(사이트를 만든 기기의 PyTorch는 " + py + " ms).";
      },
      stopped: "멈췄습니다. 다 잰 길이까지만 그렸습니다.",
      failed: function (message) { return "잴 수 없었습니다: " + message; },
    },
    en: {
      title: "Measure on this device: generation time with and without the KV cache",
      intro: function (m, n) {
        return "Times your browser's JavaScript generating tokens with a decoder-only model of the same size as the model timed above (D " +
          m.d_model + ", " + m.n_heads + " heads, N = " + m.n_layers + " layers, " + n + " parameters drawn at random). " +
          "The dashed lines are PyTorch, measured on the machine that made this site.";
      },
      measure: "Measure on this device", stop: "Stop", again: "Measure again",
      x: "tokens generated T (log scale)", y: "time per token (ms, log scale)",
      plot: "Time per generated token against the number of tokens: this browser and PyTorch, with and without the KV cache",
      series: {
        js_cache: "This browser, with the KV cache", js_no_cache: "This browser, no cache",
        py_cache: "PyTorch (the machine that made this site), with the KV cache", py_no_cache: "PyTorch (the machine that made this site), no cache",
      },
      caption: "Time per token (ms, median)", corner: "T", notYet: "—",
      device: function (p) { return "The machine that made this site: " + p.device + ", " + p.threads + " thread(s), PyTorch " + p.torch; },
      idle: function (lengths, r) {
        return "Press the button to generate " + lengths + " tokens with the cache and without it, timing each. " +
          "Each length and mode is timed " + r + " times and the median drawn. Long generations without the cache take a few seconds.";
      },
      running: function (N, cached, r, R) {
        return "Measuring: T = " + N + ", " + (cached ? "with the KV cache" : "no cache") + ", run " + r + " of " + R;
      },
      done: function (N, x, ms, py) {
        return "Done. At T = " + N + " the KV cache made this browser " + x + " times faster, with the cache taking " + ms +
          " ms per token (PyTorch on the machine that made this site: " + py + " ms).";
      },
      stopped: "Stopped. Only the lengths measured in full are drawn.",
      failed: function (message) { return "Could not measure: " + message; },
    },
  };
  const SERIES = ["js_cache", "js_no_cache", "py_cache", "py_no_cache"];
  const W = 360, H = 240, LEFT = 54, RIGHT = 12, TOP = 10, BOTTOM = 44;

  function median(xs) {
    const s = xs.slice().sort(function (a, b) { return a - b; }), m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  /** @param {HTMLElement} root @param {any} ctx */
  function init(root, ctx) {
    const t = ctx.labels(LABELS), el = ctx.el, d = ctx.data, M = CourseMath, uid = ctx.uid;
    const loc = ctx.lang === "en" ? "en-US" : "ko-KR";
    const num = function (x) { return new Intl.NumberFormat(loc, { maximumSignificantDigits: 3 }).format(x); };
    const colour = { cache: d.colours.cache.hex, no_cache: d.colours.no_cache.hex };
    const py = d.pytorch;
    /** @type {Object<string, Object<number, number>>} ms per token by series and length */
    const ms = { js_cache: {}, js_no_cache: {}, py_cache: {}, py_no_cache: {} };
    py.rows.forEach(function (r) { ms.py_cache[r.N] = r.cache_ms; ms.py_no_cache[r.N] = r.no_cache_ms; });
    const ui = {
      button: el("button", { type: "button", class: "md-button", text: t.measure, "aria-describedby": uid + "-status" }),
      status: el("p", { id: uid + "-status", class: "widget-status", role: "status", "aria-live": "polite" }),
      plot: M.svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": t.plot, class: "widget-kv-plot",
                           style: "width: 100%; max-width: 34rem; height: auto; display: block;" }),
      legend: el("ul", { class: "widget-legend", style: "list-style: none; margin: 0.4em 0; padding: 0;" }),
      body: el("tbody"),
    };
    const head = el("tr", {}, [el("th", { scope: "col", text: t.corner })].concat(d.lengths.map(function (N) {
      return el("th", { scope: "col", text: String(N) });
    })));
    root.replaceChildren(el("p", { class: "widget-title", text: t.title }),
      el("p", { text: t.intro(d.config, new Intl.NumberFormat(loc).format(d.n_parameters)) }),
      el("div", { class: "widget-controls" }, [ui.button]), ui.status, ui.plot, ui.legend,
      el("p", { class: "widget-label", text: t.device(py) }),
      el("div", { class: "widget-map" }, [el("table", { class: "widget-table" }, [
        el("caption", { text: t.caption }), el("thead", {}, [head]), ui.body])]));

    // one series' look: this browser solid with circles, PyTorch dashed with squares
    function style(name) {
      return { stroke: colour[name.slice(3)], dash: name.indexOf("py_") === 0 ? "5 3" : "", square: name.indexOf("py_") === 0 };
    }
    function marker(name, x, y) {
      const s = style(name);
      return s.square ? M.svg("rect", { x: x - 3, y: y - 3, width: 6, height: 6, fill: s.stroke })
                      : M.svg("circle", { cx: x, cy: y, r: 3.2, fill: s.stroke });
    }

    SERIES.forEach(function (name) {
      const s = style(name), swatch = M.svg("svg", { width: 34, height: 10, viewBox: "0 0 34 10", "aria-hidden": "true" });
      swatch.appendChild(M.svg("line", { x1: 1, y1: 5, x2: 33, y2: 5, stroke: s.stroke, "stroke-width": 2, "stroke-dasharray": s.dash }));
      swatch.appendChild(marker(name, 17, 5));
      ui.legend.appendChild(el("li", { style: "display: flex; align-items: center; gap: 0.5em;" }, [swatch, el("span", { text: t.series[name] })]));
    });

    function draw() {
      // a log axis shows only positive times (a timer that rounds a very short run to 0 gives a
      // cell in the table, not a point); with nothing to draw yet, 0.1 to 100 ms
      const shown = function (name, N) { return N in ms[name] && ms[name][N] > 0 && isFinite(ms[name][N]); };
      const values = [];
      SERIES.forEach(function (name) { d.lengths.forEach(function (N) { if (shown(name, N)) values.push(ms[name][N]); }); });
      const lo = values.length ? Math.floor(Math.log10(Math.min.apply(null, values))) : -1;
      const hi = values.length ? Math.ceil(Math.log10(Math.max.apply(null, values))) : 2;
      const top = hi > lo ? hi : lo + 1;
      const x0 = Math.log2(d.lengths[0]), x1 = Math.log2(d.lengths[d.lengths.length - 1]);
      const X = function (N) { return LEFT + (W - LEFT - RIGHT) * (Math.log2(N) - x0) / Math.max(1e-9, x1 - x0); };
      const Y = function (v) { return TOP + (H - TOP - BOTTOM) * (top - Math.log10(v)) / (top - lo); };
      const nodes = [];
      const text = function (attrs, s) { const n = M.svg("text", Object.assign({ fill: "currentColor", "font-size": 11 }, attrs)); n.textContent = s; return n; };
      // axes, ticks and their labels: powers of ten up, the measured lengths across
      nodes.push(M.svg("line", { x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM, stroke: "currentColor", "stroke-width": 1 }));
      nodes.push(M.svg("line", { x1: LEFT, y1: TOP, x2: LEFT, y2: H - BOTTOM, stroke: "currentColor", "stroke-width": 1 }));
      for (let p = lo; p <= top; p++) {
        const y = Y(Math.pow(10, p));
        nodes.push(M.svg("line", { x1: LEFT, y1: y, x2: W - RIGHT, y2: y, stroke: "currentColor", "stroke-opacity": 0.15 }));
        nodes.push(text({ x: LEFT - 5, y: y + 4, "text-anchor": "end" }, num(Math.pow(10, p))));
      }
      d.lengths.forEach(function (N) {
        nodes.push(M.svg("line", { x1: X(N), y1: H - BOTTOM, x2: X(N), y2: H - BOTTOM + 4, stroke: "currentColor" }));
        nodes.push(text({ x: X(N), y: H - BOTTOM + 16, "text-anchor": "middle" }, String(N)));
      });
      nodes.push(text({ x: LEFT + (W - LEFT - RIGHT) / 2, y: H - 6, "text-anchor": "middle" }, t.x));
      nodes.push(text({ x: -(TOP + (H - TOP - BOTTOM) / 2), y: 13, "text-anchor": "middle", transform: "rotate(-90)" }, t.y));
      SERIES.forEach(function (name) {
        const s = style(name), pts = d.lengths.filter(function (N) { return shown(name, N); });
        if (pts.length > 1) {
          nodes.push(M.svg("polyline", { fill: "none", stroke: s.stroke, "stroke-width": 2, "stroke-dasharray": s.dash,
                                         points: pts.map(function (N) { return X(N) + "," + Y(ms[name][N]); }).join(" ") }));
        }
        pts.forEach(function (N) { nodes.push(marker(name, X(N), Y(ms[name][N]))); });
      });
      ui.plot.replaceChildren.apply(ui.plot, nodes);
      ui.body.replaceChildren.apply(ui.body, SERIES.map(function (name) {
        return el("tr", { "data-series": name }, [el("th", { scope: "row", text: t.series[name] })].concat(d.lengths.map(function (N) {
          const td = el("td", { "data-n": String(N), text: N in ms[name] ? num(ms[name][N]) : t.notYet });
          if (N in ms[name]) td.dataset.value = String(ms[name][N]);
          return td;
        })));
      }));
    }

    /** @type {Worker | null} */
    let worker = null;
    /** @type {Object<string, number[]>} seconds by mode and length while measuring */
    let runs = {};

    function finish(state, message) {
      if (worker) worker.terminate();
      worker = null;
      root.dataset.state = state;
      ui.button.textContent = t.again;
      ui.status.textContent = message;
    }

    function start() {
      ms.js_cache = {};
      ms.js_no_cache = {};
      runs = {};
      draw();
      root.dataset.state = "measuring";
      ui.button.textContent = t.stop;
      ui.status.textContent = t.running(d.lengths[0], true, 0, d.repeats);
      try {
        worker = new Worker(root.dataset.worker || new URL("../generation_worker.js", SCRIPT_BASE).href);
      } catch (error) {
        finish("failed", t.failed(String(error)));
        return;
      }
      worker.onerror = function (e) { e.preventDefault(); finish("failed", t.failed(e.message || "worker error")); };
      worker.onmessage = function (event) {
        const m = event.data;
        if (m.type === "timed") {
          const key = (m.cache ? "js_cache" : "js_no_cache") + ":" + m.N;
          (runs[key] = runs[key] || []).push(m.seconds);
          const next = m.cache ? { N: m.N, cache: false, r: m.repeat } : nextTask(m.N, m.repeat);
          if (next) ui.status.textContent = t.running(next.N, next.cache, next.r, d.repeats);
          if (!m.cache && m.repeat === d.repeats) {  // this length is done in both modes
            ms.js_cache[m.N] = 1000 * median(runs["js_cache:" + m.N]) / m.N;
            ms.js_no_cache[m.N] = 1000 * median(runs["js_no_cache:" + m.N]) / m.N;
            draw();
          }
        } else if (m.type === "done") {
          const N = d.lengths[d.lengths.length - 1];
          finish("measured", t.done(N, num(ms.js_no_cache[N] / ms.js_cache[N]), num(ms.js_cache[N]),
                                    N in ms.py_cache ? num(ms.py_cache[N]) : t.notYet));
        }
      };
      worker.postMessage({ type: "start", config: d.config, lengths: d.lengths, repeats: d.repeats, seed: d.seed });
    }

    // the generation after the one without the cache at length N, repeat r
    function nextTask(N, r) {
      if (r < d.repeats) return { N: N, cache: true, r: r + 1 };
      const i = d.lengths.indexOf(N);
      return i + 1 < d.lengths.length ? { N: d.lengths[i + 1], cache: true, r: 1 } : null;
    }

    ui.button.addEventListener("click", function () {
      if (worker) finish("stopped", t.stopped);
      else start();
    });
    ui.status.textContent = t.idle(d.lengths.join(", "), d.repeats);
    draw();
  }

  // where this file was loaded from: the worker sits one folder up
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const SCRIPT_BASE = script ? script.src : document.baseURI;

  CourseWidgets.register("kvmeasure", init);
})();
