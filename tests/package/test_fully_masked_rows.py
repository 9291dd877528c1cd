"""What the pages say PyTorch does with a fully blocked row, run on the PyTorch this course pins.

Lesson 3's note "A row with every key blocked", lesson 4's paragraph on masks and the one on left
padding, and the answers to questions 3.4 (``sdpa-mask-convention``) and 4.4 (``mask-left-padding``)
say: a row whose keys are all blocked gives NaN in this package's ``scaled_dot_product_attention``
and in ``nn.MultiheadAttention`` when it returns the weights (``need_weights=True``, its default);
``torch.nn.functional.scaled_dot_product_attention`` returns a row of zeros (since PyTorch 2.5,
pytorch PR #133882), with the default and the math backends, and so does ``nn.MultiheadAttention``
called with ``need_weights=False``, except on its inference fast path (evaluation mode, no gradients,
``batch_first=True``, one tensor as query, key and value, an even head count, …), which gives NaN
again; blocking with a large finite number instead of −∞ leaves the row
finite, its weights spread evenly; with the package a NaN row spreads to every query in the next
layer; batched generation can therefore pad on the left with PyTorch's function or a finite mask
value. Each claim is run here against the installed torch, each assertion names the sentence that
would become false, and the pages must still say each one.
"""

from __future__ import annotations

import pytest
import torch
import yaml
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

from coursebuild.paths import DOCS, TUTORIAL
from tutorial_code.attention import scaled_dot_product_attention
from tutorial_code.masks import causal_mask, combine_masks, padding_mask

GEN = torch.Generator().manual_seed(0)
Q, K, V = (torch.randn(1, 3, 4, generator=GEN) for _ in range(3))
MAY_ATTEND = torch.ones(3, 3, dtype=torch.bool)
MAY_ATTEND[1] = False  # row 1: every key blocked

# the sentences, as the student reads them; an assertion message quotes the one that broke
LESSON_3 = ("lesson 3, note 'A row with every key blocked': this package's function and nn.MultiheadAttention "
            "with need_weights=True give NaN; F.scaled_dot_product_attention gives zeros since PyTorch 2.5, "
            "default and math backends; nn.MultiheadAttention with need_weights=False gives zeros, except on "
            "its inference fast path (eval, no_grad, batch_first, one tensor as q, k and v), which gives NaN")
LESSON_4 = ("lesson 4, 'If every cell of a row is blocked … this package's function and nn.MultiheadAttention "
            "get NaN …, while F.scaled_dot_product_attention silently returns a row of zeros'")
LEFT_PADDING = ("lesson 4, left padding: 'Such batches therefore use PyTorch's scaled_dot_product_attention … or "
                "block with a large finite negative number …: a fully blocked row then spreads its weight evenly "
                "… and stays finite'")
ANSWER_3_4 = "answer 3.4: 'Give the same mask to PyTorch's F.scaled_dot_product_attention and that row comes out as zeros'"
NOTEBOOK_3 = ("lesson 3's notebook: 'in our function that row … gives NaN. PyTorch's function has returned such a row "
              "as zeros … since version 2.5'")
ANSWER_4_4 = ("answer 4.4: 'a weight of 0 does not help, because 0 × NaN is NaN, so every query's output becomes "
              "NaN. Try the same with F.scaled_dot_product_attention and no NaN appears'")


