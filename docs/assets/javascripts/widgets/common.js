// @ts-check
// What every lesson widget shares: registration, the page's language, the build's data, elements.
//
// A page holds <div class="widget" data-widget="NAME" data-scripts="FILE.js"><script
// type="application/json">…</script></div> (the [[widget:experiment.NAME]] marker,
// scripts/coursebuild/pages/widgets.py). This file, the only widget script every page loads, loads the
// scripts named in data-scripts (next to it, in order), and each of them calls
//
//   CourseWidgets.register("NAME", function (root, ctx) { … });
//
// and init runs once per such div, when the page loads (and again on Material's instant
// navigation), with ctx = { data, lang, uid, el, labels }: the JSON the build wrote, "ko" or
// "en" from <html lang>, an id prefix unique on the page, and the helpers below. The div is
// hidden until init marks it (data-state), so without JavaScript only the static figure shows.
// A top-level `var`, so a global of the page, whose type the type check reads from the code.
var CourseWidgets = (function () {
  "use strict";

  /** @returns {"ko" | "en"} */
  function lang() {
    return (document.documentElement.lang || "ko").slice(0, 2) === "en" ? "en" : "ko";
  }

  /**
   * el("button", { class: "md-button", text: "Go" }, [children]): text sets textContent
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Object<string, string>} [attrs]
   * @param {Node[]} [children]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k]; else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }

  /** @param {HTMLElement} root @returns {any} the JSON the build wrote (each widget's own shape) */
  function data(root) {
    const script = root.querySelector('script[type="application/json"]');
    return script ? JSON.parse(script.textContent) : {};
  }

  /**
   * What a widget's init gets: its div, and
   * @typedef {object} WidgetContext
   * @property {any} data the JSON the build wrote for it (each widget's own shape)
   * @property {"ko" | "en"} lang the page's language
   * @property {string} uid an id prefix unique on the page
   * @property {typeof el} el
   * @property {<T>(table: {ko: T, en: T}) => T} labels the page language's entry of a table
   */
  /** @typedef {(root: HTMLElement, ctx: WidgetContext) => void} WidgetInit */

  /** @param {string} name @param {WidgetInit} init */
  function attach(name, init) {
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.widget[data-widget="' + name + '"]')).forEach(function (root, i) {
      if (root.dataset.state) return;  // already attached (document$ fires again on instant pages)
      const l = lang();
      /** @type {WidgetContext} */
      const ctx = { data: data(root), lang: l, uid: name + "-" + i, el: el,
                    labels: function (table) { return table[l] || table.ko; } };
      try {
        init(root, ctx);
        if (!root.dataset.state) root.dataset.state = "ready";
      } catch (error) {
        root.dataset.state = "error";
        root.appendChild(el("p", { class: "widget-status", role: "status", text: String(error) }));
        throw error;
      }
    });
  }

  /** @param {string} name @param {WidgetInit} init */
  function register(name, init) {
    // Material's document$ emits on every page load and replays the last one to new subscribers
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(function () { attach(name, init); });
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { attach(name, init); });
    } else {
      attach(name, init);
    }
  }

  // ---- shared by the lesson 8 widgets (checkpoints.js, visibility.js): a matrix as a table

  // matrixTable({ caption, corner, cols, rows, cell(i, j) -> <td> }): a header row of column
  // names, then one row per entry of rows (its <th>) with a cell per column
  function matrixTable(spec) {
    const table = el("table", { class: "widget-heatmap" + (spec.className ? " " + spec.className : "") });
    table.appendChild(el("caption", { text: spec.caption }));
    const top = el("tr", {}, [el("th", { scope: "col", text: spec.corner })]);
    spec.cols.forEach(function (name) { top.appendChild(el("th", { scope: "col", text: name })); });
    table.appendChild(el("thead", {}, [top]));
    const body = el("tbody");
    spec.rows.forEach(function (name, i) {
      const tr = el("tr", {}, [el("th", { scope: "row", text: name })]);
      spec.cols.forEach(function (_, j) { tr.appendChild(spec.cell(i, j)); });
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  // one attention weight as a cell, styled as reversal.js draws them: ".73" (ten columns fit a
  // 390 px phone), 4 decimals in the title, the full value in data-w for the tests
  function weightCell(w, mirror) {
    const td = el("td", { text: w.toFixed(2).replace(/^0\./, "."), title: w.toFixed(4), "data-w": String(w) });
    td.style.setProperty("--w", w.toFixed(3));
    if (w > 0.5) td.classList.add("widget-strong");
    if (mirror) td.classList.add("widget-mirror");
    return td;
  }

  // <option>s 0 … n-1 named name(1) … name(n)
  function options(select, n, name) {
    select.replaceChildren();
    for (let i = 1; i <= n; i++) select.appendChild(el("option", { value: String(i - 1), text: name(i) }));
  }

  // steadyHeight(box, states, draw, current): keep box as tall as its tallest state, so that
  // moving between states never moves the page below it. (A lesson page is long: when a widget
  // changes height, the browser lays out everything after it again, and the redraw misses a
  // frame.) draw(s) fills box with state s, current() names the state to show again. Measured
  // once the widget is shown, and again when the box's width changes (wrapping changes heights);
  // in the next frame, since a size changed inside a ResizeObserver callback is an error. Not on
  // a phone (a box narrower than STEADY_MIN_PX): there the states stack, a reserved box would be
  // mostly empty, and the page may move.
  const STEADY_MIN_PX = 600;
  function steadyHeight(box, states, draw, current) {
    let width = -1;
    function measure() {
      const now = current();
      box.style.minHeight = "";
      if (box.clientWidth < STEADY_MIN_PX) return;
      let tallest = 0;
      states.forEach(function (s) { draw(s); tallest = Math.max(tallest, box.offsetHeight); });
      box.style.minHeight = tallest + "px";
      draw(now);
    }
    if (!window.ResizeObserver) return;
    new ResizeObserver(function () {
      if (box.clientWidth === width || box.clientWidth === 0) return;
      width = box.clientWidth;
      requestAnimationFrame(measure);
    }).observe(box);
  }

  // ---- loading: a page carries only its own widgets' scripts (data-scripts, in order)

  // where this file was loaded from: the widget scripts sit next to it
  const BASE = document.currentScript instanceof HTMLScriptElement ? document.currentScript.src.replace(/[^/]*$/, "") : "";
  const loaded = {};

  function load(file) {
    if (!loaded[file]) {
      loaded[file] = new Promise(function (resolve, reject) {
        const script = el("script", { src: BASE + file });
        script.onload = resolve;
        script.onerror = function () { reject(new Error("could not load " + file)); };
        document.head.appendChild(script);
      });
    }
    return loaded[file];
  }

  function loadScripts() {
    /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".widget[data-scripts]")).forEach(function (root) {
      root.dataset.scripts.split(" ").filter(Boolean).reduce(function (before, file) {
        return before.then(function () { return load(file); });  // the forward pass before its widget
      }, Promise.resolve()).catch(function (error) {
        root.dataset.state = "error";
        root.appendChild(el("p", { class: "widget-status", role: "status", text: String(error.message) }));
      });
    });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(loadScripts);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", loadScripts);
  else loadScripts();

  // a difference as the lessons write it: 0, 2.2 × 10⁻¹⁶ (drawing's power_of_ten), 0.936
  function difference(x) {
    if (x === 0 || Math.abs(x) >= 1e-3) return x ? x.toFixed(3) : "0";
    const p = x.toExponential(1).split("e");
    return p[0] + " × 10" + p[1].replace("+", "").replace(/./g, function (c) { return "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"["-0123456789".indexOf(c)]; });
  }

  const api = { register: register, el: el, lang: lang, data: data, difference: difference,
                matrixTable: matrixTable, weightCell: weightCell, options: options, steadyHeight: steadyHeight };
  // a misspelt CourseWidgets.name is a type error; widgets/train.js adds trainComparison (its
  // comparison rule, which its tests call)
  return /** @type {Closed<typeof api> & {trainComparison?: object}} */ (api);
})();
