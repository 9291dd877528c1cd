"""The assignments ask for runs the build did not make, so that no page answers them.

Each assignment in docs/questions/assignments.yml declares, under ``runs``, what the student
runs: assignment 1 a slip of their own, lengths ``c`` on a grid and widths ``m``; assignment 2 a
``seed`` of their own and a new length. These tests read the experiments' ``Config`` (not the
pages) and fail when a config grows to include one of those runs: a stretch factor or width the
worked_examples experiment computes, a length the first-cell experiment trains, or a random
stream (model seed, data or batch order) that the build's first-cell run draws. They also check
that the assignment can be done as written: every slip the rule allows reaches the crossing weight
on the grid, computed here with the package's own attention. The built exercises page must
state the runs the spec declares, in both languages.
"""

import inspect
import math
import re

import pytest
import torch
from bs4 import BeautifulSoup

import tutorial_code as tc
from coursebuild.content import questions
from tutorial_code.experiments import lstm_vs_attention, worked_examples

ROOTS = {"ko": "", "en": "en/"}


def runs(experiment: str) -> dict:
    found = [a["runs"] for a in questions.load_assignments() if a.get("runs", {}).get("experiment") == experiment]
    assert len(found) == 1, f"one assignment declares runs of {experiment}, not {len(found)}"
    return found[0]


def grid(spec: dict) -> list[float]:
    n = round((spec["to"] - spec["from"]) / spec["step"])
    return [round(spec["from"] + i * spec["step"], 10) for i in range(n + 1)]


def test_every_assignment_declares_its_runs():
    for a in questions.load_assignments():
        assert a.get("runs", {}).get("experiment") in ("worked_examples", "lstm_vs_attention"), a["id"]


# ---------------------------------------------------------------- assignment 1

def test_assignment_1_asks_for_lengths_and_widths_the_build_does_not_compute():
    spec, cfg = runs("worked_examples"), worked_examples.Config()
    built_factors = {1.0, float(cfg.stretch)}          # the lesson's slips as they are, and stretched
    built_widths = {1, int(cfg.stretch)}               # stretch_demo's "wider": components × int(stretch)
    factors = grid(spec["factors"])
    assert factors and not any(math.isclose(c, b) for c in factors for b in built_factors), \
        f"the sweep {factors} includes a factor the build computes {built_factors}"
    assert not set(spec["widths"]) & built_widths, f"widths {spec['widths']} include the build's {built_widths}"


def top_weight(q, keys, c: float, divide: bool) -> float:
    """The largest weight of the slip ``q`` with every vector ``c`` times longer, by the package."""
    Q = torch.tensor([q], dtype=torch.float64) * c
    K = torch.tensor(keys, dtype=torch.float64) * c
    V = torch.zeros(len(keys), 1, dtype=torch.float64)
    if divide:
        _, w = tc.scaled_dot_product_attention(Q, K, V)
    else:  # the package always divides: undo it by scaling the query by √d_k
        _, w = tc.scaled_dot_product_attention(Q * math.sqrt(Q.size(-1)), K, V)
    return w.max().item()


def test_assignment_1_can_be_done_with_every_slip_its_rule_allows():
    spec, cfg = runs("worked_examples"), worked_examples.Config()
    factors, limit = grid(spec["factors"]), spec["crossing"]
    ratios = []
    for a in range(10):
        for b in range(10):
            q = (1 + a / 10, 1 + b / 10)
            found = {}
            for divide in (False, True):
                found[divide] = next((c for c in factors if top_weight(q, cfg.library_keys, c, divide) >= limit), None)
                assert found[divide] is not None, f"slip {q}: no c in the sweep reaches {limit} (divide={divide})"
            assert found[False] < found[True], f"slip {q}: the division does not move the crossing point"
            ratios.append(found[True] / found[False])
    step = spec["factors"]["step"]
    assert all(abs(r - 2 ** 0.25) < 2 * step for r in ratios), "the rubric's 2^(1/4) does not hold"


# ---------------------------------------------------------------- assignment 2

def build_streams(cfg, seeds: range, lengths) -> set[int]:
    """Every integer the first-cell experiment seeds a random stream with: the runner's
    ``seed_everything(cfg.seed)``, each model's ``torch.manual_seed(cfg.seed + s)``, each
    seed's data ``ctx.generator(offset=1000 + 1000 * length + s)`` and each length's batch
    order ``ctx.generator(offset=L)`` (ctx.generator adds cfg.seed)."""
    base = cfg.seed
    out = {base} | {base + s for s in seeds} | {base + L for L in lengths}
    out |= {base + 1000 + 1000 * L + s for L in lengths for s in seeds}
    return out


def test_the_seeding_scheme_is_the_one_this_test_reads():
    source = inspect.getsource(lstm_vs_attention)
    for line in ("ctx.generator(offset=1000 + 1000 * length + s)", "gen=ctx.generator(offset=L)",
                 "[cfg.seed + s for s in seeds]"):
        assert line in source, f"lstm_vs_attention no longer seeds with {line!r}: update build_streams"


def test_assignment_2_asks_for_seeds_and_a_length_the_build_does_not_run():
    spec, cfg = runs("lstm_vs_attention"), lstm_vs_attention.Config()
    built_lengths = set(cfg.lengths) | set(cfg.ablation_lengths) | set(cfg.long_lengths)
    assert spec["new_lengths"] and not set(spec["new_lengths"]) & built_lengths, \
        f"new lengths {spec['new_lengths']}: the build runs {sorted(built_lengths)}"
    n_seeds = max(cfg.seeds, cfg.ablation_seeds)
    built = build_streams(cfg, range(n_seeds), built_lengths)
    for student in range(spec["seed"]["from"], spec["seed"]["to"] + 1):
        theirs = build_streams(lstm_vs_attention.Config(seed=student), range(n_seeds),
                               built_lengths | set(spec["new_lengths"]))
        shared = built & theirs
        assert not shared, f"seed {student} draws streams the build draws: {sorted(shared)[:5]}"


def test_the_ceiling_at_a_new_length_is_not_a_result_of_the_build():
    spec, cfg = runs("lstm_vs_attention"), lstm_vs_attention.Config()
    assert not set(spec["new_lengths"]) & set(cfg.lengths)  # results.bag_bound lists cfg.lengths only


# ---------------------------------------------------------------- the pages say it

@pytest.mark.slow
@pytest.mark.parametrize("lang", sorted(ROOTS))
def test_the_exercises_page_asks_for_the_declared_runs(built_site, lang):
    page = (built_site / ROOTS[lang] / "teaching" / "exercises" / "index.html").read_text(encoding="utf-8")
    article = BeautifulSoup(page, "html.parser").find("article")
    sections = {}
    for n in (1, 2):
        head = article.find(id=f"assignment-{n}")
        assert head is not None, f"{lang}: no assignment {n}"
        text = []
        for el in head.find_all_next():
            if el.name in ("h2", "h3") and el is not head:
                break
            if el.name in ("p", "li", "code", "td"):
                text.append(el.get_text(" "))
        sections[n] = re.sub(r"\s+", " ", " ".join(text))
    one, two = runs("worked_examples"), runs("lstm_vs_attention")
    for shown in (f"{one['factors']['from']:.1f}", f"{one['factors']['to']:.1f}", str(one["crossing"]),
                  *(str(m) for m in one["widths"])):
        assert shown in sections[1], f"{lang}: assignment 1 does not say {shown}"
    for shown in (str(two["seed"]["from"]), *(str(L) for L in two["new_lengths"])):
        assert shown in sections[2], f"{lang}: assignment 2 does not say {shown}"
