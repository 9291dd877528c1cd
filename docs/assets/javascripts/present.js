// @ts-check
// The projector view of a lesson: the lesson page itself, one section (## heading) at a time, in
// type large enough for the back of a classroom. Started with the lesson's "Projector view"
// button or by opening the page with ?present (?present=3 opens the fourth screen; a #id opens
// the screen that holds that element). Left/Right arrows, Page Up/Down, Home and End move between
// screens, Esc leaves; when a widget's control has the focus the arrow keys stay the widget's.
// Nothing is copied or re-rendered: what is not on screen is only hidden, so the widgets stay live.
//
// Every screen fits the window (issue 28: at 1920 × 1080 screens ran to 4,961 px). A section
// taller than the window is split into several screens at the boundaries of its blocks (a
// paragraph, a table, a figure, a formula, a widget), each under the section's own heading, and
// a subheading is never left at the foot of a screen. Splitting comes first because it keeps
// everything at projector size. Scaling is only for a block that cannot be split and does not
// fit even alone under its heading (a tall widget, an opened note): that block is drawn smaller
// (CSS zoom, which keeps a widget's keys and pointer working) until the screen fits. A code
// listing is neither split nor scaled: one taller than the screen scrolls in its own box at code
// size (extra.css), since 84 lines drawn to fit would be too small to read from the back of the
// room. The split is measured in the real layout of the window it is shown in, so a laptop and a
// projector each get screens that fit them; it is made again when the window's size changes,
// and when something on screen grows past the window (a note opened, a widget drawn, a figure or
// font arriving late), keeping the element in use on screen.
(() => {
  const start = /** @type {HTMLElement | null} */ (document.querySelector("[data-present-start]"))  // a <button>
  const article = document.querySelector(".md-content article")
  if (!start || !article) return
  const L = start.dataset
  const root = document.documentElement
  /** @type {HTMLElement[][]} */
  let screens = []
  let at = 0
  /** @type {HTMLElement | null} */
  let bar = null
  /** @type {HTMLElement | null} */
  let status = null
  /** @type {ResizeObserver | null} */
  let watcher = null
  let size = "", pending = 0, repacks = [] // the window size packed for; a guard against loops

  // blocks that are split between screens like a section: the self-check's questions (each
  // question a block, under the self-check's own title) and an opened note (its paragraphs,
  // figures and code under its summary; notes of 2,000 px open in lesson 8)
  const SPLIT = "section.self-check, details[open]"
  const isSplit = (el) => el.matches(SPLIT)
  // what a paragraph may lead into, and is kept with on a screen
  const DISPLAY = ".md-typeset__scrollwrap, div.arithmatex, .widget, p:has(> a.glightbox > img)"
  // a container's title (its first child: a heading, or a note's summary), repeated on each of its
  // screens as a section's heading is
  const isTitle = (el) => el.parentElement !== article && isSplit(el.parentElement) &&
    el === el.parentElement.firstElementChild && /^(H[3-6]|SUMMARY)$/.test(el.tagName)
  const titleOf = (el) => {
    const first = el.parentElement && el.parentElement.firstElementChild
    return first && first !== el && isTitle(first) ? [/** @type {HTMLElement} */ (first)] : []
  }
  const isHeading = (el) => /^H[12]$/.test(el.tagName) || isTitle(el)

  // the ## sections: the title and what comes before the first ##, then one per ## heading; each
  // a list of blocks (the children of a SPLIT container stand for it)
  const sections = () => {
    /** @type {HTMLElement[][]} */
    const out = [[]]
    for (const el of /** @type {HTMLCollectionOf<HTMLElement>} */ (article.children)) {
      if (el.tagName === "H2") out.push([])
      out[out.length - 1].push(...(isSplit(el) ? /** @type {HTMLElement[]} */ ([...el.children]) : [el]))
    }
    return out.filter((s) => s.some((el) => el.textContent.trim() || el.querySelector("img, .widget")))
  }

  /** show these blocks only (and the containers they are in)
   * @param {HTMLElement[]} els */
  const only = (els) => {
    const keep = new Set(els)
    for (const el of article.children) {
      const inner = isSplit(el) ? [...el.children] : []
      el.toggleAttribute("data-present-hidden", !keep.has(/** @type {HTMLElement} */ (el)) &&
        !inner.some((c) => keep.has(/** @type {HTMLElement} */ (c))))
      for (const c of inner) c.toggleAttribute("data-present-hidden", !keep.has(/** @type {HTMLElement} */ (c)))
    }
  }

  // the page does not scroll: what is on screen ends above the bar (the content's bottom padding
  // is the bar's height, extra.css)
  const fits = () => root.scrollHeight <= window.innerHeight

  // a figure's shape, for its projector size in extra.css (width from the height it may take)
  const shapeFigures = () => {
    for (const img of article.querySelectorAll("a.glightbox > img")) {
      const image = /** @type {HTMLImageElement} */ (img)
      if (image.naturalWidth && image.naturalHeight)
        image.style.setProperty("--present-ratio", String(image.naturalWidth / image.naturalHeight))
    }
  }

  /** Draw the last block of `screen` smaller until the screen fits (it is alone under its heading).
   * @param {HTMLElement[]} screen */
  const shrink = (screen) => {
    const block = screen[screen.length - 1]
    // a table first loses the air in its cells (extra.css), so that its text stays the body's size
    if (block.querySelector("table")) {
      block.setAttribute("data-present-compact", "")
      if (fits()) return
    }
    const base = parseFloat(getComputedStyle(block).zoom) || 1
    let k = 1
    for (let i = 0; i < 8 && !fits(); i++) {
      const over = root.scrollHeight - window.innerHeight
      const tall = block.getBoundingClientRect().height
      if (tall <= 0) break
      k = k * Math.max(0.05, (tall - over) / tall) * 0.99
      block.style.zoom = String(base * k)
    }
  }

  // split every section into screens that fit the window, in its real layout
  const pack = () => {
    size = `${window.innerWidth}x${window.innerHeight}`
    for (const el of article.querySelectorAll("[data-present-scaled]")) {
      /** @type {HTMLElement} */ (el).style.removeProperty("zoom")
      el.removeAttribute("data-present-scaled")
      el.removeAttribute("data-present-compact")
    }
    shapeFigures()
    bar && root.style.setProperty("--present-bar", `${bar.offsetHeight}px`)
    const out = []
    for (const section of sections()) {
      const head = section.find((el) => /^H[12]$/.test(el.tagName))
      const lead = head ? [head] : []
      let screen = [...section.slice(0, section.indexOf(head) + 1)]  // what comes before the title goes with it
      let blocks = 0
      const first = out.length
      for (const el of section.slice(screen.length)) {
        if (blocks === 0) screen.push(...titleOf(el).filter((t) => !screen.includes(t)))
        only([...screen, el])
        if (fits()) { screen.push(el); blocks++; continue }
        if (blocks > 0) {
          // close this screen; a subheading at its foot moves on with what it heads
          const carry = []
          while (blocks > 1 && /^H[3-6]$/.test(screen[screen.length - 1].tagName)) { carry.unshift(screen.pop()); blocks-- }
          // and so does the paragraph that leads into a table, figure, formula or widget, where
          // the two fit together
          const into = screen[screen.length - 1]
          if (!carry.length && blocks > 1 && into.tagName === "P" && el.matches(DISPLAY)) {
            only([...lead, ...titleOf(el), into, el])
            if (fits()) { carry.push(screen.pop()); blocks-- }
          }
          out.push(screen)
          screen = [...lead, ...titleOf(el).filter((t) => !carry.includes(t)), ...carry]  // and the container's title
          blocks = carry.length
          only([...screen, el])
        }
        screen.push(el)
        blocks++
        if (!fits()) {
          // too tall even alone under its heading (and the subheading that heads it): smaller
          el.setAttribute("data-present-scaled", "")
          shrink(screen)
          out.push(screen)
          screen = [...lead]
          blocks = 0
        }
      }
      if (blocks > 0 || out.length === first) out.push(screen)
    }
    screens = out
  }

  // the screen that holds `el` (the first, for a heading that several screens share)
  const screenOf = (el) => Math.max(0, screens.findIndex((s) => s.some((b) => b === el || b.contains(el))))

  // what the screen is about: the focused element when it is on screen (a note's summary, a
  // widget's control), else its first block (not the heading, which the screens of a long
  // section share), so that a screen split again never skips what was on it
  const anchor = () => {
    const screen = screens[at] || []
    const focused = document.activeElement
    if (focused && screen.some((b) => b.contains(focused)) && !/^H[12]$/.test(focused.tagName)) return focused
    return screen.find((b) => !isHeading(b)) || screen[0]
  }

  const repack = () => {
    pending = 0
    if (!document.body.classList.contains("present-mode")) return
    const now = Date.now()
    repacks = repacks.filter((t) => now - t < 2000)
    if (repacks.length >= 6) return  // something keeps changing size: keep the screens as they are
    repacks.push(now)
    const keep = anchor()
    pack()
    show(keep ? screenOf(keep) : at, false)
  }

  const later = () => { if (!pending) pending = requestAnimationFrame(repack) }

  const show = (n, focus = true) => {
    at = Math.max(0, Math.min(screens.length - 1, n))
    only(screens[at])
    status.textContent = L.labelOf.replace("{n}", String(at + 1)).replace("{total}", String(screens.length))
    const prev = /** @type {HTMLButtonElement} */ (bar.querySelector("[data-present-prev]"))
    const next = /** @type {HTMLButtonElement} */ (bar.querySelector("[data-present-next]"))
    prev.disabled = at === 0
    next.disabled = at === screens.length - 1
    const url = new URL(location.href)
    url.searchParams.set("present", String(at))
    url.hash = ""
    history.replaceState(null, "", url)
    window.scrollTo(0, 0)
    const heading = screens[at].find(isHeading)
    if (focus && heading) {
      heading.setAttribute("tabindex", "-1")
      heading.focus({ preventScroll: true })
    }
    // widgets draw when they come into view: tell them the layout changed
    window.dispatchEvent(new Event("resize"))
    if (!fits()) later()  // something changed size while it was hidden (a figure loaded)
  }

  const button = (label, attr, onClick) => {
    const b = document.createElement("button")
    b.type = "button"
    b.className = "md-button present-bar__button"
    b.setAttribute(attr, "")
    b.textContent = label
    b.addEventListener("click", onClick)
    return b
  }

  const onResize = () => { if (`${window.innerWidth}x${window.innerHeight}` !== size) later() }

  /** @param {number | Element | null} where a screen's number, or an element to show */
  const enter = (where = 0) => {
    if (document.body.classList.contains("present-mode")) return
    bar = document.createElement("nav")
    bar.className = "present-bar"
    bar.setAttribute("aria-label", L.labelNav)
    status = document.createElement("span")
    status.className = "present-bar__status"
    status.setAttribute("aria-live", "polite")
    const help = document.createElement("span")
    help.className = "present-bar__help"
    help.textContent = L.labelHelp
    bar.append(button("← " + L.labelPrev, "data-present-prev", () => show(at - 1)), status,
      button(L.labelNext + " →", "data-present-next", () => show(at + 1)), help,
      button(L.labelExit, "data-present-exit", () => leave()))
    document.body.append(bar)
    document.body.classList.add("present-mode")
    pack()
    if (screens.length === 0) { leave(); return }
    document.addEventListener("keydown", onKey)
    window.addEventListener("resize", onResize)
    // something on screen changed size (a note opened, a widget drawn, a figure or font loaded)
    watcher = new ResizeObserver(() => { if (!fits()) later() })
    for (const el of article.children) watcher.observe(el)
    for (const img of article.querySelectorAll("img")) img.addEventListener("load", later)
    // a note opened or closed is split again (or joined again) into the screens it needs
    article.addEventListener("toggle", later, true)
    show(typeof where === "number" ? where : where ? screenOf(where) : 0)
  }

  const leave = () => {
    document.body.classList.remove("present-mode")
    document.removeEventListener("keydown", onKey)
    window.removeEventListener("resize", onResize)
    if (watcher) watcher.disconnect()
    for (const img of article.querySelectorAll("img")) img.removeEventListener("load", later)
    article.removeEventListener("toggle", later, true)
    for (const el of article.querySelectorAll("[data-present-scaled]")) {
      /** @type {HTMLElement} */ (el).style.removeProperty("zoom")
      el.removeAttribute("data-present-scaled")
      el.removeAttribute("data-present-compact")
    }
    article.querySelectorAll("[data-present-hidden]").forEach((el) => el.removeAttribute("data-present-hidden"))
    for (const img of article.querySelectorAll("a.glightbox > img")) /** @type {HTMLElement} */ (img).style.removeProperty("--present-ratio")
    root.style.removeProperty("--present-bar")
    const current = screens[at] && (screens[at].find((b) => !isHeading(b)) || screens[at][0])
    screens = []
    if (bar) bar.remove()
    const url = new URL(location.href)
    url.searchParams.delete("present")
    history.replaceState(null, "", url)
    start.focus()
    if (current) current.scrollIntoView()
  }

  // keys a focused control keeps for itself (sliders, pickers, text fields, radio groups, and a
  // box that scrolls, such as a code listing taller than the screen: a11y.js marks those)
  const ownsKeys = (el) => el && el !== document.body && el.closest(
    "input, select, textarea, [contenteditable], [role=slider], [role=radio], [role=radiogroup], " +
    "[role=listbox], [role=spinbutton], [role=tablist], [role=grid], .widget [tabindex], [data-a11y-scroll]")

  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return
    if (e.key === "Escape") { e.preventDefault(); leave(); return }
    if (ownsKeys(e.target)) return
    const moves = { ArrowRight: 1, ArrowDown: 0, PageDown: 1, ArrowLeft: -1, PageUp: -1 }
    if (e.key === "Home") { e.preventDefault(); show(0) }
    else if (e.key === "End") { e.preventDefault(); show(screens.length - 1) }
    else if (moves[e.key]) { e.preventDefault(); show(at + moves[e.key]) }
  }

  start.addEventListener("click", () => enter(0))
  const asked = new URL(location.href).searchParams.get("present")
  if (asked !== null) {
    // once the page has its figures, fonts, formulas and widgets, so that the first split holds
    const go = () => document.fonts.ready.then(() => {
      const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)))
      enter(target || parseInt(asked, 10) || 0)
    })
    if (document.readyState === "complete") go()
    else window.addEventListener("load", go, { once: true })
  }
})()
