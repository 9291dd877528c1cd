"""The site's JavaScript maths against PyTorch, run in Node (tests/node_runner.py): no browser.

- ``maths.js`` (the one maths module of the widgets and the in-page forward pass): softmax,
  matmul, the toy attention of lessons 4 and 6, the masks and the sinusoidal table, on inputs
  drawn here, against what ``tutorial_code`` computes with PyTorch on the same inputs (float64
  on both sides, so the tolerance is tight);
- ``transformer.js``'s greedy decoding with the site's two trained models (lesson 1's
  translator, lesson 8's reversal model), read from the files the built site serves, against
  the reference the build wrote with PyTorch (``<name>-reference.json``: the tokens and the
  cross-attention of every layer and head on the lesson's example and held-out test inputs).

What the widgets draw from these numbers, and that the pages load the files, is checked in
Chromium (tests/browser/test_*_widget_browser.py).
"""

import pytest
import torch
from node_runner import run_js

import tutorial_code as tc
from coursebuild.outputs.models import MODEL_ROOT, MODELS

MATHS = """(x) => {
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

# every reference input through transformer.js; how many agree, and the largest weight gap
DECODE_REFERENCE = """async (url) => {
  const model = await Transformer.loadModel(url);
  const ref = await (await fetch(new URL(model.manifest.reference, new URL(url, location.href)))).json();
  let equal = 0, gap = 0;
  for (const input of ref.inputs) {
    const run = Transformer.greedyDecode(model, input.src, model.manifest.max_new_tokens);
    if (JSON.stringify(run.tokens) !== JSON.stringify(input.tokens)) continue;
    equal += 1;
    run.steps.forEach((step, t) => step.cross.forEach((heads, l) => heads.forEach((w, h) =>
      w.forEach((x, j) => { gap = Math.max(gap, Math.abs(x - input.cross[l][h][t][j])); }))));
  }
  return {n: ref.inputs.length, equal, gap};
}"""


def close(js, ref, tol=1e-12):
    assert torch.allclose(torch.tensor(js, dtype=torch.float64), ref.to(torch.float64), atol=tol, rtol=0), (js, ref)


def test_the_maths_module_computes_what_the_package_computes():
    g = torch.Generator().manual_seed(7)
    scores = torch.randn(3, 5, generator=g, dtype=torch.float64) * 3
    A, B = torch.randn(3, 4, generator=g, dtype=torch.float64), torch.randn(4, 2, generator=g, dtype=torch.float64)
    X, W_Q = torch.randn(6, 4, generator=g, dtype=torch.float64), torch.randn(4, 4, generator=g, dtype=torch.float64)
    tokens = [5, 3, 7, 0, 0, 0]
    out = run_js(["maths.js"], MATHS, {"scores": scores.tolist(), "A": A.tolist(), "B": B.tolist(), "X": X.tolist(),
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


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_in_page_model_decodes_as_pytorch_on_the_reference_inputs(built_site, report, name):
    """The model files the site serves, decoded by transformer.js: every reference input gives
    PyTorch's tokens, and its cross-attention to 1e-4."""
    folder = built_site / MODEL_ROOT / name
    check = run_js(["maths.js", "transformer.js"], DECODE_REFERENCE, MODELS[name][0], root=folder)
    assert check["n"] == report[name].record["results"]["export"]["n_reference"] + 1 >= 201
    assert check["equal"] == check["n"], check
    assert check["gap"] <= 1e-4, check