def blocked_row(kind: str) -> torch.Tensor:
    """Row 1 of the output of ``kind`` for the mask above."""
    if kind == "package":
        return scaled_dot_product_attention(Q, K, V, mask=MAY_ATTEND)[0][0, 1]
    if kind == "F.sdpa":
        return F.scaled_dot_product_attention(Q, K, V, attn_mask=MAY_ATTEND)[0, 1]
    if kind == "F.sdpa math":
        with sdpa_kernel(SDPBackend.MATH):
            return F.scaled_dot_product_attention(Q, K, V, attn_mask=MAY_ATTEND)[0, 1]
    if kind == "F.sdpa finite":
        bias = torch.zeros(3, 3).masked_fill(~MAY_ATTEND, torch.finfo(torch.float32).min)
        return F.scaled_dot_product_attention(Q, K, V, attn_mask=bias)[0, 1]
    if kind.startswith("nn.MultiheadAttention"):
        mha = torch.nn.MultiheadAttention(4, 1, batch_first=True)  # NaN or zeros whatever its weights
        need_weights = kind.endswith("need_weights=True")
        if kind.endswith("fast path"):  # self-attention, evaluation mode, no gradients, batch_first,
            fast = torch.nn.MultiheadAttention(4, 2, batch_first=True).eval()  # an even head count
            with torch.no_grad():
                return fast(Q, Q, Q, attn_mask=~MAY_ATTEND, need_weights=False)[0][0, 1]
        with torch.no_grad():  # its mask: True = blocked
            return mha(Q, K, V, attn_mask=~MAY_ATTEND, need_weights=need_weights)[0][0, 1]
    raise ValueError(kind)


CLAIMS = {  # kind -> (what the pages say it returns, the sentences that say so)
    "package": ("nan", (LESSON_3, LESSON_4, ANSWER_3_4, NOTEBOOK_3)),
    "nn.MultiheadAttention need_weights=True": ("nan", (LESSON_3, LESSON_4)),
    "nn.MultiheadAttention need_weights=False": ("zeros", (LESSON_3,)),
    "nn.MultiheadAttention need_weights=False, fast path": ("nan", (LESSON_3,)),
    "F.sdpa": ("zeros", (LESSON_3, LESSON_4, ANSWER_3_4, NOTEBOOK_3)),
    "F.sdpa math": ("zeros", (LESSON_3,)),
    "F.sdpa finite": ("mean of the values", (LEFT_PADDING,)),
}


def holds(kind: str, claim: str) -> bool:
    row = blocked_row(kind)
    if claim == "nan":
        return bool(torch.isnan(row).all())
    if claim == "zeros":
        return bool((row == 0).all())
    if claim == "mean of the values":
        return torch.allclose(row, V[0].mean(0), atol=1e-6)
    raise ValueError(claim)


@pytest.mark.parametrize("kind", sorted(CLAIMS))
def test_what_the_pages_say_each_function_returns(kind):
    claim, sentences = CLAIMS[kind]
    assert holds(kind, claim), (f"torch {torch.__version__}: {kind} no longer gives {claim} for a fully "
                                f"blocked row (got {blocked_row(kind).tolist()}), so these sentences are "
                                f"wrong now: {' | '.join(sentences)}")


@pytest.mark.parametrize("kind, wrong", [("F.sdpa", "nan"), ("package", "zeros"), ("F.sdpa finite", "nan"),
                                         ("nn.MultiheadAttention need_weights=True", "zeros"),
                                         ("nn.MultiheadAttention need_weights=False, fast path", "zeros")])
def test_a_wrong_claim_fails(kind, wrong):
    assert not holds(kind, wrong)


def left_padded_two_layers(attend):
    """[PAD, BOS, a, b] through two self-attention layers under causal ∧ padding masks.

    Returns both layers' outputs, (1, 4, 4) each; the layers share q = k = v = their input."""
    tokens = torch.tensor([[0, 1, 5, 6]])  # pad id 0 in front
    mask = combine_masks(padding_mask(tokens, 0), causal_mask(4))  # (1, 1, 4, 4); row 0 all blocked
    x = torch.randn(1, 1, 4, 4, generator=torch.Generator().manual_seed(1))
    first = attend(x, mask)
    return first, attend(first, mask)


def package_attend(x, mask):
    return scaled_dot_product_attention(x, x, x, mask=mask)[0]


def torch_attend(x, mask):
    return F.scaled_dot_product_attention(x, x, x, attn_mask=mask)


def finite_attend(x, mask):
    bias = torch.zeros(mask.shape).masked_fill(~mask, torch.finfo(torch.float32).min)
    return F.scaled_dot_product_attention(x, x, x, attn_mask=bias)


def test_with_the_package_a_left_padding_nan_reaches_every_query_of_the_next_layer():
    first, second = left_padded_two_layers(package_attend)
    assert torch.isnan(first[0, 0, 0]).all() and not torch.isnan(first[0, 0, 1:]).any(), ANSWER_4_4
    assert torch.isnan(second).all(), f"{ANSWER_4_4}: got {second.tolist()}"


