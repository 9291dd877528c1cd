// Prompt cards: copy button (in progress).
