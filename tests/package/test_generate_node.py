"""The page's generation (``transformer.js``) with and without its key/value cache, against
PyTorch, in Node (tests/node_runner.py).

- The site's two trained decoders (lesson 1's translator, lesson 8's reversal model), from the
  files the built site serves: for the lesson's example and held-out reference inputs, greedy
  decoding for STEPS steps (past EOS, so that the cache grows past its first room of 16 rows),
  with the cache and without it, writes PyTorch's tokens (``tc.greedy_decode`` on the same
  weights), and at every step the next-token probabilities equal PyTorch's to PROB_TOL.
- A decoder-only model (``tc.DecoderOnlyTransformer``, random weights, post-LN and pre-LN): the
  page's ``generate`` writes ``tc.generate``'s tokens with and without the cache, and each
  cached step's probabilities equal PyTorch's.
- Beam search (widths 1 to 5) of the translator: the page's hypotheses and scores are
  ``tc.beam_search``'s; width 1 is greedy decoding.
- The cache survives the arena: the step's matrices come from one arena, reused at the next
  step; no array of the cache is among the arena's, and what the cache holds after a step is
  unchanged by the next.
"""

from __future__ import annotations

import json

import pytest
import torch
from node_runner import run_js

import tutorial_code as tc
from coursebuild.outputs.models import MODEL_ROOT, MODELS
from tutorial_code.experiments.pagedata import model_export

PROB_TOL = 1e-5
STEPS = 40       # greedy steps per input, EOS or not
N_INPUTS = 8     # the lesson's example and the first held-out reference inputs

# each input decoded with and without the cache: tokens and every step's logits
TRAINED = """async (x) => {
  const model = await Transformer.loadModel(x.url);
  const ref = await (await fetch(new URL(model.manifest.reference, new URL(x.url, location.href)))).json();
  const srcs = ref.inputs.slice(0, x.n).map((input) => input.src), out = [];
  for (const src of srcs) {
    const row = {src};
    for (const useCache of [true, false]) {
      const run = Transformer.greedyDecode(model, src, x.steps, {useCache, stopAtEos: false});
      row[useCache ? "cache" : "no_cache"] = {tokens: run.tokens, logits: run.steps.map((s) => Array.from(s.logits))};
    }
    out.push(row);
  }
  return out;
}"""


def probabilities(logits) -> torch.Tensor:
    return torch.softmax(torch.tensor(logits, dtype=torch.float64), dim=-1)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_trained_decoders_give_pytorchs_tokens_and_probabilities_with_and_without_the_cache(built_site, name):
    folder = built_site / MODEL_ROOT / name
    manifest = MODELS[name][0]
    model = model_export.load_exported(folder / manifest)
    bos = json.loads((folder / manifest).read_text("utf-8"))["tokens"]["bos_id"]
    runs = run_js(["maths.js", "transformer.js"], TRAINED, {"url": manifest, "n": N_INPUTS, "steps": STEPS},
                  root=folder)
    assert len(runs) == N_INPUTS
    for run in runs:
        src = torch.tensor([run["src"]])
        with torch.no_grad():
            want = tc.greedy_decode(model, src, bos, STEPS, eos_id=None, use_cache=True)  # (1, 1 + STEPS)
            assert torch.equal(want, tc.greedy_decode(model, src, bos, STEPS, eos_id=None, use_cache=False))
            memory, src_mask, _ = model.encode(src)
            logits = model.decode(want[:, :-1], memory, src_mask)[0][0]  # (STEPS, V): step t read tokens ≤ t
        ref = torch.softmax(logits.double(), dim=-1)
        for mode in ("cache", "no_cache"):
            got = run[mode]
            assert got["tokens"] == want[0].tolist(), (name, mode, run["src"])
            assert len(got["logits"]) == STEPS
            gap = (probabilities(got["logits"]) - ref).abs().max().item()
            assert gap <= PROB_TOL, (name, mode, run["src"], gap)


def exported(model):
    """{name: [shape, values]} and the tied names, as the page's files give them."""
    tied = model_export.tied_names(model)
    tensors = {name: [list(t.shape), t.detach().flatten().tolist()]
               for name, t in model.state_dict().items() if name not in tied}
    return {"tensors": tensors, "tied": tied}