@pytest.mark.parametrize("attend", [torch_attend, finite_attend], ids=["F.sdpa", "finite mask"])
def test_left_padding_with_pytorchs_function_or_a_finite_mask_stays_finite_and_leaves_real_tokens_alone(attend):
    """What batched generation relies on: no NaN anywhere, and the real tokens' rows equal those of
    the same sequence without its padding (so the padded prompt continues as the unpadded one)."""
    first, second = left_padded_two_layers(attend)
    assert torch.isfinite(first).all() and torch.isfinite(second).all(), f"{ANSWER_4_4} | {LEFT_PADDING}"
    x = torch.randn(1, 1, 4, 4, generator=torch.Generator().manual_seed(1))[:, :, 1:]  # the same tokens, unpadded
    alone = torch_attend(torch_attend(x, causal_mask(3)), causal_mask(3))
    assert torch.allclose(second[:, :, 1:], alone, atol=1e-6), LEFT_PADDING


def one_line(text: str) -> str:
    """The text with every run of white space (line breaks, the indent of a folded note) as one space."""
    return " ".join(text.split())


PAGE_WORDS = {  # file -> {lang: words the sentence above must still hold}
    "lessons/scaled-dot-product.md": {
        "ko": ["`NaN`", "0으로", "PyTorch 2.5부터", "#133882", "need_weights=True", "need_weights=False", "수학 백엔드",
               "추론용 빠른 경로", "타면 다시 `NaN`"],
        "en": ["`NaN`", "zero", "since PyTorch 2.5", "#133882", "need_weights=True", "need_weights=False",
               "math backend", "inference fast path", "which gives `NaN` again"]},
    "lessons/self-attention.md": {
        "ko": ["NaN", "조용히 0으로", "왼쪽 패딩", "torch.finfo(dtype).min", "`scaled_dot_product_attention`을 쓰거나"],
        "en": ["NaN", "silently returns a row of", "left padding", "torch.finfo(dtype).min",
               "use PyTorch's `scaled_dot_product_attention`"]},
}


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("page", sorted(PAGE_WORDS))
def test_the_pages_still_say_it(page, lang):
    text = one_line((DOCS / lang / page).read_text(encoding="utf-8"))
    missing = [w for w in PAGE_WORDS[page][lang] if w not in text]
    assert not missing, f"{lang}/{page} no longer says what this module checks: {missing}"


@pytest.mark.parametrize("question, words", [
    ("lesson-03.yml", {"ko": ["`NaN`", "scaled_dot_product_attention`에 같은 마스크를", "조용히 0이"],
                       "en": ["`NaN`", "scaled_dot_product_attention` and that row comes out as silent zeros"]}),
    ("lesson-04.yml", {"ko": ["NaN은 보이지", "0 \\times \\text{NaN}", "유한한 큰 음수"],
                       "en": ["no NaN appears", "0 \\times \\text{NaN}", "large finite negative number"]}),
])
def test_the_answers_still_say_it(question, words):
    data = yaml.safe_load((DOCS / "questions" / question).read_text(encoding="utf-8"))
    text = {lang: one_line(" ".join(q["answer"][lang] for q in data["questions"])) for lang in ("ko", "en")}
    missing = {lang: [w for w in ws if w not in text[lang]] for lang, ws in words.items()}
    assert not any(missing.values()), f"docs/questions/{question} no longer says what this module checks: {missing}"


def test_lesson_3s_notebook_still_says_it():
    text = one_line((TUTORIAL / "notebooks" / "lesson_03_scaled_dot_product.py").read_text(encoding="utf-8"))
    words = ["`NaN`이 나옵니다", "2.5부터 그런 행을 경고 없이 0으로", "gives `NaN`", "as zeros, without a warning, since version 2.5",
             "blocked[0] = False"]
    missing = [w for w in words if w not in text]
    assert not missing, f"{NOTEBOOK_3}: the notebook no longer says {missing}"
