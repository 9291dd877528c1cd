// @ts-check
// Prompt cards (teaching/prompt-cards.md): each .prompt-card gets a picker listing the
// page's .prompt-code blocks (plus "no code") and a copy button. Copying puts on the
// clipboard the card's prompt, a blank line and the chosen code in a ```python fence.
// Pages without cards are left alone. Hooked to Material's `document$`, like katex-init.js.
(() => {
  const STRINGS = {
    ko: {
      picker: "붙일 코드",
      none: "코드 없음",
      copy: "프롬프트 복사",
      copied: "복사했습니다. 도우미 입력 창에 붙여 넣고 〔 〕를 채우세요.",
      failed: "복사하지 못했습니다. 프롬프트를 직접 선택해 복사하세요.",
    },
    en: {
      picker: "Code to attach",
      none: "No code",
      copy: "Copy prompt",
      copied: "Copied. Paste it into the assistant and fill in the 〔 〕.",
      failed: "Could not copy; select the prompt and copy it by hand.",
    },
  }
  const SLOT = /〔[^〔〕]*〕/g

  const strings = () => {
    const lang = (document.documentElement.lang || "en").toLowerCase().split("-")[0]
    return STRINGS[lang] || STRINGS.en
  }

  // the text a code block holds, as Material's own copy button reads it
  const codeOf = (block) => {
    const code = block.querySelector("pre code") || block.querySelector("code")
    return code ? code.textContent.replace(/\s+$/, "") : ""
  }

  const promptOf = (card) => {
    const text = card.querySelector(".prompt-text")
    return text ? text.textContent.trim() : ""
  }

  const compose = (card, codeId, blocks) => {
    const prompt = promptOf(card)
    const block = blocks.find((b) => b.dataset.codeId === codeId)
    return block ? `${prompt}\n\n\`\`\`python\n${codeOf(block)}\n\`\`\`` : prompt
  }

  // plain http (not localhost) has no navigator.clipboard: fall back to a selected textarea
  const copyWithTextarea = (text) => {
    const area = document.createElement("textarea")
    area.value = text
    area.setAttribute("readonly", "")
    area.style.position = "fixed"
    area.style.top = "0"
    area.style.left = "-9999px"
    document.body.appendChild(area)
    area.focus()
    area.select()
    let ok = false
    try {
      ok = document.execCommand("copy")
    } catch (err) {
      ok = false
    }
    area.remove()
    return ok
  }

  const copyText = async (text) => {
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function") {
      try {
        await navigator.clipboard.writeText(text)
        return true
      } catch (err) {
        // permission refused or document not focused: try the old way
      }
    }
    return copyWithTextarea(text)
  }

  // mark the 〔placeholders〕 of a prompt; a slot may span several nodes (a glossary
  // tooltip <abbr> inside it), so each one is wrapped through a Range over the text
  // (text node, offset) of a character offset into root's text; a start that falls on a
  // node boundary goes to the next node, an end to the previous one
  /**
   * @param {Node} root
   * @param {number} offset
   * @param {boolean} isEnd
   * @returns {[Node, number] | null}
   */
  const textPoint = (root, offset, isEnd) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    while (walker.nextNode()) {
      const length = walker.currentNode.nodeValue.length
      if (offset < length || (isEnd && offset === length)) return [walker.currentNode, offset]
      offset -= length
    }
    return null
  }

  const markSlots = (root) => {
    const slots = Array.from(root.textContent.matchAll(SLOT)).reverse()  // last first
    slots.forEach((m) => {
      const start = textPoint(root, m.index, false)
      const end = textPoint(root, m.index + m[0].length, true)
      if (!start || !end) return
      const range = document.createRange()
      range.setStart(...start)
      range.setEnd(...end)
      const slot = document.createElement("span")
      slot.className = "prompt-slot"
      try {
        range.surroundContents(slot)
      } catch (err) {
        // the slot cuts through an element: leave it unmarked
      }
    })
  }

  let counter = 0

  const setUp = (card, blocks, t) => {
    if (card.dataset.ready) return
    card.dataset.ready = "true"
    const text = card.querySelector(".prompt-text")
    if (text) markSlots(text)

    const id = `prompt-card-picker-${++counter}`
    const controls = document.createElement("div")
    controls.className = "prompt-card__controls"

    const label = document.createElement("label")
    label.htmlFor = id
    label.textContent = t.picker

    const picker = document.createElement("select")
    picker.id = id
    picker.className = "prompt-card__picker"
    picker.append(new Option(t.none, ""))
    blocks.forEach((b) => picker.append(new Option(b.dataset.codeTitle || b.dataset.codeId, b.dataset.codeId)))
    const preset = card.dataset.defaultCode || ""
    picker.value = blocks.some((b) => b.dataset.codeId === preset) ? preset : ""

    const button = document.createElement("button")
    button.type = "button"
    button.className = "md-button prompt-card__copy"
    button.textContent = t.copy

    const status = document.createElement("span")
    status.className = "prompt-card__status"
    status.setAttribute("role", "status")
    status.setAttribute("aria-live", "polite")

    let timer
    button.addEventListener("click", async () => {
      const ok = await copyText(compose(card, picker.value, blocks))
      status.textContent = ok ? t.copied : t.failed
      status.classList.toggle("prompt-card__status--failed", !ok)
      clearTimeout(timer)
      timer = setTimeout(() => (status.textContent = ""), ok ? 4000 : 10000)
    })

    controls.append(label, picker, button, status)
    card.append(controls)
  }

  document$.subscribe(({ body }) => {
    const cards = body.querySelectorAll(".prompt-card")
    if (!cards.length) return
    const blocks = Array.from(body.querySelectorAll(".prompt-code[data-code-id]"))
    const t = strings()
    cards.forEach((card) => setUp(card, blocks, t))
  })
})()
