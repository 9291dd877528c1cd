"""The reference encoder–decoder learns to reverse 8 digits (lessons 5 and 8; figures 7, 8, 9).

``tc.TransformerConfig()`` defaults (D = 64, h = 4, d_ff = 128, N = 2, post-LN, sinusoidal
positions), with the package's Xavier initialisation. Source ``[BOS, x_1 … x_8,
EOS]``, target ``[BOS, x_8 … x_1, EOS]``. Training sequences are drawn fresh from a seeded
stream and never include a validation or test sequence (those are redrawn; the count is kept).

run() does three things:

1. the main recipe (Adam, one-cycle schedule, peak lr 5e-3, batch 64, 3 epochs of 10,000):
   per-epoch loss and greedy validation scores, the loss every 25 steps, a teacher-forced
   validation check every ``check_every`` samples, then greedy decoding (with the KV cache)
   on the held-out test set;
2. attention of the trained model on [BOS, 3, 7, 1, 4, 9, 2, 8, 5, EOS]: every layer and head of
   the cross-attention, and how much weight falls on the mirrored source position (the
   anti-diagonal: the query writing y_i = x_{9-i} should look at x_{9-i});
3. recipes compared by the training samples needed to reach the target (validation exact match
   ≥ 99.5 %): one-cycle Adam, the paper's warm-up schedule, constant Adam lr 1e-3.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np
import torch
from matplotlib.ticker import FuncFormatter

import tutorial_code as tc

from . import attention_plots as ap
from . import digit_tasks as dt
from . import plotting
from . import seq2seq as s2s
from .cpu_threads import torch_threads
from .tables import column

TITLE = {"ko": "숫자 뒤집기를 배우는 인코더–디코더", "en": "An encoder–decoder learns to reverse digits"}

# what the reference portfolio reported (lesson 8); literature values, not computed here
D_MODEL = tc.TransformerConfig().d_model  # the reference model's width (64)
REFERENCE_PORTFOLIO = {"epochs": 25, "valid_accuracy": 0.984, "loss_first": 2.29, "loss_last": 0.16,
                       "note": "reported by the reference portfolio; a constant, not computed here"}


@dataclass(frozen=True)
class Config:
    length: int = 8                  # digits per sequence
    epochs: int = 3                  # main run: passes of epoch_size fresh sequences
    epoch_size: int = 10_000         # sequences per epoch (the last partial batch is dropped)
    batch_size: int = 64
    max_lr: float = 5e-3             # one-cycle peak learning rate
    n_valid: int = 1_000             # validation sequences (monitoring only)
    n_test: int = 5_000              # held-out test sequences, scored once at the end
    check_every: int = 2_048         # samples between teacher-forced validation checks
    log_every: int = 25              # steps between points of the training-loss curve
    target: float = 0.995            # validation exact match that counts as "learned"
    compare_seeds: int = 2           # seeds per recipe in the comparison
    compare_cap: int = 40_000        # most training samples a compared recipe may use
    noam_warmup: int = 400           # paper: 4000; peak D^-0.5·w^-0.5 = 6.25e-3 ≈ the one-cycle peak
    constant_lr: float = 1e-3        # Adam's usual default
    example: tuple[int, ...] = (3, 7, 1, 4, 9, 2, 8, 5)  # the lesson's input digits
    n_attention: int = 1_000         # test sequences the attention statistics average over
    seed: int = 0

    @classmethod
    def tiny(cls) -> "Config":
        return cls(epochs=1, epoch_size=640, n_valid=200, n_test=300, check_every=320,
                   compare_seeds=1, compare_cap=640, n_attention=100)


GATES = {
    "test.greedy.exact_match": (0.995, 1.0),      # the gate of the lesson: reversal is learned
    "test.n_sequences": (5_000, 10**9),
    "test.exact_match_agrees": (1, 1),            # greedy and teacher-forced exact match coincide
    "data.train_test_overlap": (0, 0),            # held-out sequences never seen in training
    "data.train_valid_overlap": (0, 0),
    "attention.example_correct": (1, 1),         # the lesson's example is reversed right
    "attention.example.last_layer_mirror_weight": (0.5, 1.0),       # the anti-diagonal is there
    "attention.test_average.last_layer_mirror_weight": (0.5, 1.0),  # (uniform would be 0.1)
    "recipes.one_cycle.all_reached": (1, 1),      # the main recipe reaches the target on every seed
}
TINY_GATES = {"data.train_test_overlap": (0, 0), "test.exact_match_agrees": (1, 1)}


def steps_per_epoch(cfg: Config) -> int:
    return cfg.epoch_size // cfg.batch_size


def recipes(cfg: Config) -> list[s2s.Recipe]:
    return [
        s2s.Recipe("one_cycle", "one_cycle", lr=cfg.max_lr),
        # Vaswani et al. §5.3: Adam β=(0.9, 0.98), ε=1e-9, lr = D^-0.5·min(s^-0.5, s·w^-1.5)
        s2s.Recipe("noam", "noam", warmup=cfg.noam_warmup, betas=(0.9, 0.98), eps=1e-9),
        s2s.Recipe("constant", "constant", lr=cfg.constant_lr),
    ]


def new_model(seed: int, device) -> tc.EncoderDecoderTransformer:
    torch.manual_seed(seed)  # the weights of run `seed`
    model = tc.EncoderDecoderTransformer(tc.TransformerConfig(vocab_size=dt.VOCAB_SIZE))
    return model.to(device)


def new_trainer(recipe: s2s.Recipe, run_seed: int, total_steps: int, data: dict, cfg: Config, ctx):
    """A fresh model and its trainer (checks on the validation set); ``total_steps`` sizes one-cycle."""
    model = new_model(run_seed, ctx.device)
    opt, sched = s2s.build_optimizer(model.parameters(), recipe, total_steps, model.cfg.d_model)
    vsrc, vtgt = data["valid_pairs"]
    trainer = s2s.Trainer(model, opt, sched, check=lambda m: s2s.teacher_forced_metrics(m, vsrc, vtgt),
                          check_every=cfg.check_every, target=cfg.target, log_every=cfg.log_every)
    return model, trainer


def main_run(cfg: Config, ctx, data: dict) -> dict:
    """The one-cycle recipe for cfg.epochs epochs, scored per epoch and on the test set."""
    n_steps = cfg.epochs * steps_per_epoch(cfg)
    model, trainer = new_trainer(recipes(cfg)[0], cfg.seed, n_steps, data, cfg, ctx)
    gen, stats, epochs, seen = ctx.generator(0), {}, [], []
    vsrc, vtgt = data["valid_pairs"]
    with ctx.progress(cfg.epochs, "one-cycle epochs") as bar:
        for epoch in bar:
            batches = dt.training_batches(gen, steps_per_epoch(cfg), cfg.batch_size, cfg.length,
                                          exclude=data["exclude"], device=ctx.device, stats=stats)
            losses = trainer.run(dt.remember_digits(batches, seen))
            val = s2s.greedy_metrics(model, vsrc, vtgt, dt.BOS, dt.EOS)
            epochs.append({"epoch": epoch + 1, "samples": trainer.samples, "seconds": trainer.seconds,
                           "loss": statistics.fmean(losses), "valid_token_accuracy": val["token_accuracy"],
                           "valid_exact_match": val["exact_match"]})
            bar.log(loss=epochs[-1]["loss"], valid_exact=val["exact_match"])
    train_digits = torch.cat(seen)
    tsrc, ttgt = data["test_pairs"]
    greedy = s2s.greedy_metrics(model, tsrc, ttgt, dt.BOS, dt.EOS)
    forced = s2s.teacher_forced_metrics(model, tsrc, ttgt)
    return {
        "model": model,
        "trainer": trainer,
        "epochs": epochs,
        "test": {"greedy": greedy, "teacher_forced": forced, "n_sequences": greedy["n_sequences"],
                 "exact_match_agrees": int(abs(greedy["exact_match"] - forced["exact_match"]) < 1e-12)},
        "data": {"train_sequences": train_digits.size(0), "removed_from_training": stats.get("removed", 0),
                 "train_test_overlap": dt.overlap(train_digits, data["test"]),
                 "train_valid_overlap": dt.overlap(train_digits, data["valid"]),
                 "valid_test_overlap": dt.overlap(data["valid"], data["test"]),
                 "n_valid": cfg.n_valid, "n_test": cfg.n_test},
    }


@torch.no_grad()
def attention(model, cfg: Config, data: dict) -> dict:
    """Attention maps on the lesson's example, and mirror weights averaged over test sequences."""
    model.eval()
    src, tgt = (t.to(next(model.parameters()).device) for t in dt.make_pairs(torch.tensor([cfg.example])))
    _, att = model(src, tgt[:, :-1], return_attention=True)
    written = tc.greedy_decode(model, src, dt.BOS, tgt.size(1) - 1, eos_id=dt.EOS)[0]
    tsrc, ttgt = (t[:cfg.n_attention] for t in data["test_pairs"])
    _, test_att = model(tsrc, ttgt[:, :-1], return_attention=True)
    example = [dt.mirror_weight(w, cfg.length) for w in att["cross"]]          # per layer (h,)
    averaged = [dt.mirror_weight(w, cfg.length) for w in test_att["cross"]]
    return {
        "src_tokens": dt.token_names(src[0]),
        "tgt_tokens": dt.token_names(tgt[0, :-1]),      # the decoder's inputs (queries)
        "greedy_output": dt.token_names(written),       # what the model writes for the example
        "example_correct": int(torch.equal(written, tgt[0])),
        "cross": [w[0].tolist() for w in att["cross"]],  # per layer (h, L_t, L_s)
        "encoder": [w[0].tolist() for w in att["encoder"]],
        "example": {"mirror_weight": [m.tolist() for m in example],
                    "layer_mirror_weight": [m.mean().item() for m in example],
                    "last_layer_mirror_weight": example[-1].mean().item()},
        "test_average": {"mirror_weight": [m.tolist() for m in averaged],
                         "layer_mirror_weight": [m.mean().item() for m in averaged],
                         "last_layer_mirror_weight": averaged[-1].mean().item(),
                         "n_sequences": tsrc.size(0)},
        "uniform_weight": 1 / src.size(1),
    }


