// @ts-check
// The projector view of a lesson: the lesson page itself, one section (## heading) per screen,
// in type large enough for the back of a classroom. Started with the lesson's "Projector view"
// button or by opening the page with ?present (?present=3 opens the fourth screen; a #id opens
// that section's screen). Left/Right arrows, Page Up/Down, Home and End move between screens,
// Esc leaves; when a widget's control has the focus the arrow keys stay the widget's. Nothing is
// copied or re-rendered: sections not on screen are only hidden, so the widgets stay live.
(() => {
  const start = /** @type {HTMLElement | null} */ (document.querySelector("[data-present-start]"))  // a <button>
  const article = document.querySelector(".md-content article")
  if (!start || !article) return
  const L = start.dataset
  let screens = [], at = 0, bar = null, status = null

  const group = () => {
    // screen 0: the title and what comes before the first ##; then one screen per ## section
    const out = [[]]
    for (const el of article.children) {
      if (el.tagName === "H2") out.push([])
      out[out.length - 1].push(el)
    }
    return out.filter((s) => s.some((el) => el.textContent.trim() || el.querySelector("img, .widget")))
  }

  const show = (n, focus = true) => {
    at = Math.max(0, Math.min(screens.length - 1, n))
    screens.forEach((els, i) => els.forEach((el) => el.toggleAttribute("data-present-hidden", i !== at)))
    status.textContent = L.labelOf.replace("{n}", String(at + 1)).replace("{total}", String(screens.length))
    bar.querySelector("[data-present-prev]").disabled = at === 0
    bar.querySelector("[data-present-next]").disabled = at === screens.length - 1
    const url = new URL(location.href)
    url.searchParams.set("present", String(at))
    url.hash = ""
    history.replaceState(null, "", url)
    window.scrollTo(0, 0)
    const heading = screens[at].find((el) => /^H[12]$/.test(el.tagName))
    if (focus && heading instanceof HTMLElement) {
      heading.setAttribute("tabindex", "-1")
      heading.focus({ preventScroll: true })
    }
    // widgets draw when they come into view: tell them the layout changed
    window.dispatchEvent(new Event("resize"))
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

  const enter = (n = 0) => {
    if (document.body.classList.contains("present-mode")) return
    screens = group()
    if (screens.length === 0) return
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
    document.addEventListener("keydown", onKey)
    show(n)
  }

  const leave = () => {
    document.body.classList.remove("present-mode")
    document.removeEventListener("keydown", onKey)
    article.querySelectorAll("[data-present-hidden]").forEach((el) => el.removeAttribute("data-present-hidden"))
    const current = screens[at] && screens[at][0]
    bar.remove()
    const url = new URL(location.href)
    url.searchParams.delete("present")
    history.replaceState(null, "", url)
    start.focus()
    if (current) current.scrollIntoView()
  }

  // keys a focused control keeps for itself (sliders, pickers, text fields, radio groups)
  const ownsKeys = (el) => el && el !== document.body && el.closest(
    "input, select, textarea, [contenteditable], [role=slider], [role=radio], [role=radiogroup], " +
    "[role=listbox], [role=spinbutton], [role=tablist], [role=grid], .widget [tabindex]")

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
    const list = group()
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)))
    let n = parseInt(asked, 10) || 0
    if (target) n = Math.max(0, list.findIndex((els) => els.some((el) => el === target || el.contains(target))))
    enter(n)
  }
})()
