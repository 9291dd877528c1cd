// @ts-check
// Self-checked questions ([[self-check:N]], scripts/coursebuild/content/selfcheck.py draws the forms).
// Each <form class="self-check__item"> is checked on submit, in the page, offline:
//   data-kind="number": the typed number (a comma or a Korean decimal point "," accepted, a
//     trailing "%" dropped) is right when |typed - data-answer| <= data-tolerance;
//   data-kind="choice": the radio with data-correct is right; the chosen choice's explanation
//     (<template data-choice>) is shown, right or wrong.
// What the reader got right is kept in localStorage only, under "course-self-check:<lang>:lesson-N"
// ({question id: true}), and the section's "Clear my progress" button removes it.
(() => {
  const WORDS = {
    ko: {
      right: "맞습니다.", wrong: "아직 아닙니다.", empty: "답을 먼저 넣으세요.", choose: "보기를 하나 고르세요.",
      notNumber: "숫자로 적어 주세요 (예: 0.25).", off: (t) => `정답과 ${t} 넘게 차이가 납니다. 다시 해 보세요.`,
      progress: (k, n) => `${n}문제 중 ${k}문제를 맞혔습니다.`, cleared: "기록을 지웠습니다.",
      noStorage: "이 브라우저는 기록을 저장할 수 없어, 맞힌 문제가 이 페이지를 닫으면 사라집니다.",
    },
    en: {
      right: "Right.", wrong: "Not yet.", empty: "Enter an answer first.", choose: "Choose one of the choices.",
      notNumber: "Write a number (for example 0.25).", off: (t) => `That is more than ${t} away from the answer. Try again.`,
      progress: (k, n) => `${k} of ${n} right.`, cleared: "Your progress is cleared.",
      noStorage: "This browser cannot store your progress, so it is gone when you close the page.",
    },
  }

  const store = {
    read(key) {
      try { return JSON.parse(localStorage.getItem(key) || "{}") || {} } catch (e) { return null }
    },
    write(key, value) {
      try { localStorage.setItem(key, JSON.stringify(value)); return true } catch (e) { return false }
    },
    clear(key) {
      try { localStorage.removeItem(key) } catch (e) { /* nothing stored */ }
    },
  }

  const parseNumber = (text) => {
    let t = text.trim().replace(/\s+/g, "").replace(/[−–]/g, "-").replace(/%$/, "")
    if (/^-?\d+,\d+$/.test(t)) t = t.replace(",", ".")   // a decimal comma
    t = t.replace(/,(?=\d{3}(\D|$))/g, "")                // thousands separators
    return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? Number(t) : NaN
  }

  const show = (box, ok, message, explanation) => {
    box.hidden = false
    box.className = `self-check__feedback ${ok === true ? "is-right" : ok === false ? "is-wrong" : ""}`
    box.innerHTML = ""
    const p = document.createElement("p")
    p.className = "self-check__verdict"
    p.textContent = message
    box.appendChild(p)
    if (explanation) box.appendChild(explanation.content.cloneNode(true))
    if (window.renderMathInElement) {
      renderMathInElement(box, { delimiters: [{ left: "\\(", right: "\\)", display: false },
                                              { left: "\\[", right: "\\]", display: true }], throwOnError: false })
    }
  }

  const setup = (section) => {
    const lang = section.dataset.lang === "ko" ? "ko" : "en"
    const w = WORDS[lang]
    const key = `course-self-check:${section.dataset.selfCheck}`
    const forms = [...section.querySelectorAll("form.self-check__item")]
    const progress = section.querySelector(".self-check__progress")
    let memory = store.read(key)
    const persistent = memory !== null
    memory = memory || {}

    const update = () => {
      const right = forms.filter((f) => memory[f.id] === true).length
      progress.textContent = w.progress(right, forms.length) + (persistent ? "" : " " + w.noStorage)
      forms.forEach((f) => f.classList.toggle("is-done", memory[f.id] === true))
    }

    const check = (form) => {
      const box = form.querySelector(".self-check__feedback")
      let ok
      if (form.dataset.kind === "number") {
        const input = form.querySelector("input[name=answer]")
        if (!input.value.trim()) return show(box, null, w.empty)
        const typed = parseNumber(input.value)
        if (Number.isNaN(typed)) return show(box, null, w.notNumber)
        const tol = Number(form.dataset.tolerance)
        ok = Math.abs(typed - Number(form.dataset.answer)) <= tol * (1 + 1e-9)
        input.setAttribute("aria-invalid", ok ? "false" : "true")
        show(box, ok, ok ? w.right : `${w.wrong} ${w.off(tol.toLocaleString(lang))}`,
             ok ? form.querySelector("template.self-check__explain") : null)
      } else {
        const chosen = form.querySelector("input[type=radio]:checked")
        if (!chosen) return show(box, null, w.choose)
        ok = chosen.hasAttribute("data-correct")
        show(box, ok, ok ? w.right : w.wrong,
             form.querySelector(`template.self-check__why[data-choice="${chosen.value}"]`))
      }
      if (ok) {
        memory[form.id] = true
        store.write(key, memory)
      }
      update()
    }

    forms.forEach((form) => form.addEventListener("submit", (event) => {
      event.preventDefault()
      check(form)
    }))
    section.querySelector(".self-check__clear").addEventListener("click", () => {
      store.clear(key)
      memory = {}
      forms.forEach((form) => {
        form.reset()
        form.querySelectorAll("[aria-invalid]").forEach((el) => el.removeAttribute("aria-invalid"))
        const box = form.querySelector(".self-check__feedback")
        box.hidden = true
        box.innerHTML = ""
      })
      update()
      progress.textContent = `${w.cleared} ${progress.textContent}`
    })
    update()
  }

  const start = () => /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("section.self-check")).forEach((s) => {
    if (!s.dataset.ready) { s.dataset.ready = "1"; setup(s) }
  })
  if (window.document$) document$.subscribe(start)
  else document.addEventListener("DOMContentLoaded", start)
})()
