"""The norm-placement experiment (lesson 7): copy data, same init for both placements, tiny run."""

from __future__ import annotations


import pytest
import torch


from tutorial_code.experiments import norm_placement as npl
from tutorial_code.experiments.pagedata import norm_placement as npl_page
from coursebuild.pipeline import run_experiments


def test_copy_batch_repeats_the_digits_after_sep():
    x, y = npl.copy_batch(16, 5, torch.Generator().manual_seed(0))
    assert x.shape == y.shape == (16, 10)
    seq = torch.cat([x, y[:, -1:]], dim=1)  # the full sequence x_1..x_5 SEP x_1..x_5
    assert torch.equal(seq[:, :5], seq[:, 6:])
    assert (seq[:, 5] == npl.SEP).all()
    assert torch.equal(x[:, 1:], y[:, :-1])  # targets are the inputs shifted by one
    assert ((seq[:, :5] >= npl.DIGIT0) & (seq[:, :5] < npl.VOCAB_SIZE)).all()


def test_both_placements_start_from_the_same_weights():
    cfg = npl.Config.tiny()
    post = dict(npl.make_model(cfg, "post", "cpu").named_parameters())
    pre = dict(npl.make_model(cfg, "pre", "cpu").named_parameters())
    assert set(pre) - set(post) == {"decoder.norm.weight", "decoder.norm.bias"}  # final LN
    for name, p in post.items():
        assert torch.equal(p, pre[name]), name
    assert npl.make_model(cfg, "pre", "cpu").cfg.norm_first is True


def test_output_layer_is_tied_to_the_embedding():
    model = npl.make_model(npl.Config.tiny(), "post", "cpu")
    assert model.out.weight is model.embed.tokens.weight


def test_copy_loss_ignores_the_random_half():
    cfg = npl.Config.tiny()
    model = npl.make_model(cfg, "pre", "cpu")
    x, y = npl.copy_batch(4, cfg.n_digits, torch.Generator().manual_seed(1))
    y_other = y.clone()
    y_other[:, : cfg.n_digits - 1] = npl.DIGIT0  # change targets in the unpredictable half
    loss = npl.copy_loss(model, x, y, cfg.n_digits)
    assert loss == npl.copy_loss(model, x, y_other, cfg.n_digits)


def test_layer_grad_norms_one_per_layer():
    cfg = npl.Config.tiny()
    grads = npl.grads_at_init(cfg, "post", "cpu")
    assert len(grads) == cfg.init_seeds and all(len(g) == cfg.n_layers for g in grads)
    assert all(v > 0 for g in grads for v in g)


def test_tiny_run_end_to_end(tmp_path):
    report = run_experiments(["norm_placement"], tmp_path, tiny=True, device="cpu")
    o = report["norm_placement"]
    rec = o.record  # results.json plus what was drawn from it
    res, cfg = rec["results"], npl.Config.tiny()
    assert set(res["runs"]) == {"post_no_warmup", "post_warmup", "pre_no_warmup", "pre_warmup"}
    for run in res["runs"].values():
        assert len(run["curve_loss"]) == cfg.steps // cfg.curve_every
        assert sorted(run["grad_norms"], key=int) == [str(s) for s in cfg.checkpoints]
    assert res["final"]["post"]["warmup"] == pytest.approx(res["runs"]["post_warmup"]["final_loss"])
    assert len(res["init"]["post"]) == cfg.n_layers
    for run in res["runs"].values():
        last = run["grad_norms"][str(cfg.checkpoints[-1])]
        assert run["bottom_over_top"] == pytest.approx(last[0] / last[-1])
    for path in {**npl.GATES, **npl_page.CLAIMS}:  # every full-size gate and claim names a real key
        node = res
        for part in path.split("."):
            node = node[int(part)] if isinstance(node, list) else node[part]
        assert isinstance(node, (int, float)), path
    wanted = {"init", "runs", "checkpoints_post_no_warmup", "checkpoints_pre_warmup"}
    assert wanted <= set(rec["tables"])
    for lang in ("ko", "en"):
        assert sorted(o.figure_paths(lang)) == ["grad_init", "grad_training", "loss"]
