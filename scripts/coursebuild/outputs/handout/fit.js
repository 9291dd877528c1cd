// The handout page's last step before printing (coursebuild/outputs/handout_print.py runs it
// with page.evaluate): set the mathematics with the vendored KaTeX, wait for the fonts and the
// figure, then fit the page. A student handout has two fixed A4 sheets (class "fixed"): the type
// shrinks in steps of 2 % (CSS variable --s) until no sheet's content overflows it and every
// answer box (class "box") keeps at least the height of --box-min; the boxes share what is left
// of their sheet. Before that the figure gets the greatest height (--fig) that still fits.
// Returns {ok, scale, figure_mm, why}.
async () => {
  const tex = [
    { left: "\\(", right: "\\)", display: false },
    { left: "\\[", right: "\\]", display: true },
  ]
  // trust: the blanks use \htmlClass; strict off: their circled numbers are text; output "html":
  // no hidden MathML copy, whose TeX source would print as text
  document.querySelectorAll(".arithmatex").forEach((el) =>
    renderMathInElement(el, { delimiters: tex, throwOnError: false, trust: true, strict: "ignore", output: "html" }))
  await document.fonts.ready
  await Promise.all([...document.images].map((img) => img.decode().catch(() => null)))
  const root = document.documentElement
  const probe = document.createElement("div")
  probe.style.height = "var(--box-min)"
  document.body.appendChild(probe)
  const sheets = [...document.querySelectorAll(".sheet.fixed")]
  const boxes = [...document.querySelectorAll(".sheet.fixed .box")]
  const fits = () => {
    const least = probe.getBoundingClientRect().height
    const over = sheets.filter((s) => s.scrollHeight > s.clientHeight + 1)
    const small = boxes.filter((b) => b.getBoundingClientRect().height + 0.5 < least)
    return over.length ? `sheet ${sheets.indexOf(over[0]) + 1} overflows`
      : small.length ? `${small.length} answer box(es) too small` : ""
  }
  // the figure as large as the first sheet allows (--fig, its greatest height), then the type
  let why = ""
  for (const fig of sheets.length ? [130, 115, 100, 90] : [90]) {
    root.style.setProperty("--fig", `${fig}mm`)
    if (fits()) continue
    probe.remove()
    await document.fonts.ready
    return { ok: true, scale: 1, figure_mm: fig }
  }
  for (let scale = 1; scale >= 0.7 - 1e-9; scale -= 0.02) {
    root.style.setProperty("--s", scale.toFixed(2))
    why = fits()
    if (!why) {
      probe.remove()
      await document.fonts.ready
      return { ok: true, scale: Number(scale.toFixed(2)), figure_mm: 90 }
    }
  }
  probe.remove()
  return { ok: sheets.length === 0, scale: 0.7, why }
}
