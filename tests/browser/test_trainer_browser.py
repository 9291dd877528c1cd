"""The page's backward pass and Adam (transformer.js, trainer.js) against PyTorch, in Chromium.

From the same initial weights (tutorial_code's model, Xavier-initialised here) and the same
batch, every parameter's gradient the page computes must equal ``loss.backward()``'s to 1e-4
relative (by norm, per tensor; the key biases, whose gradient is 0 in exact arithmetic, are
checked to be rounding noise on both sides), for post-LN and pre-LN, with and without the sinusoidal
positional encoding, with and without the ÷√d_k; and 20 Adam steps with the build's one-cycle
schedule must give PyTorch's loss at every step (1e-4 relative) and its parameters after the
last: PARAM_TOL (1e-5) relative by norm per tensor, except the key biases (NOISE_TOL, 2e-2):
their gradient is rounding noise, and Adam, which divides by √v, turns noise into steps of about
the learning rate on both sides, differently; the loss does not depend on them.
"""

import itertools
import math

import pytest
import torch

import tutorial_code as tc
import tutorial_code.multihead as multihead
from tutorial_code.experiments.pagedata import model_export
from tutorial_code.experiments.common import seq2seq as s2s

pytestmark = pytest.mark.browser

GRAD_TOL = 1e-4
LOSS_TOL = 1e-4
PARAM_TOL = 1e-5   # every parameter the loss depends on, after 20 steps
NOISE_TOL = 2e-2   # the key biases: the loss ignores them, Adam turns their noise into steps
PAD, BOS, EOS, DIGIT0 = 0, 1, 2, 3
SCRIPTS = ("maths.js", "transformer.js", "trainer.js")


def config(norm_first=False, position="sinusoidal", n_heads=4):
    return tc.TransformerConfig(vocab_size=13, d_model=32, n_heads=n_heads, d_ff=64, n_layers=2,
                                norm_first=norm_first, position=position)


def batch(g, size, length=6):
    """Reversal pairs of 2 … length digits, padded at the end (so padding is masked and ignored)."""
    srcs, tgts = [], []
    for _ in range(size):
        n = int(torch.randint(2, length + 1, (1,), generator=g))
        digits = (torch.randint(0, 10, (n,), generator=g) + DIGIT0).tolist()
        srcs.append([BOS, *digits, EOS] + [PAD] * (length - n))
        tgts.append([BOS, *digits[::-1], EOS] + [PAD] * (length - n))
    return torch.tensor(srcs), torch.tensor(tgts)


def unscaled(original):
    """scaled_dot_product_attention without the ÷√d_k: the queries multiplied by √d_k first."""
    def attention(q, k, v, mask=None, dropout_p=0.0):
        return original(q * math.sqrt(q.size(-1)), k, v, mask, dropout_p)
    return attention


def exported(model):
    """The weights as the page gets them: {name: [shape, values]} and the tied names."""
    tied = model_export.tied_names(model)
    tensors = {name: [list(t.shape), t.detach().flatten().tolist()]
               for name, t in model.state_dict().items() if name not in tied}
    return {"tensors": tensors, "tied": tied}


def js_cfg(cfg, scaled):
    return {"d_model": cfg.d_model, "n_heads": cfg.n_heads, "d_ff": cfg.d_ff, "n_layers": cfg.n_layers,
            "norm_first": cfg.norm_first, "position": cfg.position, "pad_id": cfg.pad_id, "eps": 1e-5,
            "scaled": scaled}


# build the page's model from the exported weights; grads and losses out, named as in PyTorch
SETUP = """() => {
window.pageModel = (x) => {
  const tensors = {};
  for (const [name, [shape, values]] of Object.entries(x.weights.tensors)) {
    const s = shape.length === 1 ? [1, shape[0]] : shape;
    tensors[name] = Transformer.matrix(s[0], s[1], Float32Array.from(values));
  }
  return Transformer.fromTensors(x.cfg, {pad_id: x.cfg.pad_id}, tensors, x.weights.tied);
};
window.byName = (tree, names) => Object.fromEntries(names.map((name) => {
  let node = tree;
  for (const part of name.split(".")) node = node[/^\\d+$/.test(part) ? Number(part) : part];
  return [name, Array.from(node.data)];
}));
}"""

GRADS = """(x) => {
  const model = pageModel(x), g = Transformer.grads(model);
  const loss = Transformer.seq2seqLoss(model, x.src, x.tgt, g);
  return {loss, grads: byName(g, x.names)};
}"""

TRAJECTORY = """(x) => {
  const model = pageModel(x), run = Trainer.trainer(model, x.recipe, x.batches.length), losses = [];
  for (const [src, tgt] of x.batches) losses.push(run.trainStep(src, tgt).loss);
  return {losses, params: byName(model.params, x.names)};
}"""