def budget_steps(recipe: s2s.Recipe, cfg: Config) -> int:
    """One-cycle runs its planned schedule (the main run's length); the others up to the cap."""
    if recipe.schedule == "one_cycle":
        return cfg.epochs * steps_per_epoch(cfg)
    return cfg.compare_cap // cfg.batch_size


def compare(cfg: Config, ctx, data: dict, main_trainer) -> dict:
    """Samples (and seconds) each recipe needs to reach the target, on cfg.compare_seeds seeds."""
    jobs = [(r, k) for r in recipes(cfg) for k in range(cfg.compare_seeds)]
    runs = {r.name: [] for r in recipes(cfg)}
    with ctx.progress(len(jobs), "recipe runs") as bar:
        for i in bar:
            recipe, k = jobs[i]
            steps = budget_steps(recipe, cfg)
            if recipe.name == "one_cycle" and k == 0:
                trainer = main_trainer                       # the main run is one-cycle, seed 0
            else:
                _, trainer = new_trainer(recipe, cfg.seed + k, steps, data, cfg, ctx)
                trainer.run(dt.training_batches(ctx.generator(k), steps, cfg.batch_size, cfg.length,
                                                exclude=data["exclude"], device=ctx.device),
                            stop_at_target=True)
            hit = trainer.reached or {}
            runs[recipe.name].append({
                "seed": cfg.seed + k, "cap_samples": steps * cfg.batch_size,
                "samples_to_target": hit.get("samples"), "seconds_to_target": hit.get("seconds"),
                "checks": [{key: c[key] for key in ("samples", "exact_match", "token_accuracy", "lr")}
                           for c in trainer.checks]})
            bar.log(recipe=recipe.name, samples=hit.get("samples"))
    return {r.name: summarise(r, runs[r.name], cfg) for r in recipes(cfg)}