BUILD = """
  const tensors = {};
  for (const [name, [shape, values]] of Object.entries(x.weights.tensors)) {
    const s = shape.length === 1 ? [1, shape[0]] : shape;
    tensors[name] = Transformer.matrix(s[0], s[1], Float32Array.from(values));
  }
  const model = Transformer.fromTensors(x.cfg, {pad_id: x.cfg.pad_id, bos_id: 1, eos_id: -1}, tensors, x.weights.tied);
"""

# generate() with and without the cache; the same steps by hand (newCache, decoderOnly, one arena),
# each step's logits, and whether the arena ever held an array of the cache or the next step
# changed what the cache held
DECODER_ONLY = "(x) => {" + BUILD + """
  const tokens = {cache: Transformer.generate(model, x.prompts, x.steps),
                  no_cache: Transformer.generate(model, x.prompts, x.steps, {useCache: false})};
  const cache = Transformer.newCache(x.cfg.n_layers), mem = Transformer.arena(), logits = [];
  let inputs = x.prompts, offset = 0, shared = false, kept = true, seqs = x.prompts.map((p) => p.slice());
  for (let n = 0; n < x.steps; n++) {
    mem.next = 0;
    const before = cache.map((layer) => layer.self ? Array.from(layer.self.k.data.subarray(0, 4)) : null);
    const out = Transformer.decoderOnly(model, inputs, true, mem, cache, offset);
    cache.forEach((layer, l) => {
      if (before[l] && before[l].some((v, i) => v !== layer.self.k.data[i])) kept = false;
      if (mem.arrays.includes(layer.self.k.data) || mem.arrays.includes(layer.self.v.data)) shared = true;
    });
    offset += inputs[0].length;
    const V = out.logits.cols, next = [];
    for (let b = 0; b < x.prompts.length; b++) {
      const row = Array.from(out.logits.data.subarray(b * V, (b + 1) * V));
      logits.push(row);
      next.push(row.indexOf(Math.max(...row)));
    }
    next.forEach((id, b) => seqs[b].push(id));
    inputs = next.map((id) => [id]);
  }
  return {tokens, logits, seqs, shared, kept, length: cache[0].self.length, recycled: mem.arrays.length};
}"""


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_only_generation_equals_pytorch_with_and_without_the_cache(norm_first):
    cfg = tc.TransformerConfig(vocab_size=29, d_model=32, n_heads=4, d_ff=64, n_layers=2, norm_first=norm_first)
    torch.manual_seed(5)
    model = tc.DecoderOnlyTransformer(cfg).eval()
    prompts = torch.randint(1, cfg.vocab_size, (2, 3), generator=torch.Generator().manual_seed(6))
    js_cfg = {"d_model": cfg.d_model, "n_heads": cfg.n_heads, "d_ff": cfg.d_ff, "n_layers": cfg.n_layers,
              "norm_first": cfg.norm_first, "position": cfg.position, "pad_id": cfg.pad_id, "eps": 1e-5}
    out = run_js(["maths.js", "transformer.js"], DECODER_ONLY,
                 {"weights": exported(model), "cfg": js_cfg, "prompts": prompts.tolist(), "steps": STEPS})
    want = tc.generate(model, prompts, STEPS, use_cache=True)
    assert torch.equal(want, tc.generate(model, prompts, STEPS, use_cache=False))
    assert out["tokens"]["cache"] == out["tokens"]["no_cache"] == out["seqs"] == want.tolist()
    # step n read the prompt and the n tokens written before: the teacher-forced pass's row L_0 - 1 + n
    with torch.no_grad():
        ref = torch.softmax(model(want[:, :-1]).double(), dim=-1)[:, prompts.size(1) - 1:]  # (B, STEPS, V)
    got = probabilities(out["logits"]).view(STEPS, 2, -1).transpose(0, 1)
    assert (got - ref).abs().max().item() <= PROB_TOL
    assert out["length"] == prompts.size(1) + STEPS - 1  # the cache holds every position it read
    assert out["recycled"] > 0 and not out["shared"] and out["kept"], out


