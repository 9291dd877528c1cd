"""Writing text with a decoder: the text it learns from, its tokens, and how it picks the next one.

* :mod:`.corpus` — the course's own prose in Korean and English, split into training and
  validation by document;
* :mod:`.tokenizer` — byte-level BPE (train, encode, decode), as GPT-2 and tiktoken do it;
* :mod:`.sampling` — greedy decoding, temperature, top-k and top-p.

Greedy generation with a key/value cache is ``tutorial_code.generate``. The page's
``tokenizer.js`` and ``sampling.js`` follow these modules' names and order. No experiment imports
this package yet, so a change here retrains nothing.
"""
