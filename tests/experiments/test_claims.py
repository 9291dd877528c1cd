"""Claims apart from quality gates: a failed claim names the page and the sentence to rewrite."""

from __future__ import annotations

import re

import pytest

from coursebuild.pipeline import ClaimError, ExperimentError, GateError, checks, registry, run_experiments
from coursebuild.paths import REPO_ROOT
from tutorial_code.experiments import scaling
from tutorial_code.experiments.pagedata import scaling as scaling_page
from tutorial_code.experiments.common.gates import Claim, Gate

PAGE = "docs/{lang}/lessons/scaled-dot-product.md"
SENTENCE = "키 …개 중 하나가 거의 전부를 가져갑니다."


def test_a_failed_claim_names_both_pages_the_sentence_and_the_value():
    claims = {"peak": Claim(0.9, 1.0, page=PAGE, sentence=SENTENCE)}
    with pytest.raises(ClaimError) as err:
        checks.check_claims("scaling", {"peak": 0.2}, claims)
    msg = str(err.value)
    assert "claim no longer holds: peak = 0.2, expected [0.9, 1.0]" in msg
    assert "docs/ko/lessons/scaled-dot-product.md and docs/en/lessons/scaled-dot-product.md" in msg
    assert f"«{SENTENCE}»" in msg
    assert err.value.exit_code == 1  # fails the build like a gate
    checks.check_claims("scaling", {"peak": 0.95}, claims)  # holds: nothing raised


def test_a_claim_on_a_list_names_the_element_and_one_for_another_device_is_skipped():
    claims = {"acc": Claim(0.4, 0.6, page=PAGE, sentence=SENTENCE),
              "speed": Claim(2, 10, when="cpu", page=PAGE, sentence=SENTENCE)}
    with pytest.raises(ClaimError, match=r"acc\[1\] = 0\.9"):
        checks.check_claims("x", {"acc": [0.5, 0.9], "speed": 1}, claims)
    checks.check_claims("x", {"acc": [0.5, 0.5], "speed": 1}, claims, device_kind="cuda")


def test_a_gate_failure_says_training_broke_a_claim_failure_says_rewrite():
    """The two kinds read differently, so whoever sees one knows what to fix."""
    with pytest.raises(GateError) as gate:
        checks.check_gates("x", {"m": 5}, {"m": (0, 1)})
    assert not isinstance(gate.value, ClaimError)
    assert "gate range" in str(gate.value) and "rewrite" not in str(gate.value)
    with pytest.raises(ClaimError) as claim:
        checks.check_claims("x", {"m": 5}, {"m": Claim(0, 1, page=PAGE, sentence=SENTENCE)})
    assert "rewrite on" in str(claim.value) and "gate range" not in str(claim.value)


def test_a_claim_must_say_what_to_rewrite():
    with pytest.raises(ValueError, match="page= and sentence="):
        Claim(0, 1)
    with pytest.raises(ExperimentError, match=r"must be a Claim"):
        checks.check_claims("x", {"m": 0.5}, {"m": (0, 1)})


def test_a_failed_claim_keeps_the_results_and_once_fixed_the_next_run_trains_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(scaling_page, "TINY_CLAIMS",
                        {"at.512.peak_raw": Claim(0.0, 0.01, page=PAGE, sentence=SENTENCE)},
                        raising=False)
    with pytest.raises(ClaimError) as err:
        run_experiments(["scaling"], tmp_path, tiny=True, device="cpu")
    assert "scaling: claim no longer holds: at.512.peak_raw = 0.9" in str(err.value)
    assert SENTENCE in str(err.value) and "fixing the sentence or the claim trains nothing" in str(err.value)
    assert not (tmp_path / "provenance.json").exists()  # the build fails: no pages from these results
    assert list((tmp_path / "experiments" / "scaling").glob("[0-9a-f]*/results.json"))  # ... but they are kept
    monkeypatch.setattr(scaling_page, "TINY_CLAIMS",  # the sentence (and its claim) rewritten
                        {"at.512.peak_raw": Claim(0.5, 1.0, page=PAGE, sentence=SENTENCE)})
    assert run_experiments(["scaling"], tmp_path, tiny=True, device="cpu").statuses == {"scaling": "hit"}
    # a failing gate is reported first, as a gate: training itself is in doubt
    monkeypatch.setattr(scaling, "TINY_GATES", {"scaled_std": (5.0, 6.0)})
    with pytest.raises(GateError) as err:
        run_experiments(["scaling"], tmp_path, tiny=True, device="cpu")
    assert not isinstance(err.value, ClaimError)


def _declared():
    for name in registry.names():
        module, page = registry.load(name), registry.load_pagedata(name)
        yield name, module, {**module.GATES, **getattr(page, "CHECKS", {})}, getattr(page, "CLAIMS", {})


def test_every_claim_is_a_claim_on_pages_that_exist_and_no_gate_is_repeated_as_one():
    """A key may be both (lstm_vs_attention's gap to the ceiling: above it means a leak, a gate; far
    below it would break the page's "pinned to the ceiling", a claim), never with one range."""
    seen = 0
    for name, _, gates, claims in _declared():
        for key in set(gates) & set(claims):
            gate = checks.as_gate(gates[key])
            assert (gate.lo, gate.hi) != (claims[key].lo, claims[key].hi), (name, key)
        for key, claim in claims.items():
            seen += 1
            assert isinstance(claim, Claim) and isinstance(claim, Gate), (name, key)
            for page in claim.pages():
                assert (REPO_ROOT / page).is_file(), (name, key, page)
    assert seen >= 10


def _plain(text: str) -> str:
    """Page text with the value markers and line breaks out of the way."""
    text = re.sub(r"\[\[(value|word):[^\]]*\]\]", "…", text)
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("name", [n for n in registry.names() if getattr(registry.load_pagedata(n), "CLAIMS", None)])
def test_the_sentences_of_these_claims_are_on_the_korean_page(name):
    """Each fragment of the sentence (between '…') is on the page, so the message points at it.

    A note in parentheses at the end of a sentence says where on the page it stands
    ("(그림 설명)": a figure's description) and is not itself quoted.
    """
    for key, claim in registry.load_pagedata(name).CLAIMS.items():
        page = _plain((REPO_ROOT / claim.page.format(lang="ko")).read_text("utf-8"))
        sentence = re.sub(r"\s*\([^()]*\)$", "", _plain(claim.sentence))
        for part in (p.strip(" .") for p in sentence.split("…")):
            if part:
                assert part in page, (key, part)
