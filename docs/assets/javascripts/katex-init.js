// @ts-check
// Render math with the vendored KaTeX on every page Material shows. Material emits the
// page on `document$` (again after each instant navigation, should that be enabled).
// pymdownx.arithmatex (generic: true) wraps formulas in .arithmatex elements as \( \)
// and \[ \]; only those elements are searched, so a "$" in prose or code stays text.
// Notebook Markdown cells (mkdocs-jupyter) keep $ and $$ and are rendered as well.
document$.subscribe(({ body }) => {
  const render = (el, delimiters) =>
    renderMathInElement(el, { delimiters, throwOnError: false })
  const tex = [
    { left: "\\(", right: "\\)", display: false },
    { left: "\\[", right: "\\]", display: true },
  ]
  const dollars = [
    { left: "$$", right: "$$", display: true },
    { left: "$", right: "$", display: false },
    ...tex,
  ]
  body.querySelectorAll(".arithmatex").forEach((el) => render(el, tex))
  body.querySelectorAll(".jp-RenderedMarkdown").forEach((el) => render(el, dollars))
})