def summarise(recipe: s2s.Recipe, runs: list, cfg: Config) -> dict:
    """A recipe's runs plus: how many reached the target, mean samples and seconds (if all did)."""
    hits = [r for r in runs if r["samples_to_target"] is not None]
    every = len(hits) == len(runs)
    steps = budget_steps(recipe, cfg)
    return {"runs": runs, "schedule": recipe.schedule,
            "warmup": recipe.warmup if recipe.schedule == "noam" else None,
            "reached": len(hits), "n_seeds": len(runs), "all_reached": int(every),
            "cap_samples": steps * cfg.batch_size,
            "mean_samples_to_target": statistics.fmean(r["samples_to_target"] for r in hits) if every else None,
            "mean_seconds_to_target": statistics.fmean(r["seconds_to_target"] for r in hits) if every else None,
            "peak_lr": max(s2s.lr_trace(recipe, D_MODEL, steps, every=1)),
            "lr_trace": s2s.lr_trace(recipe, D_MODEL, steps, every=10),
            "lr_trace_every_samples": 10 * cfg.batch_size}


def run(cfg: Config, ctx) -> dict:
    with torch_threads(1, ctx.device):
        return _run(cfg, ctx)


def _run(cfg: Config, ctx) -> dict:
    data = dt.held_out(cfg.n_valid, cfg.n_test, cfg.length, "reverse", ctx)
    main = main_run(cfg, ctx, data)
    trainer = main["trainer"]
    results = {
        "model": {**{k: getattr(main["model"].cfg, k) for k in ("d_model", "n_heads", "d_k", "d_ff", "n_layers")},
                  "parameters": tc.count_parameters(main["model"])["total"]},
        "epochs": main["epochs"],
        "loss_curve": trainer.loss_curve,
        "checks": trainer.checks,
        "train_samples": trainer.samples,
        "train_seconds": trainer.seconds,
        "test": main["test"],
        "data": main["data"],
        "attention": attention(main["model"], cfg, data),
        "recipes": compare(cfg, ctx, data, trainer),
        "recipe_order": [rec.name for rec in recipes(cfg)],
        "compare_seeds": cfg.compare_seeds,
        "seed": cfg.seed,
        "target": cfg.target,
        "log_every": cfg.log_every,
        "reference_portfolio": REFERENCE_PORTFOLIO,
    }
    results["tables"] = tables(results)
    return results