def scripts_page(browser, site_url):
    """A new context's page on the site's home with the trainer's three scripts loaded:
    (context, page); the caller closes the context."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url)
    for name in SCRIPTS:
        page.add_script_tag(url=site_url + "assets/javascripts/" + name)
    return context, page


@pytest.fixture(scope="module")
def page(browser, site_url):
    context, page = scripts_page(browser, site_url)
    page.evaluate(SETUP)
    yield page
    context.close()


def relative(js, ref):
    js = torch.tensor(js, dtype=torch.float64)
    ref = ref.detach().to(torch.float64).flatten()
    return ((js - ref).norm() / ref.norm().clamp_min(1e-30)).item()


VARIANTS = list(itertools.product((False, True), ("sinusoidal", "none"), (True, False)))


@pytest.mark.parametrize("norm_first,position,scaled", VARIANTS,
                         ids=[f"{'pre' if n else 'post'}-LN-{p}-{'scaled' if s else 'unscaled'}" for n, p, s in VARIANTS])
def test_every_gradient_equals_pytorchs(page, monkeypatch, norm_first, position, scaled):
    if not scaled:
        monkeypatch.setattr(multihead, "scaled_dot_product_attention", unscaled(multihead.scaled_dot_product_attention))
    torch.manual_seed(3)
    cfg = config(norm_first, position)
    model = tc.EncoderDecoderTransformer(cfg)
    src, tgt = batch(torch.Generator().manual_seed(4), 8)
    loss, _ = s2s.seq2seq_loss(model, src, tgt)
    loss.backward()
    names = [name for name, _ in model.named_parameters()]
    out = page.evaluate(GRADS, {"weights": exported(model), "cfg": js_cfg(cfg, scaled), "names": names,
                                "src": src.tolist(), "tgt": tgt.tolist()})
    assert out["loss"] == pytest.approx(loss.item(), rel=LOSS_TOL)
    # a key's bias adds the same number to every score of a query, which softmax ignores: its
    # gradient is 0 in exact arithmetic, rounding noise on both sides, so there both are checked
    # to be noise (below 1e-5 of the whole gradient's norm) instead of being compared
    total = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
    zero = [name for name in names if name.endswith("W_K.bias")]
    for name in zero:
        assert torch.tensor(out["grads"][name]).norm() < 1e-5 * total
        assert dict(model.named_parameters())[name].grad.norm() < 1e-5 * total
    errors = {name: relative(out["grads"][name], p.grad) for name, p in model.named_parameters() if name not in zero}
    assert max(errors.values()) < GRAD_TOL, sorted(errors.items(), key=lambda kv: -kv[1])[:5]


@pytest.mark.parametrize("norm_first,n_heads", [(False, 4), (True, 2)])
def test_twenty_adam_steps_follow_pytorch(page, norm_first, n_heads):
    torch.manual_seed(5)
    cfg = config(norm_first, n_heads=n_heads)
    model = tc.EncoderDecoderTransformer(cfg)
    weights = exported(model)
    g = torch.Generator().manual_seed(6)
    batches = [batch(g, 16) for _ in range(20)]
    recipe = s2s.Recipe("page", schedule="one_cycle", lr=5e-3)
    opt, sched = s2s.build_optimizer(model.parameters(), recipe, total_steps=len(batches), d_model=cfg.d_model)
    losses = []
    for src, tgt in batches:
        loss, _ = s2s.seq2seq_loss(model, src, tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    names = [name for name, _ in model.named_parameters()]
    out = page.evaluate(TRAJECTORY, {
        "weights": weights, "cfg": js_cfg(cfg, True), "names": names,
        "recipe": {"schedule": recipe.schedule, "lr": recipe.lr, "betas": list(recipe.betas), "eps": recipe.eps},
        "batches": [[s.tolist(), t.tolist()] for s, t in batches]})
    gaps = [abs(a - b) / b for a, b in zip(out["losses"], losses)]
    assert max(gaps) < LOSS_TOL, list(zip(out["losses"], losses))
    assert losses[-1] < losses[0]  # it did learn something in 20 steps
    errors = {name: relative(out["params"][name], p) for name, p in model.named_parameters()}
    noise = {name: e for name, e in errors.items() if name.endswith("W_K.bias")}
    rest = {name: e for name, e in errors.items() if name not in noise}
    assert max(rest.values()) < PARAM_TOL, sorted(rest.items(), key=lambda kv: -kv[1])[:5]
    assert max(noise.values()) < NOISE_TOL, noise
