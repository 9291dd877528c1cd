"""Two sequence classifiers for the first-cell task (:mod:`tutorial_code.tasks.first_cell`).

* :class:`FirstCellTransformer`: embedding × √D plus, optionally, a learned position embedding,
  one post-LN :class:`~tutorial_code.layers.EncoderLayer`, **mean pooling** over positions, then a
  linear classifier. Mean pooling (not BERT's "first" pooling) keeps the classifier from reading
  position 0 for free: the first cell has weight 1/L in the mean, so to classify well the model
  has to move it into every position, and attention to the first cell is the direct way to do that.
* :class:`LSTMClassifier`: an LSTM that reads the ±1 cells one by one and classifies from its
  last hidden state; it has to carry the first cell through L steps.
"""

from __future__ import annotations

import math

from torch import Tensor, nn

from .layers import EncoderLayer
from .position import LearnedPositionalEmbedding


class FirstCellTransformer(nn.Module):
    """Tokens (B, L) → class logit (B,) and attention weights (B, h, L, L).

    Embedding × √D (+ learned position) → one encoder layer → mean over positions → linear.
    """

    def __init__(self, d_model: int, n_heads: int, d_ff: int, length: int, position: bool = True):
        super().__init__()
        self.tokens = nn.Embedding(2, d_model)
        self.scale = math.sqrt(d_model)  # as in the paper, section 3.4
        self.position = LearnedPositionalEmbedding(length, d_model) if position else None
        self.layer = EncoderLayer(d_model, n_heads, d_ff)
        self.classifier = nn.Linear(d_model, 1)

    def forward(self, tokens: Tensor) -> tuple[Tensor, Tensor]:
        x = self.tokens(tokens) * self.scale  # (B, L, D)
        if self.position is not None:
            x = self.position(x)
        x, weights = self.layer(x)  # (B, L, D), (B, h, L, L)
        return self.classifier(x.mean(dim=1)).squeeze(-1), weights  # (B,), (B, h, L, L)


class LSTMClassifier(nn.Module):
    """Tokens (B, L) → class logit (B,), read from the LSTM's last hidden state."""

    def __init__(self, hidden: int):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, 1)

    def forward(self, tokens: Tensor) -> Tensor:
        cells = tokens.float()[..., None] * 2 - 1  # (B, L, 1): tokens 0/1 → cells −1/+1
        _, (h_last, _) = self.lstm(cells)  # h_last (1, B, H)
        return self.classifier(h_last[0]).squeeze(-1)  # (B,)