RECIPE_NAMES = {  # table and legend text, the same in both languages (formulas and code names)
    "one_cycle": "Adam + OneCycleLR (max lr {lr:.2g})",
    "noam": "Adam(0.9, 0.98) + $D^{{-0.5}}\\min(s^{{-0.5}}, s\\,w^{{-1.5}})$, w = {w}",
    "constant": "Adam, lr = {lr:g}",
}


def recipe_name(key: str, rec: dict) -> str:
    return RECIPE_NAMES[key].format(lr=rec["peak_lr"], w=rec.get("warmup"))


def tables(r: dict) -> dict:
    rows = []
    for key in r["recipe_order"]:
        rec = r["recipes"][key]
        per_seed = [f"{x['samples_to_target']:,}" if x["samples_to_target"] else f"> {x['cap_samples']:,}"
                    for x in rec["runs"]]
        rows.append({"recipe": recipe_name(key, rec), "reached": f"{rec['reached']}/{rec['n_seeds']}",
                     "per_seed": " / ".join(per_seed),
                     "mean": rec["mean_samples_to_target"] or f"> {rec['cap_samples']:,}",
                     "seconds": rec["mean_seconds_to_target"] or "–"})
    test, att = r["test"], r["attention"]["test_average"]
    final = [{"samples": r["train_samples"], "seconds": r["train_seconds"], "n": test["n_sequences"],
              "token": test["greedy"]["token_accuracy"], "exact": test["greedy"]["exact_match"],
              "forced": test["teacher_forced"]["exact_match"], "mirror": att["last_layer_mirror_weight"]}]
    n_heads = len(att["mirror_weight"][0])
    mirror = [{"layer": i + 1, **{f"h{j + 1}": w[j] for j in range(n_heads)}, "mean": statistics.fmean(w)}
              for i, w in enumerate(att["mirror_weight"])]
    return {
        "mirror": {"columns": [column("layer", "층", "layer"),
                               *[column(f"h{j + 1}", f"헤드 {j + 1}", f"head {j + 1}", ".3f") for j in range(n_heads)],
                               column("mean", "헤드 평균", "head mean", ".3f")], "rows": mirror},
        "recipes": {"columns": [
            column("recipe", "레시피", "recipe"), column("reached", "목표 도달 (시드)", "reached (seeds)"),
            column("per_seed", "시드별 필요 샘플", "samples needed, per seed"),
            column("mean", "평균 필요 샘플", "mean samples needed", ",.0f"),
            column("seconds", "평균 학습 시간 (초)", "mean training time (s)", ".1f")], "rows": rows},
        "final": {"columns": [
            column("samples", "학습 샘플", "training samples", ","),
            column("seconds", "학습 시간 (초)", "training time (s)", ".1f"),
            column("n", "테스트 시퀀스", "test sequences", ","),
            column("token", "토큰 정확도 (그리디)", "token accuracy (greedy)", ".4f"),
            column("exact", "완전 일치율 (그리디)", "exact match (greedy)", ".4f"),
            column("forced", "완전 일치율 (교사 강요)", "exact match (teacher forcing)", ".4f"),
            column("mirror", "거울 위치 가중치 (마지막 층)", "weight on the mirror position (last layer)",
                ".3f")],
            "rows": final},
    }


