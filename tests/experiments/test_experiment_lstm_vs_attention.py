"""The first-cell experiment (lesson 9, assignment 2): data, ceiling, batched seeds, tiny run."""

from __future__ import annotations

import itertools

import pytest
import torch


from tutorial_code.experiments import lstm_vs_attention as fc
from coursebuild.pipeline import run_experiments
from tutorial_code.experiments.common.seed_stack import fit_binary, predict


def test_label_is_the_first_cell():
    tokens, labels = fc.make_data(500, 7, torch.Generator().manual_seed(0))
    assert tokens.shape == (500, 7) and set(tokens.unique().tolist()) == {0, 1}
    assert torch.equal(labels, tokens[:, 0].float())
    again, _ = fc.make_data(500, 7, torch.Generator().manual_seed(0))
    assert torch.equal(tokens, again)  # seeded


@pytest.mark.parametrize("length", [1, 2, 5, 6, 9])
def test_bag_bound_matches_brute_force(length):
    """Over all 2^L sequences: guess the majority sign from the count alone."""
    right_by_count = {}
    for cells in itertools.product((0, 1), repeat=length):
        k = sum(cells)
        plus, minus = right_by_count.get(k, (0, 0))
        right_by_count[k] = (plus + cells[0], minus + 1 - cells[0])
    best = sum(max(p, m) for p, m in right_by_count.values()) / 2**length
    assert fc.bag_bound(length) == pytest.approx(best, abs=1e-12)
    assert fc.bag_bound(2) == 0.75


def test_bag_bound_tends_to_chance():
    assert fc.bag_bound(10) > fc.bag_bound(50) > fc.bag_bound(200) > 0.5
    assert fc.bag_bound(200) < 0.53


def _tiny_models(kind, seeds, length=6):
    return fc.build(kind, fc.Config.tiny(), length, seeds, "cpu")


@pytest.mark.parametrize("kind", ["transformer", "no_position"])
def test_stacked_transformers_equal_the_single_models(kind):
    cfg, L = fc.Config.tiny(), 6
    x = torch.randint(0, 2, (2, 5, L))
    stacked = _tiny_models(kind, [3, 4], L)
    logits, weights = stacked(x)
    assert logits.shape == (2, 5) and weights.shape == (2, 5, cfg.n_heads, L, L)
    for i, s in enumerate([3, 4]):
        torch.manual_seed(s)
        single = fc.FirstCellTransformer(cfg.d_model, cfg.n_heads, cfg.d_ff, L, kind == "transformer")
        out, w = single(x[i])
        torch.testing.assert_close(logits[i], out)
        torch.testing.assert_close(weights[i], w)


@pytest.mark.parametrize("kind", ["lstm", "transformer"])
def test_training_seeds_together_equals_training_each_alone(kind):
    """Summed losses give each seed its own gradient, and Adam is element-wise.

    Full-batch steps, so the shuffle changes only the order of a sum.
    """
    epochs = 3
    x = torch.randint(0, 2, (2, 64, 6), generator=torch.Generator().manual_seed(1))
    y = x[..., 0].float()
    probe = torch.randint(0, 2, (2, 8, 6))
    together = _tiny_models(kind, [0, 1])
    fit(together, x, y, torch.Generator().manual_seed(5), epochs)
    expected = predict(together, probe)[0]
    for i in range(2):
        alone = _tiny_models(kind, [i])
        fit(alone, x[i : i + 1], y[i : i + 1], torch.Generator().manual_seed(5), epochs)
        got = predict(alone, probe[i : i + 1])[0][0]
        torch.testing.assert_close(got, expected[i], rtol=1e-4, atol=1e-5)


class _Bar(list):
    """A stand-in for ctx.progress: iterates, ignores log()."""

    def log(self, **_):
        pass


def fit(model, x, y, gen, epochs, batch_size=64, stop=False):
    return fit_binary(model, x, y, lr=0.005, batch_size=batch_size, gen=gen,
                      bar=_Bar(range(epochs)), stop_when_solved=stop)


def test_fit_stops_once_every_seed_is_solved():
    x = torch.randint(0, 2, (2, 100, 4), generator=torch.Generator().manual_seed(2))
    info = fit(_tiny_models("transformer", [0, 1], 4), x, x[..., 0].float(),
               torch.Generator().manual_seed(0), 30, batch_size=50, stop=True)
    assert all(s is not None for s in info["solved_at"])
    assert info["epochs"] == max(info["solved_at"]) < 30


def test_tiny_run_end_to_end(tmp_path):
    report = run_experiments(["lstm_vs_attention"], tmp_path, tiny=True, device="cpu")
    o = report["lstm_vs_attention"]
    rec = o.record  # results.json plus what was drawn from it
    res, cfg = rec["results"], fc.Config.tiny()
    assert res["lengths"] == list(cfg.lengths)
    for kind in fc.MODELS:
        n = len(res[kind]["lengths"])
        assert len(res[kind]["acc"]) == n and all(0 <= a <= 1 for a in res[kind]["acc"])
    assert len(res["no_position"]["acc_seeds"][0]) == cfg.ablation_seeds
    attn = res["transformer"]["attn_maps"]
    assert len(attn) == cfg.seeds and len(attn[0]) == cfg.map_length
    assert sum(attn[0][0]) == pytest.approx(1, abs=1e-4)  # a row of weights sums to 1
    assert set(rec["tables"]) == {"accuracy", "accuracy_seeds", "attention", "ablation", "long_budget"}
    long = res["lstm"]["long"]
    assert long["lengths"] == list(cfg.long_lengths) and long["max_epochs"] == cfg.long_epochs
    assert len(rec["tables"]["long_budget"]["rows"]) == len(cfg.long_lengths)
    # the words about the longer budget are chosen from its results, in both languages
    assert set(rec["words"]) == {f"long_{i}" for i in range(len(cfg.long_lengths))} | {"long_verdict", "noise"}
    assert set(res["cpu_s"]) == {*fc.MODELS, "total"} and res["cpu_s"]["total"] > 0
    assert str(cfg.lengths[-1]) in res["at"]
    for lang in ("ko", "en"):
        assert sorted(o.figure_paths(lang)) == ["accuracy", "attention", "attention_map"]


