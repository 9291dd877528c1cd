"""The backward pass of scaled dot-product attention on lesson 3's worked example (lesson 8's aside).

From the worked example's Q, K and V (the worked_examples experiment's ``results["sdpa"]``, computed by
:func:`..common.hand_computations.sdpa_steps`) and an upstream gradient dO, the five lines of the
backward pass, each written out in float64 as the page writes it::

    S  = Q Kᵀ / √d_k,   P = softmax(S),   O = P V          (the forward pass, lesson 3)
    dV = Pᵀ dO
    dP = dO Vᵀ
    dS = P ⊙ (dP − rowsum(dP ⊙ P))                         (the softmax's backward)
    dQ = dS K / √d_k
    dK = dSᵀ Q / √d_k

and beside them the same three gradients from torch autograd (``backward()`` on
``tutorial_code.scaled_dot_product_attention``), so that ``CHECKS`` in :mod:`.worked_examples` can hold
the written-out lines equal to PyTorch. Nothing is trained: it is a few 4×4 products.

The upstream gradient is that of the loss ``L = Σ_i O[i, column]`` (the sum of one column of the
output): dO is 1 in that column and 0 elsewhere. With it, ``dP[i, j] = V[j, column]`` and the row
sum ``Σ_j dP[i, j] P[i, j]`` is the output ``O[i, column]`` itself, which the aside uses.
"""

from __future__ import annotations

import math

import torch

import tutorial_code as tc

F64 = torch.float64
# the output's component the aside's loss sums: the fourth, where no gradient of Q or K is zero
# (with the first, the example's symmetric K leaves two columns of dQ at exactly 0)
COLUMN = 3


def _max_diff(a: torch.Tensor, b: torch.Tensor) -> float:
    return (a - b).abs().max().item()


def backward(Q, K, V, column: int = 0) -> dict:
    """The forward and backward lines on Q (L_q, d_k), K (L_k, d_k), V (L_k, d_v), for the loss
    that sums column ``column`` of the output; lists of lists, and their gaps to autograd."""
    Q, K, V = (torch.as_tensor(x, dtype=F64) for x in (Q, K, V))
    if not 0 <= column < V.size(-1):
        raise ValueError(f"column {column} is not a column of V, which has {V.size(-1)}; pick 0 … {V.size(-1) - 1}")
    d_k = Q.size(-1)
    S = Q @ K.T / math.sqrt(d_k)
    P = torch.softmax(S, dim=-1)
    O = P @ V
    dO = torch.zeros_like(O)
    dO[:, column] = 1.0                                  # L = Σ_i O[i, column]
    dV = P.T @ dO
    dP = dO @ V.T
    row_sum = (dP * P).sum(-1, keepdim=True)             # Σ_j dP[i, j] P[i, j], one per query
    dS = P * (dP - row_sum)
    dQ = dS @ K / math.sqrt(d_k)
    dK = dS.T @ Q / math.sqrt(d_k)

    q, k, v = (x.clone().requires_grad_() for x in (Q, K, V))
    out, _ = tc.scaled_dot_product_attention(q, k, v)
    (out * dO).sum().backward()                          # the loss whose gradient at O is dO
    return {
        "column": column, "component": column + 1, "d_k": d_k, "sqrt_d_k": math.sqrt(d_k),
        "dO": dO.tolist(), "weights": P.tolist(), "output": O.tolist(),
        "dV": dV.tolist(), "dP": dP.tolist(), "row_sum": row_sum[:, 0].tolist(), "dS": dS.tolist(),
        "dQ": dQ.tolist(), "dK": dK.tolist(),
        # the written-out lines against autograd, and the two facts the aside states
        "max_autograd_diff": max(_max_diff(dQ, q.grad), _max_diff(dK, k.grad), _max_diff(dV, v.grad)),
        "max_forward_diff": _max_diff(O, out.detach()),
        "row_sum_vs_output_max_diff": _max_diff(row_sum[:, 0], O[:, column]),
        "ds_row_sum_max_err": dS.sum(-1).abs().max().item(),
    }


def page_data(sdpa: dict, column: int = COLUMN) -> dict:
    """The aside's numbers from the worked example's results, and how far its forward pass is
    from the page's lesson 3 numbers (the same Q, K, V, so the same weights and output)."""
    out = backward(sdpa["Q"], sdpa["K"], sdpa["V"], column)
    out["lesson3_max_diff"] = max(_max_diff(torch.tensor(out["weights"], dtype=F64), torch.tensor(sdpa["weights"], dtype=F64)),
                                  _max_diff(torch.tensor(out["output"], dtype=F64), torch.tensor(sdpa["output"], dtype=F64)))
    return out