LABELS = {
    "ko": {
        "loss_title": "학습 손실", "samples": "학습 샘플 수", "loss": "교차 엔트로피 손실",
        "loss_50": "{n}스텝 평균", "loss_epoch": "에포크 평균", "epoch": "에포크 {e}",
        "acc_title": "검증 정확도 (시퀀스 {n:,}개)", "acc": "정확도",
        "token_tf": "토큰 정확도 (교사 강요)", "exact_tf": "완전 일치율 (교사 강요)",
        "exact_greedy": "완전 일치율 (그리디, 에포크 끝)", "target": "목표 {t:.1%}",
        "grid_title": "층 × 헤드별 크로스 어텐션, 입력 {src}",
        "layer": "{i}층", "query": "디코더 입력", "key": "소스 토큰",
        "head_title": "헤드 {j} · 거울 위치 {w:.2f}",
        "mark_note": "주황 테두리: 거울 위치 (출력 $y_i = x_{{{m}-i}}$를 쓸 때 볼 소스 위치)",
        "enc_title": "인코더 셀프 어텐션 ({L}층, 헤드 평균)", "enc_query": "소스 토큰 (쿼리)",
        "cross_title": "크로스 어텐션 ({L}층, 헤드 평균)\n거울 위치 가중치 {w:.2f}",
        "lr_title": "학습률 스케줄", "lr": "학습률",
        "race_title": "목표 {t:.1%}에 닿기까지", "exact": "검증 완전 일치율",
        "seed_styles": "실선: 시드 {a}, 점선: 시드 {b}",
        "reached": "목표 도달", "cap": "예산 한도",
        "recipe_one_cycle": "원사이클 (최대 {lr:.2g})", "recipe_noam": "논문의 웜업 (w = {w})",
        "recipe_constant": "고정 학습률 {lr:g}",
    },
    "en": {
        "loss_title": "Training loss", "samples": "training samples", "loss": "cross-entropy loss",
        "loss_50": "mean of {n} steps", "loss_epoch": "epoch mean", "epoch": "epoch {e}",
        "acc_title": "Validation accuracy ({n:,} sequences)", "acc": "accuracy",
        "token_tf": "token accuracy (teacher forcing)", "exact_tf": "exact match (teacher forcing)",
        "exact_greedy": "exact match (greedy, end of epoch)", "target": "target {t:.1%}",
        "grid_title": "Cross-attention of every layer and head, input {src}",
        "layer": "layer {i}", "query": "decoder input", "key": "source token",
        "head_title": "head {j} · mirror {w:.2f}",
        "mark_note": "orange outline: the mirrored position (the source position the output $y_i = x_{{{m}-i}}$ comes from)",
        "enc_title": "Encoder self-attention (layer {L}, head mean)", "enc_query": "source token (query)",
        "cross_title": "Cross-attention (layer {L}, head mean)\nweight on the mirror position {w:.2f}",
        "lr_title": "Learning-rate schedules", "lr": "learning rate",
        "race_title": "Reaching the target of {t:.1%}", "exact": "validation exact match",
        "seed_styles": "solid: seed {a}, dashed: seed {b}",
        "reached": "target reached", "cap": "budget cap",
        "recipe_one_cycle": "one-cycle (max {lr:.2g})", "recipe_noam": "paper's warm-up (w = {w})",
        "recipe_constant": "constant lr {lr:g}",
    },
}
RECIPE_COLORS = {"one_cycle": "scaled", "noam": "raw", "constant": "accent"}


