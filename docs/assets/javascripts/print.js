// @ts-check
// Print every folded block open. The answer key keeps its answers in <details>, and a closed
// <details> prints only its title; CSS cannot open it. Material opens them on "beforeprint"
// as well; listening to the print media query too covers a PDF made by a headless browser
// that switches to print media without firing that event. Afterwards only the blocks opened
// here are closed again, so the page on screen is left as the reader had it.
(() => {
  /** @type {HTMLDetailsElement[]} */
  let opened = []
  const openAll = () => {
    if (opened.length) return
    opened = [.../** @type {NodeListOf<HTMLDetailsElement>} */ (document.querySelectorAll("details:not([open])"))]
    opened.forEach((el) => { el.open = true })
  }
  const restore = () => {
    opened.forEach((el) => { el.open = false })
    opened = []
  }
  window.addEventListener("beforeprint", openAll)
  window.addEventListener("afterprint", restore)
  window.matchMedia("print").addEventListener("change", (e) => (e.matches ? openAll() : restore()))
})()