# a wrong offset (every step at position 0) must be caught by the comparison above
def test_a_cache_that_ignores_the_offset_fails_the_comparison():
    cfg = tc.TransformerConfig(vocab_size=29, d_model=32, n_heads=4, d_ff=64, n_layers=2)
    torch.manual_seed(5)
    model = tc.DecoderOnlyTransformer(cfg).eval()
    prompts = torch.randint(1, cfg.vocab_size, (2, 3), generator=torch.Generator().manual_seed(6))
    js_cfg = {"d_model": cfg.d_model, "n_heads": cfg.n_heads, "d_ff": cfg.d_ff, "n_layers": cfg.n_layers,
              "norm_first": False, "position": cfg.position, "pad_id": cfg.pad_id, "eps": 1e-5}
    wrong = DECODER_ONLY.replace("Transformer.decoderOnly(model, inputs, true, mem, cache, offset)",
                                 "Transformer.decoderOnly(model, inputs, true, mem, cache, 0)")
    out = run_js(["maths.js", "transformer.js"], wrong,
                 {"weights": exported(model), "cfg": js_cfg, "prompts": prompts.tolist(), "steps": 8})
    with torch.no_grad():
        ref = torch.softmax(model(tc.generate(model, prompts, 8)[:, :-1]).double(), dim=-1)[:, 2:]
    got = probabilities(out["logits"]).view(8, 2, -1).transpose(0, 1)
    assert (got - ref).abs().max().item() > PROB_TOL


# ---------------------------------------------------------------- beam search (the translator)

BEAM = """async (x) => {
  const model = await Transformer.loadModel(x.url);
  const ref = await (await fetch(new URL(model.manifest.reference, new URL(x.url, location.href)))).json();
  const srcs = ref.inputs.slice(0, x.n).map((input) => input.src), out = {};
  for (const w of x.widths) out[w] = srcs.map((src) => Transformer.beamSearch(model, src, x.steps, w));
  return {srcs, out};
}"""
BEAM_WIDTHS = (1, 2, 3, 4, 5)
SCORE_TOL = 1e-4  # summed log-probabilities, float32 logits on both sides


def test_the_translators_beam_search_gives_tutorial_codes_hypotheses_and_scores(built_site):
    folder = built_site / MODEL_ROOT / "translation"
    manifest = MODELS["translation"][0]
    model = model_export.load_exported(folder / manifest)
    tokens = json.loads((folder / manifest).read_text("utf-8"))["tokens"]
    steps = json.loads((folder / manifest).read_text("utf-8"))["max_new_tokens"]
    got = run_js(["maths.js", "transformer.js"], BEAM,
                 {"url": manifest, "n": 40, "steps": steps, "widths": list(BEAM_WIDTHS)}, root=folder)
    for w in BEAM_WIDTHS:
        for src, page in zip(got["srcs"], got["out"][str(w)]):
            want = tc.beam_search(model, torch.tensor([src]), tokens["bos_id"], tokens["eos_id"], steps, beam_width=w)
            assert [h["tokens"] for h in page] == [h for h, _ in want], (w, src)
            assert max(abs(h["score"] - s) for h, (_, s) in zip(page, want)) <= SCORE_TOL, (w, src)
            assert len(want) == w
        if w == 1:  # width 1 is greedy decoding
            for src, page in zip(got["srcs"], got["out"]["1"]):
                greedy = tc.greedy_decode(model, torch.tensor([src]), tokens["bos_id"], steps, eos_id=tokens["eos_id"])
                assert page[0]["tokens"] == greedy[0].tolist()


def test_each_beam_score_is_the_hypothesis_log_probability_and_one_source_is_required():
    """On a random model, every width: each hypothesis' score (summed over the cached steps) is
    its log-probability under teacher forcing; a batch of sources is refused."""
    cfg = tc.TransformerConfig(vocab_size=23, d_model=32, n_heads=4, d_ff=64, n_layers=2)
    torch.manual_seed(3)
    model = tc.EncoderDecoderTransformer(cfg).eval()
    src = torch.tensor([[1, 5, 9, 4, 7, 2]])
    for w in BEAM_WIDTHS:
        for hyp, score in tc.beam_search(model, src, 1, 2, 8, beam_width=w, alpha=0.0):
            with torch.no_grad():
                logp = model(src, torch.tensor([hyp[:-1]])).double().log_softmax(-1)[0]
            assert score == pytest.approx(sum(logp[i, t].item() for i, t in enumerate(hyp[1:])), abs=1e-5)
    with pytest.raises(ValueError, match="one source"):
        tc.beam_search(model, torch.cat([src, src]), 1, 2, 8)