def figures(results: dict, lang: str, outdir) -> list:
    t = plotting.labels(LABELS, lang)
    with plotting.style(lang):
        return [training_curve(results, t, outdir), cross_grid(results, t, outdir),
                attention_summary(results, t, outdir), recipe_figure(results, t, outdir)]


def training_curve(r: dict, t: dict, outdir):
    c = plotting.COLORS
    fig, (ax1, ax2) = plotting.subplots(1, 2)
    curve, epochs = r["loss_curve"], r["epochs"]
    ax1.plot([p["samples"] for p in curve], [p["loss"] for p in curve], color=c["train"], lw=1.3,
             label=t["loss_50"].format(n=r["log_every"]))
    starts = [0] + [e["samples"] for e in epochs[:-1]]
    ax1.hlines([e["loss"] for e in epochs], starts, [e["samples"] for e in epochs], color=c["valid"], lw=2.5,
               label=t["loss_epoch"])
    ax1.set(title=t["loss_title"], xlabel=t["samples"], ylabel=t["loss"], yscale="log")
    # plain tick labels: the log formatter's mathtext minus is missing from NanumGothic
    ax1.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    checks = r["checks"]
    xs = [p["samples"] for p in checks]
    ax2.plot(xs, [p["token_accuracy"] for p in checks], color=c["train"], lw=1.3, label=t["token_tf"])
    ax2.plot(xs, [p["exact_match"] for p in checks], color=c["accent"], lw=1.3, label=t["exact_tf"])
    ax2.plot([e["samples"] for e in epochs], [e["valid_exact_match"] for e in epochs], "s", color=c["valid"],
             label=t["exact_greedy"])
    ax2.axhline(r["target"], ls=":", color=c["reference"], label=t["target"].format(t=r["target"]))
    ax2.set(title=t["acc_title"].format(n=r["data"]["n_valid"]), xlabel=t["samples"], ylabel=t["acc"],
            ylim=(-0.02, 1.02))
    for ax in (ax1, ax2):
        for e in epochs[:-1]:
            ax.axvline(e["samples"], color=c["reference"], lw=0.6, alpha=0.5)
        ax.legend(fontsize=7.5)
    return plotting.save(fig, outdir, "training_curve")


def _mirror_marks(a: dict, length: int) -> list[tuple[int, int]]:
    return [(q, length - q) for q in range(length)]  # query q writes x_{L-q}, at source position L - q


