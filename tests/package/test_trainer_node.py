"""Lesson 8's in-page trainer (transformer.js, trainer_optim.js, trainer_task.js, trainer.js) against
PyTorch, in Node: no site build and no browser.

The page's files load in Node as they are (one shim: ``self`` is the global object); each check
runs a small function there on inputs made here and compares what it returns with PyTorch,
computed here:

* every parameter's gradient equals ``loss.backward()``'s to GRAD_TOL (1e-4) relative (by norm,
  per tensor; the key biases, whose gradient is 0 in exact arithmetic, are checked to be rounding
  noise on both sides), for post-LN and pre-LN, with and without the sinusoidal positional
  encoding, with and without the ÷√d_k (``scale``), from weights whose LayerNorm γ and β and
  biases are not their initial 1 and 0 (so a backward that ignores γ fails: a test checks it);
* 20 Adam steps with each schedule (torch's OneCycleLR with its defaults, lesson 7's linear warm-up
  as a LambdaLR, a constant rate) give PyTorch's loss at every step (LOSS_TOL, 1e-4 relative) and
  its parameters after the last (PARAM_TOL, 1e-4: a feed-forward pre-activation that lies within
  rounding of zero takes one side of the ReLU in the page's float64 and the other in PyTorch's
  float32, and that step's gradients then differ by more than rounding: in the warm-up case one
  pre-activation of 7e-9 at step 19 moved the first encoder layer's parameters by up to 3.3e-5 on
  one machine and not at all on another; the key
  biases NOISE_TOL, 2e-2: their gradient is rounding noise, and Adam, which divides by √v, turns
  noise into steps of about the learning rate on both sides, differently; the loss does not depend
  on them);
* the schedules' learning rate and β₁ at every step equal torch's schedulers';
* the page's random numbers, starting weights (float32, bit for bit), validation set and batches
  equal the build's Python mirror (common/trainer_task.py), and the same seed gives the same curve;
* single-head attention with ``scale`` equals ``F.scaled_dot_product_attention(..., scale=)``;
* a step whose loss or gradient is not finite is not applied, and the trainer says which;
* at the rate that diverges, the page's run and the build's PyTorch run of the same setting stop
  where they stop, and the widget's comparison (widgets/train.js) says "agree" only when the two
  stopping steps are within the page data's margin, naming what became non-finite in the build's;
* an arena recycles only what the caller passes it for.
"""

from __future__ import annotations

import itertools
import json
import math
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

import tutorial_code as tc
from tutorial_code.experiments import browser_training as bt
from tutorial_code.experiments.common import seq2seq as s2s
from tutorial_code.experiments.common import trainer_optim
from tutorial_code.experiments.pagedata import model_export

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "docs/assets/javascripts"
FILES = ("maths.js", "transformer.js", "trainer_optim.js", "trainer_task.js", "trainer.js")
GRAD_TOL = 1e-4
LOSS_TOL = 1e-4
PARAM_TOL = 1e-4   # every parameter the loss depends on, after 20 steps (a ReLU kink: see above)
NOISE_TOL = 2e-2   # the key biases: the loss ignores them, Adam turns their noise into steps
PAD, BOS, EOS, DIGIT0 = 0, 1, 2, 3

# reads {files, patches, code, input} on stdin; loads the files (with the patches: [file, old,
# new], each old found exactly once) into this global scope, runs code(input), prints the JSON
RUNNER = r"""
const fs = require("fs"), vm = require("vm");
globalThis.self = globalThis;
const job = JSON.parse(fs.readFileSync(0, "utf8"));
for (const file of job.files) {
  let source = fs.readFileSync(file, "utf8");
  for (const [target, old, replacement] of job.patches) {
    if (!file.endsWith(target)) continue;
    if (source.split(old).length !== 2) throw new Error("patch not found once in " + file + ": " + old);
    source = source.replace(old, replacement);
  }
  vm.runInThisContext(source, {filename: file});
}
globalThis.byName = (tree, names) => Object.fromEntries(names.map((name) => {
  let node = tree;
  for (const part of name.split(".")) node = node[/^\d+$/.test(part) ? Number(part) : part];
  return [name, Array.from(node.data)];
}));
globalThis.pageModel = (x) => {
  const tensors = {};
  for (const [name, [shape, values]] of Object.entries(x.weights.tensors)) {
    const s = shape.length === 1 ? [1, shape[0]] : shape;
    tensors[name] = Transformer.matrix(s[0], s[1], Float32Array.from(values));
  }
  return Transformer.fromTensors(x.cfg, {pad_id: x.cfg.pad_id}, tensors, x.weights.tied);
};
const out = vm.runInThisContext("(" + job.code + ")")(job.input);
process.stdout.write(JSON.stringify(out));
"""


