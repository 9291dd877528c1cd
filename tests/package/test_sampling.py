"""tutorial_code/writing/sampling.py against references written another way, and the page's
sampling.js against it, in Node.

* next_token_probs equals a NumPy reference that follows the definitions in another formulation
  (top-k by argpartition, top-p as Hugging Face's TopPLogitsWarper writes it: sort ascending and
  drop the tokens whose cumulative probability is at most 1 − p), on random scores without ties;
* ties are ranked by index, cut-offs keep at least one token, a temperature near 0 approaches
  greedy decoding and a large one the uniform distribution;
* pick chooses by the running total, and a seeded stream of draws matches the probabilities;
* options that choose no token are refused with a message that says what to use instead, in
  Python and in the page;
* the page's functions give the Python probabilities (1e-12) and choose the same tokens from the
  same random numbers (mulberry32, the page's own stream, mirrored in Python bit for bit).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from node_runner import NodeError, run_js
from tutorial_code.experiments.common.trainer_task import mulberry32
from tutorial_code.writing import sampling

OPTIONS = [
    {},
    {"temperature": 0.5},
    {"temperature": 2.0},
    {"top_k": 1},
    {"top_k": 3},
    {"top_p": 0.5},
    {"top_p": 0.9},
    {"top_p": 1.0},
    {"temperature": 0.7, "top_k": 5, "top_p": 0.8},
    {"temperature": 1.3, "top_p": 0.3},
]


def reference_probs(logits: np.ndarray, temperature=1.0, top_k=None, top_p=None) -> np.ndarray:
    x = logits.astype(np.float64) / temperature
    p = np.exp(x - x.max())
    p /= p.sum()
    keep = np.ones_like(p, dtype=bool)
    if top_k is not None and top_k < len(p):
        keep[:] = False
        keep[np.argpartition(-p, top_k - 1)[:top_k]] = True
    q = np.where(keep, p, 0.0)
    if top_p is not None:
        q = q / q.sum()
        order = np.argsort(q, kind="stable")  # ascending
        cumulative = np.cumsum(q[order])
        drop = cumulative <= 1 - top_p
        drop[-1] = False  # the most probable token always stays
        q[order[drop]] = 0.0
    return q / q.sum()


def random_logits(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.normal(0, 2.0, size=n)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "plain")
def test_next_token_probs_equal_the_reference(options):
    rng = np.random.default_rng(0)
    for n in (1, 2, 7, 50, 500):
        for _ in range(20):
            logits = random_logits(rng, n)
            ours = sampling.next_token_probs(torch.tensor(logits), **options).numpy()
            ref = reference_probs(logits, **options)
            assert np.allclose(ours, ref, rtol=0, atol=1e-12), (n, options, ours, ref)
            assert math.isclose(ours.sum(), 1.0, abs_tol=1e-12)


def test_top_p_keeps_the_fewest_tokens_that_reach_p():
    logits = torch.log(torch.tensor([0.1, 0.4, 0.2, 0.3], dtype=torch.float64))
    kept = lambda p: sorted(int(i) for i in torch.nonzero(sampling.next_token_probs(logits, top_p=p)))  # noqa: E731
    assert kept(0.39) == [1]          # 0.4 alone reaches 0.39
    assert kept(0.41) == [1, 3]       # 0.4 + 0.3
    assert kept(0.69) == [1, 3]
    assert kept(0.71) == [1, 2, 3]
    assert kept(1.0) == [0, 1, 2, 3]
    assert kept(1e-9) == [1]          # at least one token
    # exact sums: four equal scores are 0.25 each, and two of them reach 0.5 exactly
    uniform = sampling.next_token_probs(torch.zeros(4), top_p=0.5)
    assert uniform.tolist() == [0.5, 0.5, 0.0, 0.0]
    assert run_js(["sampling.js"], "(p) => Array.from(Sampling.nextTokenProbs([0, 0, 0, 0], {topP: p}))", 0.5) \
        == [0.5, 0.5, 0.0, 0.0]


def test_ties_are_ranked_by_index():
    logits = torch.tensor([1.0, 2.0, 2.0, 2.0, 0.0])
    probs = sampling.next_token_probs(logits, top_k=2)
    assert torch.nonzero(probs).flatten().tolist() == [1, 2]
    assert sampling.ranked(torch.tensor([0.25, 0.25, 0.5])).tolist() == [2, 0, 1]
    assert sampling.greedy(logits) == 1


def test_temperature_limits():
    logits = torch.tensor([0.3, 1.2, -0.5, 1.1])
    cold = sampling.next_token_probs(logits, temperature=1e-3)
    assert cold[1] > 1 - 1e-12 and sampling.greedy(logits) == 1
    hot = sampling.next_token_probs(logits, temperature=1e6)
    assert torch.allclose(hot, torch.full((4,), 0.25, dtype=torch.float64), atol=1e-5)


def test_pick_walks_the_running_total():
    probs = torch.tensor([0.0, 0.25, 0.0, 0.5, 0.25], dtype=torch.float64)
    assert [sampling.pick(probs, u) for u in (0.0, 0.2499, 0.25, 0.7499, 0.75, 0.9999)] == [1, 1, 3, 3, 4, 4]
    # rounding can leave the total just below 1: the last possible token, never a zero one
    assert sampling.pick(torch.tensor([0.3, 0.3, 0.3999999, 0.0], dtype=torch.float64), 0.99999999) == 2


def test_a_seeded_stream_of_draws_follows_the_probabilities():
    logits = torch.tensor([0.5, 1.5, -1.0, 0.0, 1.0])
    probs = sampling.next_token_probs(logits, temperature=0.8, top_k=4)
    rand, n = mulberry32(7), 20000
    counts = np.bincount([sampling.pick(probs, rand()) for _ in range(n)], minlength=5)
    expected = probs.numpy() * n
    assert counts[2] == 0 and expected[2] == 0  # cut off by top-k: never chosen
    sd = np.sqrt(expected * (1 - probs.numpy()))
    assert np.all(np.abs(counts - expected) <= 4 * sd + 1e-9), (counts, expected)


@pytest.mark.parametrize("options, message", [
    ({"temperature": 0}, "temperature must be a number above 0.*greedy"),
    ({"temperature": -1.0}, "temperature must be a number above 0"),
    ({"temperature": float("nan")}, "temperature must be a number above 0"),
    ({"top_k": 0}, "top_k must be a whole number of at least 1"),
    ({"top_k": 2.5}, "top_k must be a whole number of at least 1"),
    ({"top_p": 0}, "top_p must be above 0 and at most 1"),
    ({"top_p": 1.5}, "top_p must be above 0 and at most 1"),
])
def test_options_that_choose_no_token_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        sampling.next_token_probs(torch.zeros(5), **options)


def test_bad_shapes_and_draws_are_refused():
    with pytest.raises(ValueError, match=r"shape \(V,\)"):
        sampling.next_token_probs(torch.zeros(2, 5))
    with pytest.raises(ValueError, match=r"u must be in \[0, 1\)"):
        sampling.pick(torch.tensor([1.0], dtype=torch.float64), 1.0)


# ---------------------------------------------------------------- the page's sampling.js

JS_OPTIONS = {"temperature": "temperature", "top_k": "topK", "top_p": "topP"}


def page_cases():
    rng = np.random.default_rng(1)
    cases = []
    for i in range(300):
        n = int(rng.integers(1, 60))
        logits = random_logits(rng, n)
        if i % 5 == 0:
            logits = np.round(logits)  # ties
        options = OPTIONS[i % len(OPTIONS)]
        cases.append({"logits": logits.tolist(), "options": {JS_OPTIONS[k]: v for k, v in options.items()},
                      "py": options, "seed": i})
    return cases


def test_the_page_chooses_the_same_tokens_from_the_same_random_numbers():
    cases = page_cases()
    out = run_js(["sampling.js", "trainer_task.js"], """(cases) => cases.map((c) => {
        const rand = TrainerTask.mulberry32(c.seed), probs = Sampling.nextTokenProbs(c.logits, c.options);
        const tokens = []; for (let i = 0; i < 20; i++) tokens.push(Sampling.sample(c.logits, rand(), c.options));
        return {probs: Array.from(probs), tokens: tokens, greedy: Sampling.greedy(c.logits)};
    })""", [{k: c[k] for k in ("logits", "options", "seed")} for c in cases])
    for case, page in zip(cases, out):
        logits = torch.tensor(case["logits"], dtype=torch.float64)
        probs = sampling.next_token_probs(logits, **case["py"])
        assert np.allclose(page["probs"], probs.numpy(), rtol=0, atol=1e-12), case
        rand = mulberry32(case["seed"])
        assert page["tokens"] == [sampling.sample(logits, rand(), **case["py"]) for _ in range(20)], case
        assert page["greedy"] == sampling.greedy(logits) == int(np.argmax(case["logits"]))


@pytest.mark.parametrize("options, message", [
    ({"temperature": 0}, "temperature must be a number above 0"),
    ({"topK": 0}, "topK must be a whole number of at least 1"),
    ({"topP": 1.5}, "topP must be above 0 and at most 1"),
])
def test_the_page_refuses_the_same_options(options, message):
    with pytest.raises(NodeError, match=message):
        run_js(["sampling.js"], "(o) => Sampling.nextTokenProbs([0, 1, 2], o)", options)