def cross_grid(r: dict, t: dict, outdir):
    a = r["attention"]
    n_layers, n_heads = len(a["cross"]), len(a["cross"][0])
    titles = [[t["head_title"].format(j=j + 1, w=a["example"]["mirror_weight"][i][j]) for j in range(n_heads)]
              for i in range(n_layers)]
    length = len(a["src_tokens"]) - 2
    fig = ap.head_grid(a["cross"], a["src_tokens"], a["tgt_tokens"], titles,
                       [t["layer"].format(i=i + 1) for i in range(n_layers)], t["key"], t["query"],
                       _mirror_marks(a, length))
    fig.suptitle(t["grid_title"].format(src=" ".join(a["src_tokens"])), fontsize=11)
    fig.supxlabel(t["mark_note"].format(m=length + 1), fontsize=8, color=plotting.COLORS["raw"])
    return plotting.save(fig, outdir, "cross_attention_grid")


def attention_summary(r: dict, t: dict, outdir):
    a = r["attention"]
    L = len(a["cross"])
    enc = np.mean(a["encoder"][-1], axis=0)    # (L_s, L_s), the heads averaged
    cross = np.mean(a["cross"][-1], axis=0)    # (L_t, L_s)
    fig, (ax1, ax2) = plotting.subplots(1, 2, figsize=(8.4, 4.2))
    ap.weight_map(ax1, enc, a["src_tokens"], a["src_tokens"])
    ax1.set(title=t["enc_title"].format(L=L), xlabel=t["key"], ylabel=t["enc_query"])
    im = ap.weight_map(ax2, cross, a["src_tokens"], a["tgt_tokens"], _mirror_marks(a, len(a["src_tokens"]) - 2))
    ax2.set_title(t["cross_title"].format(L=L, w=a["example"]["last_layer_mirror_weight"]), linespacing=1.5)
    ax2.set(xlabel=t["key"], ylabel=t["query"])
    for ax in (ax1, ax2):
        ax.tick_params(labelsize=8.5)
    fig.colorbar(im, ax=[ax1, ax2], shrink=0.8)
    return plotting.save(fig, outdir, "attention_summary")


def recipe_figure(r: dict, t: dict, outdir):
    c = plotting.COLORS
    fig, (ax1, ax2) = plotting.subplots(1, 2)
    for key in r["recipe_order"]:
        rec = r["recipes"][key]
        color = c[RECIPE_COLORS[key]]
        name = t[f"recipe_{key}"].format(lr=rec["peak_lr"], w=rec.get("warmup"))
        xs = np.arange(len(rec["lr_trace"])) * rec["lr_trace_every_samples"]
        ax1.plot(xs, rec["lr_trace"], color=color, label=name)
        for k, run in enumerate(rec["runs"]):
            pts = run["checks"]
            ax2.plot([p["samples"] for p in pts], [p["exact_match"] for p in pts], color=color,
                     lw=1.2, ls="-" if k == 0 else "--", label=name if k == 0 else None)
            if run["samples_to_target"]:
                ax2.plot(run["samples_to_target"], r["target"], "o", color=color, ms=5)
    ax1.set(title=t["lr_title"], xlabel=t["samples"], ylabel=t["lr"])
    ax1.ticklabel_format(axis="y", style="sci", scilimits=(-3, -3))
    ax2.axhline(r["target"], ls=":", color=c["reference"])
    if r["compare_seeds"] > 1:
        ax2.plot([], [], color=c["reference"], lw=0, label=t["seed_styles"].format(a=r["seed"], b=r["seed"] + 1))
    ax2.set(title=t["race_title"].format(t=r["target"]), xlabel=t["samples"], ylabel=t["exact"], ylim=(-0.02, 1.02))
    ax1.legend(fontsize=7.5)
    ax2.legend(fontsize=7.5, loc="lower right")
    return plotting.save(fig, outdir, "recipes")
