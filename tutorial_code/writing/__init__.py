"""Writing text with a decoder: how the next token is chosen (:mod:`.sampling`).

Greedy decoding (``tutorial_code.generate``) always takes the most probable token; a model that
writes also samples: temperature, top-k and top-p change the distribution the next token is drawn
from. The page's ``sampling.js`` follows this package's names and order.
"""