def node(code: str, x, patches=(), extra=()):
    """Run ``code(x)`` over the trainer's FILES (then ``extra``, absolute paths) in Node."""
    exe = shutil.which("node")
    assert exe, "node is not on the PATH: these checks need Node 20 (the page's trainer runs in it)"
    job = {"files": [str(JS / f) for f in FILES] + [str(f) for f in extra], "patches": [list(p) for p in patches],
           "code": code, "input": x}
    done = subprocess.run([exe, "-e", RUNNER], input=json.dumps(job), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def config(norm_first=False, position="sinusoidal", n_heads=4, attention_scale=None):
    return tc.TransformerConfig(vocab_size=13, d_model=32, n_heads=n_heads, d_ff=64, n_layers=2,
                                norm_first=norm_first, position=position, attention_scale=attention_scale)


def batch(g, size, length=6):
    """Reversal pairs of 2 … length digits, padded at the end (so padding is masked and ignored)."""
    srcs, tgts = [], []
    for _ in range(size):
        n = int(torch.randint(2, length + 1, (1,), generator=g))
        digits = (torch.randint(0, 10, (n,), generator=g) + DIGIT0).tolist()
        srcs.append([BOS, *digits, EOS] + [PAD] * (length - n))
        tgts.append([BOS, *digits[::-1], EOS] + [PAD] * (length - n))
    return torch.tensor(srcs), torch.tensor(tgts)


def model_with_every_parameter_moved(cfg, seed):
    """tutorial_code's model, Xavier-initialised, then every LayerNorm's γ and β and every bias
    moved off its initial value, so that the backward pass of each of them matters."""
    torch.manual_seed(seed)
    model = tc.EncoderDecoderTransformer(cfg)
    g = torch.Generator().manual_seed(seed + 100)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith(".norm.weight"):
                p.copy_(1 + 0.3 * torch.randn(p.shape, generator=g))
            elif name.endswith(".bias"):
                p.copy_(0.1 * torch.randn(p.shape, generator=g))
    return model


def exported(model):
    """The weights as the page gets them: {name: [shape, values]} and the tied names."""
    tied = model_export.tied_names(model)
    tensors = {name: [list(t.shape), t.detach().flatten().tolist()]
               for name, t in model.state_dict().items() if name not in tied}
    return {"tensors": tensors, "tied": tied}


def js_cfg(cfg):
    return {"d_model": cfg.d_model, "n_heads": cfg.n_heads, "d_ff": cfg.d_ff, "n_layers": cfg.n_layers,
            "norm_first": cfg.norm_first, "position": cfg.position, "pad_id": cfg.pad_id, "eps": 1e-5,
            "attention_scale": cfg.attention_scale}


def relative(js, ref):
    js = torch.tensor(js, dtype=torch.float64)
    ref = ref.detach().to(torch.float64).flatten()
    return ((js - ref).norm() / ref.norm().clamp_min(1e-30)).item()


# ---------------------------------------------------------------- gradients

GRADS = """(x) => {
  const model = pageModel(x), g = Transformer.grads(model);
  const loss = Transformer.seq2seqLoss(model, x.src, x.tgt, g);
  return {loss, grads: byName(g, x.names)};
}"""


def gradient_errors(norm_first, position, scale, patches=()):
    cfg = config(norm_first, position, attention_scale=scale)
    model = model_with_every_parameter_moved(cfg, 3)
    src, tgt = batch(torch.Generator().manual_seed(4), 8)
    loss, _ = s2s.seq2seq_loss(model, src, tgt)
    loss.backward()
    names = [name for name, _ in model.named_parameters()]
    out = node(GRADS, {"weights": exported(model), "cfg": js_cfg(cfg), "names": names,
                       "src": src.tolist(), "tgt": tgt.tolist()}, patches)
    # a key's bias adds the same number to every score of a query, which softmax ignores: its
    # gradient is 0 in exact arithmetic, rounding noise on both sides, so there both are checked
    # to be noise (below 1e-5 of the whole gradient's norm) instead of being compared
    total = torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item()
    zero = [name for name in names if name.endswith("W_K.bias")]
    noise = {name: (torch.tensor(out["grads"][name]).norm().item() / total,
                    dict(model.named_parameters())[name].grad.norm().item() / total) for name in zero}
    errors = {name: relative(out["grads"][name], p.grad) for name, p in model.named_parameters() if name not in zero}
    return out["loss"], loss.item(), errors, noise


VARIANTS = list(itertools.product((False, True), ("sinusoidal", "none"), (None, 1.0)))


@pytest.mark.parametrize("norm_first,position,scale", VARIANTS,
                         ids=[f"{'pre' if n else 'post'}-LN-{p}-{'unscaled' if s else 'scaled'}" for n, p, s in VARIANTS])
def test_every_gradient_equals_pytorchs(norm_first, position, scale):
    js_loss, loss, errors, noise = gradient_errors(norm_first, position, scale)
    assert js_loss == pytest.approx(loss, rel=LOSS_TOL)
    for name, (js, ref) in noise.items():
        assert js < 1e-5 and ref < 1e-5, (name, js, ref)
    assert max(errors.values()) < GRAD_TOL, sorted(errors.items(), key=lambda kv: -kv[1])[:5]


@pytest.mark.parametrize("norm_first", [False, True], ids=["post-LN", "pre-LN"])
def test_a_layer_norm_backward_that_ignores_gamma_fails(norm_first):
    """The check above catches a broken backward: LayerNorm's dx computed as if γ were 1."""
    broken = [("transformer.js", "dh[j] = d * p.weight.data[j];", "dh[j] = d;")]
    _, _, errors, _ = gradient_errors(norm_first, "sinusoidal", None, broken)
    assert max(errors.values()) > 10 * GRAD_TOL, sorted(errors.items(), key=lambda kv: -kv[1])[:3]


def test_an_attention_backward_that_ignores_the_scale_fails():
    broken = [("transformer.js", "w[j] * (dw[j] - total) * scale", "w[j] * (dw[j] - total) / divisor")]
    _, _, errors, _ = gradient_errors(False, "sinusoidal", 1.0, broken)
    assert max(errors.values()) > 10 * GRAD_TOL


# ---------------------------------------------------------------- attention's scale

SDPA = """(x) => {
  const M = (rows) => Transformer.matrix(rows.length, rows[0].length, Float32Array.from(rows.flat()));
  const mask = x.causal ? (i, j) => j <= i : null;
  const r = Transformer.scaledDotProductAttention(M(x.q), M(x.k), M(x.v), mask, x.scale);
  return {output: Array.from(r.output.data), weights: Array.from(r.weights.data)};
}"""


@pytest.mark.parametrize("scale", [None, 1.0, 0.3])
@pytest.mark.parametrize("causal", [False, True])
def test_single_head_attention_with_scale_equals_pytorchs(scale, causal):
    g = torch.Generator().manual_seed(2)
    q, k, v = (torch.randn(5, 8, generator=g) for _ in range(3))
    out = node(SDPA, {"q": q.tolist(), "k": k.tolist(), "v": v.tolist(), "scale": scale, "causal": causal})
    mask = torch.ones(5, 5).tril().bool() if causal else None
    q64, k64, v64 = (t.double() for t in (q, k, v))
    expected = F.scaled_dot_product_attention(q64, k64, v64, attn_mask=mask, scale=scale)
    assert torch.allclose(torch.tensor(out["output"], dtype=torch.float64), expected.flatten(), atol=1e-5, rtol=0)


# ---------------------------------------------------------------- the optimiser and the schedules

OPTIMISER = trainer_optim.page_data(trainer_optim.Optimiser())


def test_the_one_cycle_numbers_are_torchs_defaults():
    """The page data's one-cycle numbers are OneCycleLR's own defaults (what the page claims)."""
    import inspect
    defaults = {k: p.default for k, p in inspect.signature(torch.optim.lr_scheduler.OneCycleLR).parameters.items()}
    o = trainer_optim.Optimiser()
    assert (o.pct_start, o.div_factor, o.final_div_factor, o.base_momentum, o.max_momentum) == tuple(
        defaults[k] for k in ("pct_start", "div_factor", "final_div_factor", "base_momentum", "max_momentum"))
    adam = {k: p.default for k, p in inspect.signature(torch.optim.Adam).parameters.items()}
    assert (tuple(o.betas), o.eps) == (adam["betas"], adam["eps"])


def torch_schedule(opt, name, lr, total, warmup_steps):
    """PyTorch's own scheduler of each schedule, built here (not with the code under test)."""
    if name == "one_cycle":
        return torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=total)
    ramp = {"warmup": lambda s: min(1.0, (s + 1) / warmup_steps), "constant": lambda s: 1.0}[name]
    return torch.optim.lr_scheduler.LambdaLR(opt, ramp)


