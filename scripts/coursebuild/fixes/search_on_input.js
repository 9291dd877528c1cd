// The search box searches as soon as its text changes, also when no key is released.
// Material for MkDocs 9.8.2 reads the query on "keyup" (and on focus) only, so text pasted
// from the context menu, dropped in, or finished by some phone keyboards and input methods
// (an "input" event with no key release) found nothing until another key was pressed. Each
// "input" event is passed on as a "keyup" on the box itself (it does not bubble, so the
// window's keyup listeners, such as code annotations, do not see it); Material skips a
// query it has already searched, so typing still searches once per change.
// Served by scripts/coursebuild/workarounds/material.py, which checks Material's version.
(() => {
  const relay = (event) => {
    const box = event.target
    if (!(box instanceof HTMLInputElement) || !box.matches(".md-search__input")) return
    box.dispatchEvent(new KeyboardEvent("keyup", { bubbles: false, key: "Unidentified" }))
  }
  document.addEventListener("input", relay, true)
})()
