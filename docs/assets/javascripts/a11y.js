// @ts-check
// Accessibility fixes for what Material for MkDocs 9.8.2 makes in the browser (checked with
// axe-core in tests/browser/test_accessibility_browser.py). Each says why; drop one when a Material
// release fixes it upstream.
//
// - Scroll boxes a keyboard cannot reach (axe: scrollable-region-focusable): a wide table's
//   .md-typeset__scrollwrap, a long formula, a notebook output that scrolls. Whatever in the
//   content scrolls gets tabindex="0", so Tab reaches it and arrow keys scroll it; boxes that
//   stop overflowing (a wider window) lose it again. On a device without hover (a phone),
//   Material removes a code block's tabindex each time the block is resized; a tabindex removed
//   is noticed and put back. (Not role="region": twenty regions of one
//   name are twenty landmarks that cannot be told apart.)
// - The search is role="dialog" without a name (aria-dialog-name): it takes the search
//   field's own label, which Material has already put in the page's language.
// - Every code block's copy button sits in a <nav class="md-code__nav">: a page with twenty
//   code blocks has twenty unnamed navigation landmarks (landmark-unique). A copy button is
//   not navigation: the box loses its landmark role (role="none", which <nav> allows).
// - A copy button's only name is its title, and Material's tooltip takes the title away while it
//   shows (on hover or focus, just when a screen reader reads the button; axe: button-name): the
//   button keeps the title's words, already in the page's language, as its aria-label.
// - A table header that holds only a formula (a column "$d_k$") is empty to assistive
//   technology once KaTeX has drawn it (axe: empty-table-header; axe does not read KaTeX's
//   MathML): it gets the formula's TeX source as visually hidden text.
(() => {
  /** @param {Element} el */
  const overflows = (el) => {
    const style = getComputedStyle(el)
    const x = /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1
    const y = /(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1
    return x || y
  }

  const scrollBoxes = () => {
    // everything in the content: HTML, and the SVG and MathML that figures and KaTeX draw
    const all = /** @type {NodeListOf<HTMLElement | SVGElement | MathMLElement>} */ (document.querySelectorAll(".md-content *"))
    for (const el of all) {
      if (el.dataset.a11yScroll === undefined && el.hasAttribute("tabindex")) continue // the site's own
      if (overflows(el)) {
        // set again each time: on a device without hover, Material's code block drops the
        // tabindex it did not add whenever the block is resized, ours included
        if (el.getAttribute("tabindex") !== "0") el.setAttribute("tabindex", "0")
        el.dataset.a11yScroll = ""
      } else if (el.dataset.a11yScroll !== undefined) {
        el.removeAttribute("tabindex")
        delete el.dataset.a11yScroll
      }
    }
  }

  const names = () => {
    const search = document.querySelector('.md-search[role="dialog"]:not([aria-label])')
    const input = document.querySelector(".md-search__input")
    if (search && input) search.setAttribute("aria-label", input.getAttribute("aria-label") || "Search")
    for (const nav of document.querySelectorAll("nav.md-code__nav:not([role])")) nav.setAttribute("role", "none")
    for (const button of document.querySelectorAll(".md-code__button[title]:not([aria-label])"))
      button.setAttribute("aria-label", button.getAttribute("title") || "")
  }

  const mathHeaders = () => {
    for (const th of /** @type {NodeListOf<HTMLTableCellElement>} */ (document.querySelectorAll(".md-typeset th:not([data-a11y-text])"))) {
      const tex = th.querySelector('.katex annotation[encoding="application/x-tex"]')
      const text = [...th.childNodes].filter((n) => !(n instanceof Element && n.matches(".arithmatex, .katex")))
        .map((n) => n.textContent).join("").trim()
      if (!tex || text) continue
      const hidden = document.createElement("span")
      hidden.className = "a11y-hidden"
      hidden.textContent = tex.textContent.trim()
      th.append(hidden)
      th.dataset.a11yText = ""
    }
  }

  const fix = () => { names(); mathHeaders(); scrollBoxes() }
  let pending = 0
  const later = () => { clearTimeout(pending); pending = setTimeout(fix, 100) }

  // Material renders (code navs, table wrappers) on document$; catch what it adds afterwards
  new MutationObserver(later).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["tabindex"] })
  window.addEventListener("resize", later)
  if (typeof document$ !== "undefined") document$.subscribe(fix)
  else document.addEventListener("DOMContentLoaded", fix)
  window.addEventListener("load", fix)
})()