RATES = """(x) => Array.from({length: x.total}, (_, s) => TrainerOptim.schedule(x.optimiser, x.name, x.lr, s, x.total))"""


@pytest.mark.parametrize("name", trainer_optim.SCHEDULES)
def test_each_schedules_rate_and_beta1_equal_torchs(name):
    total, lr, o = 600, 0.005, OPTIMISER
    out = node(RATES, {"optimiser": o, "name": name, "lr": lr, "total": total})
    opt = torch.optim.Adam([torch.zeros(1, requires_grad=True)], lr=lr)
    sched = torch_schedule(opt, name, lr, total, o["warmup_steps"])
    for s in range(total):
        group = opt.param_groups[0]
        assert out[s]["lr"] == pytest.approx(group["lr"], rel=1e-12, abs=1e-18), (s, out[s], group["lr"])
        assert out[s]["beta1"] == pytest.approx(group["betas"][0], rel=1e-12), (s, out[s])
        opt.step()
        sched.step()


def test_an_unknown_schedule_is_refused_naming_the_choices():
    code = """(x) => { try { TrainerOptim.buildOptimizer({}, x.optimiser, "noam", 1, 10); return null; }
                       catch (e) { return String(e.message); } }"""
    assert "one_cycle, warmup, constant" in node(code, {"optimiser": OPTIMISER})