def test_a_looped_seed_stops_when_solved_and_trains_as_it_would_alone():
    """Per-seed stopping: seed s's updates never depend on when the other seeds finished."""
    x = torch.randint(0, 2, (2, 100, 3), generator=torch.Generator().manual_seed(4))
    y = x[..., 0].float()
    probe = torch.randint(0, 2, (2, 8, 3))
    together = _tiny_models("lstm", [0, 1], 3)
    info = fit(together, x, y, torch.Generator().manual_seed(5), 40, batch_size=50, stop=True)
    assert all(s is not None for s in info["solved_at"])
    for i in range(2):
        solo = fit_alone_with_shared_shuffles(_tiny_models("lstm", [i], 3), x, y, i,
                                              info["solved_at"][i])
        torch.testing.assert_close(predict(solo, probe[i : i + 1])[0][0],
                                   predict(together, probe)[0][i], rtol=1e-4, atol=1e-5)


def fit_alone_with_shared_shuffles(alone, x, y, i, epochs):
    """Seed i alone for exactly the epochs it trained in the group, on the group's shuffles."""
    order_gen = torch.Generator().manual_seed(5)
    opt = torch.optim.Adam(alone.parameters(), lr=0.005)
    for _ in range(epochs):
        order = torch.rand(2, 100, generator=order_gen).argsort(dim=1)[i]
        for b in range(0, 100, 50):
            idx = order[b : b + 50]
            logits = alone(x[i : i + 1, idx])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, y[i : i + 1, idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return alone


def test_count_ceiling_is_the_majority_label_per_count():
    x = torch.randint(0, 2, (2, 300, 5), generator=torch.Generator().manual_seed(3))
    y = x[..., 0].float()
    for s, got in enumerate(fc.count_ceiling(x, y)):
        by_count = {}
        for tokens, label in zip(x[s].tolist(), y[s].tolist()):
            ones, n = by_count.get(sum(tokens), (0, 0))
            by_count[sum(tokens)] = (ones + label, n + 1)
        best = sum(max(ones, n - ones) for ones, n in by_count.values()) / 300
        assert got == pytest.approx(best)
        assert 0.5 <= got <= 1.0


def test_the_longer_budget_continues_the_budget_run():
    """The table's 30-epoch numbers at a long length are exactly those of a run stopped there."""
    import dataclasses
    from pathlib import Path
    from coursebuild.pipeline.context import RunContext

    ctx = RunContext(name="lstm_vs_attention", device=torch.device("cpu"), seed=0, tiny=True,
                     out_dir=Path("."), progress_stream=open("/dev/null", "w"))
    cfg = dataclasses.replace(fc.Config.tiny(), n_train=200, n_test=100, epochs=2,
                              long_lengths=(5,), long_epochs=5, stop_when_solved=False)
    plain = fc.run_length("lstm", 5, [0, 1], dataclasses.replace(cfg, long_lengths=()), ctx)
    longer = fc.run_length("lstm", 5, [0, 1], cfg, ctx)
    assert "long" not in plain and longer["acc"] == plain["acc"]
    assert longer["epochs"] == 2 and longer["long"]["epochs"] == 5
    budget = fc.long_budget([longer], cfg)["at"]["5"]
    assert budget["acc_seeds"] == longer["long"]["acc"] and budget["solved_seeds"] in (0, 1, 2)


def test_the_words_follow_the_results():
    """Solved on every seed, on some, on none: the page's clause changes with the numbers."""
    from tutorial_code.experiments.drawing import lstm_vs_attention as draw

    def res(*solved):
        at = {str(L): {"solved_seeds": k, "seeds": 2} for L, k in zip((25, 50), solved)}
        return {"lstm": {"long": {"lengths": [25, 50], "at": at}}}

    both = draw.words(res(2, 2))
    assert both["long_0"]["en"] == "solved it on both seeds"
    assert "slower to learn" in both["long_verdict"]["en"]
    some = draw.words(res(2, 1))  # one seed of two is enough to show it can be learnt
    assert some["long_1"]["en"] == "solved it on only 1 of 2 seeds"
    assert "not every seed" in some["long_verdict"]["en"]
    mixed = draw.words(res(2, 0))
    assert "shorter length but not the longer" in mixed["long_verdict"]["en"]
    none = draw.words(res(0, 0))
    assert "none of the 2 seeds" in none["long_0"]["en"] and "did not teach" in none["long_verdict"]["en"]
    assert "못했습니다" in none["long_0"]["ko"]
