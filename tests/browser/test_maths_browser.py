"""The page's one maths module (assets/javascripts/maths.js) against the Python package.

softmax, matmul, the toy attention of lessons 4 and 6, the masks and the sinusoidal table, run
in Chromium on inputs drawn here, compared with what ``tutorial_code`` computes with PyTorch
on the same inputs (float64 on both sides, so the tolerance is tight).
"""

import pytest
import torch

import tutorial_code as tc

pytestmark = pytest.mark.browser

LESSON = "lessons/self-attention/"  # a page whose widget loads maths.js

RUN = """(x) => {
  const M = CourseMath;
  return {
    softmax: x.scores.map(M.softmax),
    matmul: M.matmul(x.A, x.B),
    transpose: M.transpose(x.A),
    attend: M.attend(x.X, x.W_Q, false),
    attendCausal: M.attend(x.X, x.W_Q, true),
    causal: x.X.map((_, i) => x.X.map((_, j) => M.causalMask(i, j))),
    padding: x.X.map((_, i) => x.tokens.map((_, j) => M.paddingMask(x.tokens, 0)(i, j))),
    table: M.sinusoidalTable(x.L, x.D),
    table5: M.sinusoidalTable(4, 5, 100),
    dot: M.dot(x.A[0], x.A[1]),
  };
}"""

def close(js, ref, tol=1e-12):
    assert torch.allclose(torch.tensor(js, dtype=torch.float64), ref.to(torch.float64), atol=tol, rtol=0), (js, ref)

def test_the_maths_module_computes_what_the_package_computes(site_page, site_url):
    g = torch.Generator().manual_seed(7)
    scores = torch.randn(3, 5, generator=g, dtype=torch.float64) * 3
    A, B = torch.randn(3, 4, generator=g, dtype=torch.float64), torch.randn(4, 2, generator=g, dtype=torch.float64)
    X, W_Q = torch.randn(6, 4, generator=g, dtype=torch.float64), torch.randn(4, 4, generator=g, dtype=torch.float64)
    tokens = [5, 3, 7, 0, 0, 0]
    site_page.goto(site_url + LESSON)
    site_page.wait_for_function("() => window.CourseMath !== undefined", timeout=20_000)
    out = site_page.evaluate(RUN, {"scores": scores.tolist(), "A": A.tolist(), "B": B.tolist(), "X": X.tolist(),
                                   "W_Q": W_Q.tolist(), "tokens": tokens, "L": 12, "D": 8})
    close(out["softmax"], torch.softmax(scores, dim=-1))
    close(out["matmul"], A @ B)
    close(out["transpose"], A.T)
    assert out["dot"] == pytest.approx((A[0] @ A[1]).item(), abs=1e-12)
    # the toy attention is tc.scaled_dot_product_attention with q = X W_Q and k = v = X
    for key, mask in (("attend", None), ("attendCausal", tc.causal_mask(6))):
        output, weights = tc.scaled_dot_product_attention(X @ W_Q, X, X, mask)
        close(out[key]["weights"], weights)
        close(out[key]["output"], output)
    assert out["causal"] == tc.causal_mask(6).tolist()
    assert out["padding"] == tc.padding_mask(torch.tensor([tokens]), 0)[0, 0].expand(6, 6).tolist()
    close(out["table"], tc.sinusoidal_table(12, 8))
    close(out["table5"], tc.sinusoidal_table(4, 5, base=100.0))