TRAJECTORY = """(x) => {
  const model = pageModel(x), run = Trainer.trainer(model, x.optimiser, x.schedule, x.lr, x.batches.length), losses = [];
  for (const [src, tgt] of x.batches) losses.push(run.trainStep(src, tgt).loss);
  return {losses, params: byName(model.params, x.names)};
}"""


@pytest.mark.parametrize("norm_first,n_heads,schedule", [(False, 4, "one_cycle"), (True, 2, "one_cycle"),
                                                         (False, 4, "warmup"), (False, 2, "constant")])
def test_twenty_adam_steps_follow_pytorch(norm_first, n_heads, schedule):
    torch.manual_seed(5)
    cfg = config(norm_first, n_heads=n_heads)
    model = tc.EncoderDecoderTransformer(cfg)
    weights = exported(model)
    g = torch.Generator().manual_seed(6)
    batches = [batch(g, 16) for _ in range(20)]
    lr = 5e-3 if schedule == "one_cycle" else 2e-3
    optimiser = {**OPTIMISER, "warmup_steps": 8}  # the ramp and the constant part within 20 steps
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=tuple(optimiser["betas"]), eps=optimiser["eps"])
    sched = torch_schedule(opt, schedule, lr, len(batches), optimiser["warmup_steps"])
    losses = []
    for src, tgt in batches:
        loss, _ = s2s.seq2seq_loss(model, src, tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    names = [name for name, _ in model.named_parameters()]
    out = node(TRAJECTORY, {"weights": weights, "cfg": js_cfg(cfg), "names": names, "optimiser": optimiser,
                            "schedule": schedule, "lr": lr, "batches": [[s.tolist(), t.tolist()] for s, t in batches]})
    gaps = [abs(a - b) / b for a, b in zip(out["losses"], losses)]
    assert max(gaps) < LOSS_TOL, list(zip(out["losses"], losses))
    assert losses[-1] < losses[0]  # it did learn something in 20 steps
    errors = {name: relative(out["params"][name], p) for name, p in model.named_parameters()}
    noise = {name: e for name, e in errors.items() if name.endswith("W_K.bias")}
    rest = {name: e for name, e in errors.items() if name not in noise}
    assert max(rest.values()) < PARAM_TOL, sorted(rest.items(), key=lambda kv: -kv[1])[:5]
    assert max(noise.values()) < NOISE_TOL, noise


# ---------------------------------------------------------------- a step that is not finite

NONFINITE = """(x) => {
  const model = pageModel(x), run = Trainer.trainer(model, x.optimiser, "constant", 0.01, 5);
  const before = byName(model.params, ["out.bias", "encoder.layers.0.self_attn.W_Q.weight"]);
  if (x.break === "gradient") {  // a finite loss whose gradient overflows
    const real = Transformer.seq2seqLoss;
    Transformer.seq2seqLoss = (m, s, t, g, mem) => { const loss = real(m, s, t, g, mem); g.out.bias.data[0] = Infinity; return loss; };
  } else {
    model.params.out.bias.data[0] = NaN;  // the loss is NaN
  }
  const r = run.trainStep(x.src, x.tgt);
  const after = byName(model.params, ["out.bias", "encoder.layers.0.self_attn.W_Q.weight"]);
  return {nonfinite: r.nonfinite, loss: r.loss, steps: run.steps(),
          unchanged: after["encoder.layers.0.self_attn.W_Q.weight"].every((v, i) => v === before["encoder.layers.0.self_attn.W_Q.weight"][i])};
}"""


@pytest.mark.parametrize("what", ["loss", "gradient"])
def test_a_step_that_is_not_finite_is_not_applied_and_named(what):
    cfg = config()
    torch.manual_seed(0)
    model = tc.EncoderDecoderTransformer(cfg)
    src, tgt = batch(torch.Generator().manual_seed(1), 4)
    out = node(NONFINITE, {"weights": exported(model), "cfg": js_cfg(cfg), "optimiser": OPTIMISER, "break": what,
                           "src": src.tolist(), "tgt": tgt.tolist()})
    assert out["nonfinite"] == what and out["steps"] == 0 and out["unchanged"], out
    assert (out["loss"] is None) == (what == "loss")  # JSON writes NaN as null; the gradient's loss is finite


# ---------------------------------------------------------------- the arena

ARENA = """(x) => {
  const model = pageModel(x), mem = Transformer.arena();
  const kept = Transformer.encode(model, x.src);  // no arena: the caller's to keep
  const copy = Array.from(kept.memory.data);
  const a = Transformer.seq2seqLoss(model, x.src, x.tgt, null, mem);
  const b = Transformer.seq2seqLoss(model, x.src, x.tgt, null, mem);
  const fresh = Transformer.seq2seqLoss(model, x.src, x.tgt, null);
  return {a, b, fresh, recycled: mem.arrays.length, keptUnchanged: copy.every((v, i) => v === kept.memory.data[i])};
}"""


def test_an_arena_recycles_only_its_own_arrays():
    cfg = config()
    torch.manual_seed(0)
    model = tc.EncoderDecoderTransformer(cfg)
    src, tgt = batch(torch.Generator().manual_seed(2), 4)
    out = node(ARENA, {"weights": exported(model), "cfg": js_cfg(cfg), "src": src.tolist(), "tgt": tgt.tolist()})
    assert out["a"] == out["b"] == out["fresh"] and out["recycled"] > 0 and out["keptUnchanged"], out
    assert out["a"] == pytest.approx(s2s.seq2seq_loss(model, src, tgt)[0].item(), rel=LOSS_TOL)


# ---------------------------------------------------------------- the task, the random numbers, the start

def js_config(cfg, setting):
    m = bt.model_config(cfg, setting)
    return {"vocab_size": m.vocab_size, "d_model": m.d_model, "n_heads": m.n_heads, "d_ff": m.d_ff,
            "n_layers": m.n_layers, "norm_first": m.norm_first, "position": m.position,
            "attention_scale": m.attention_scale}


START = """(x) => {
  const r = TrainerTask.mulberry32(x.seed), numbers = Array.from({length: 50}, () => r());
  const model = TrainerTask.initModel(x.cfg, x.seed), weights = {};
  for (const [name, w] of Object.entries(Trainer.weights(model))) weights[name] = Array.from(w.data);
  const task = TrainerTask.task(x.seed, x.length, x.n), batches = [];
  for (let i = 0; i < x.batches; i++) batches.push(task.batch(x.size).srcs);
  return {numbers, weights, heldOut: task.heldOut.map((p) => p.src), batches, redrawn: task.redrawn()};
}"""


@pytest.mark.parametrize("norm,length,n", [("post", 6, 200), ("pre", 2, 60)])
def test_the_python_mirror_starts_exactly_where_the_page_starts(norm, length, n):
    """Same starting weights (float32, bit for bit), same validation set, same batches (length 2
    leaves 100 sequences, so the stream redraws held-out ones often), same random numbers."""
    cfg = bt.Config()
    setting = {**dict(cfg.defaults), "norm": norm}
    out = node(START, {"seed": 7, "cfg": js_config(cfg, setting), "length": length, "n": n,
                       "batches": 30, "size": cfg.batch_size})
    r = bt.mulberry32(7)
    assert out["numbers"] == [r() for _ in range(50)]
    values = bt.init_values(bt.model_config(cfg, setting), 7)
    assert set(out["weights"]) == set(values)
    for name, v in values.items():
        assert torch.equal(torch.tensor(out["weights"][name], dtype=torch.float32), v.flatten()), name
    data = bt.task(7, length, n)
    assert out["heldOut"] == [bt.pair(d)[0] for d in data.held_out]
    assert out["batches"] == [[bt.pair(d)[0] for d in data.batch(cfg.batch_size)] for _ in range(30)]
    assert out["redrawn"] == data.redrawn and (length == 6 or data.redrawn > 0)


CURVE = """(x) => {
  const model = TrainerTask.initModel(x.cfg, x.seed), task = TrainerTask.task(x.seed, x.length, x.n);
  const run = Trainer.trainer(model, x.optimiser, "one_cycle", x.lr, x.steps), losses = [];
  for (let i = 0; i < x.steps; i++) { const b = task.batch(x.size); losses.push(run.trainStep(b.srcs, b.tgts).loss); }
  return losses;
}"""


def test_the_same_settings_and_seed_give_the_same_curve():
    cfg = bt.Config()
    x = {"seed": cfg.seed, "cfg": js_config(cfg, dict(cfg.defaults)), "length": cfg.length, "n": cfg.n_held_out,
         "steps": 12, "size": cfg.batch_size, "lr": 0.005, "optimiser": OPTIMISER}
    first, second = node(CURVE, x), node(CURVE, x)
    assert first == second and all(math.isfinite(v) for v in first)
    assert node(CURVE, {**x, "seed": cfg.seed + 1}) != first  # the seed does change the run


def test_the_page_and_the_build_start_the_same_unscaled_model():
    """The "scaling off" switch is attention_scale = 1.0 on both sides (SWITCH_CONFIG)."""
    cfg = replace(bt.Config(), n_held_out=20)
    setting = {**dict(cfg.defaults), "scaling": "off"}
    model = bt.init_model(bt.model_config(cfg, setting), 0)
    data = bt.task(0, cfg.length, cfg.n_held_out)
    src, tgt = bt.tensors(data.batch(8))
    code = """(x) => { const m = TrainerTask.initModel(x.cfg, 0); return Transformer.seq2seqLoss(m, x.src, x.tgt); }"""
    js = node(code, {"cfg": js_config(cfg, setting), "src": src.tolist(), "tgt": tgt.tolist()})
    assert js_config(cfg, setting)["attention_scale"] == 1.0
    assert js == pytest.approx(s2s.seq2seq_loss(model, src, tgt)[0].item(), rel=LOSS_TOL)


# ---------------------------------------------------------------- the widget's comparison when both diverge

# what train.js needs to load outside a page: no document, a CourseWidgets that registers nothing
WIDGET_STUB = "globalThis.document = {currentScript: null, baseURI: 'file:///'}; globalThis.CourseWidgets = {register: function () {}};"
DIVERGED = """(x) => {
  const C = CourseWidgets.trainComparison, base = x.data.base;
  const model = TrainerTask.initModel(x.cfg, base.seed), task = TrainerTask.task(base.seed, base.length, base.n_held_out);
  const run = Trainer.trainer(model, x.data.optimiser, x.setting.schedule, Number(x.setting.lr), base.steps);
  let mine = null;
  while (!mine && run.steps() < base.steps) {
    const b = task.batch(base.batch_size), r = run.trainStep(b.srcs, b.tgts);
    if (r.nonfinite) mine = {reached_step: null, diverged_step: run.steps() + 1, nonfinite: r.nonfinite, exact: 0};
  }
  const far = {reached_step: null, diverged_step: x.build + x.within + 1, nonfinite: "loss", exact: 0};
  const near = {reached_step: null, diverged_step: x.build + x.within, nonfinite: "loss", exact: 0};
  const say = (m) => ({ko: C.comparison(C.LABELS.ko, x.data, x.setting, m), en: C.comparison(C.LABELS.en, x.data, x.setting, m)});
  return {mine, page: mine && say(mine), far: say(far), near: say(near)};
}"""


def test_when_both_diverge_the_widget_compares_their_stopping_steps(tmp_path):
    """The page's run at lr 10000 against the build's PyTorch run of it, as the widget compares them:
    "agree" only within AGREE's margin (15 against 73 is not agreement), and the build's sentence
    says what was not finite there (a gradient whose loss was finite is not "the loss")."""
    from tutorial_code.experiments.pagedata import browser_training as bt_page
    cfg = bt.Config()
    name = "lr=10000"
    setting = bt.settings(cfg)[name]
    build = bt.train(cfg, setting)
    assert build["diverged_step"] and build["nonfinite"] in {"loss", "gradient"}
    data = bt_page.page_data(cfg, {"runs": {name: build}}, tmp_path, tmp_path)["widgets"]["train"]
    stub = tmp_path / "stub.js"
    stub.write_text(WIDGET_STUB, encoding="utf-8")
    within = data["agree"]["diverged_steps_within"]
    out = node(DIVERGED, {"data": data, "setting": {k: bt._text(v) for k, v in setting.items()},
                          "cfg": js_config(cfg, setting), "build": build["diverged_step"], "within": within},
               extra=[stub, JS / "widgets" / "train.js"])
    what = {"en": {"loss": "when the loss was no longer", "gradient": "when a gradient was no longer"},
            "ko": {"loss": "손실이 유한한 수가 아니게", "gradient": "기울기가 유한한 수가 아니게"}}
    for lang in ("ko", "en"):
        assert out["far"][lang]["kind"] == "differ" and out["near"][lang]["kind"] == "agree", out
        assert what[lang][build["nonfinite"]] in out["far"][lang]["text"], out["far"][lang]
        assert "NaN" not in out["far"][lang]["text"]
    mine = out["mine"]
    assert mine and mine["nonfinite"] in {"loss", "gradient"}, "the page's run at lr 10000 must diverge too"
    close = abs(mine["diverged_step"] - build["diverged_step"]) <= within
    for lang in ("ko", "en"):
        text = out["page"][lang]["text"]
        assert out["page"][lang]["kind"] == ("agree" if close else "differ"), (mine, build["diverged_step"], text)
        assert str(mine["diverged_step"]) in text and str(build["diverged_step"]) in text
