"""Lesson 8's page data from the trained reversal model: the model the page runs, two widgets.

Runs on the reversal experiment's cached results and files (the trained weights, the test
digits and the checkpoints it saved), never training:

* ``export``: the trained model as the files the page's forward pass loads, with PyTorch's
  decoding of the lesson's example and ``n_reference`` held-out test inputs as the reference
  the browser tests compare the page with (:func:`.model_export.export_and_check`), and how
  well the rounded weights still reverse;
* ``widgets``: ``checkpoints`` (the slider over the cross-attention saved while the model
  trained) and ``visibility`` (the masks each variant applies to the lesson's example, built
  with :mod:`tutorial_code.masks`).
"""

from __future__ import annotations

import copy
import json

import torch

import tutorial_code as tc
from tutorial_code.tasks import digits as digit_task

from ..common import seq2seq as s2s
from ..common.gates import Claim
from . import model_export

CHECKS = {
    **model_export.GATES,
    "export.rounded.test_exact_match": (0.995, 1.0),  # quantised weights still reverse
    "export.rounded.example_as_lesson": (1, 1),       # and write the lesson's example as the page says
}
TINY_CHECKS = model_export.GATES
LESSON_8 = "docs/{lang}/lessons/encoder-decoder.md"
CLAIMS = {  # the anti-diagonal lesson 8 points at (uniform would be 0.1)
    "attention.example.last_layer_mirror_weight": Claim(
        0.5, 1.0, page=LESSON_8, sentence="마지막 층의 크로스 어텐션은 거울 위치에 평균 …의 가중치를 줍니다."),
}


def page_data(cfg, results: dict, files, out_dir) -> dict:
    saved = torch.load(files / "trained.pt", weights_only=True)
    trained = tc.EncoderDecoderTransformer(tc.TransformerConfig(vocab_size=digit_task.VOCAB_SIZE))
    trained.load_state_dict(saved["state_dict"])
    checkpoints = json.loads((files / "checkpoints.json").read_text("utf-8"))
    return {"export": export(trained.eval(), cfg, saved["test_digits"], out_dir),
            "widgets": {"checkpoints": checkpoint_widget(checkpoints, cfg), "visibility": visibility(cfg)}}


def export(trained, cfg, test_digits: torch.Tensor, out_dir) -> dict:
    """Write the model for the page into ``out_dir``; results: sizes and agreement checks.

    The files hold int8 weights, so the model is quantised first (a copy) and the reference
    is PyTorch's decoding with the rounded weights: the page runs exactly that model.
    """
    rounded = model_export.round_weights(copy.deepcopy(trained))
    tokens = {"names": digit_task.token_names(range(digit_task.VOCAB_SIZE)), "pad_id": digit_task.PAD, "bos_id": digit_task.BOS,
              "eos_id": digit_task.EOS, "digit0": digit_task.DIGIT0}
    extra = {"max_digits": cfg.length, "max_new_tokens": cfg.length + 1, "example": list(cfg.example)}
    example_src, _ = digit_task.make_pairs(torch.tensor([cfg.example]))
    tsrc, ttgt = digit_task.make_pairs(test_digits)
    src = torch.cat([example_src, tsrc[:cfg.n_reference]])
    decode = (digit_task.BOS, digit_task.EOS, cfg.length + 1)
    checked, ref = model_export.export_and_check(rounded, out_dir, "reversal", tokens, extra, src, decode)
    lesson = tc.greedy_decode(trained, example_src, digit_task.BOS, cfg.length + 1, eos_id=digit_task.EOS)[0]
    return {
        **checked,
        "rounded": {"test_exact_match": s2s.greedy_metrics(rounded, tsrc, ttgt, digit_task.BOS, digit_task.EOS)["exact_match"],
                    "example_tokens": ref["inputs"][0]["tokens"],
                    "example_as_lesson": int(ref["inputs"][0]["tokens"] == lesson.tolist())},
    }


def visibility(cfg) -> dict:
    """Which key each query may see in each attention of each variant, on the lesson's example.

    The masks are the ones the models apply (True = may attend): the encoder's and the
    cross-attention's padding mask over the source, the decoder's causal mask (models.future_mask).
    The example has no padding, so only the causal mask blocks anything here.
    """
    src, tgt = digit_task.make_pairs(torch.tensor([cfg.example]))
    dec_in = tgt[:, :-1]                                        # what the decoder reads
    L_s, L_t = src.size(1), dec_in.size(1)
    src_pad = tc.padding_mask(src, digit_task.PAD)[0, 0]                # (1, L_s)
    masks = {
        "encoder_self": (src, src, tc.combine_masks(src_pad, torch.ones(L_s, L_s, dtype=torch.bool))),
        "decoder_self": (dec_in, dec_in, tc.causal_mask(L_t)),
        "cross": (dec_in, src, tc.combine_masks(src_pad, torch.ones(L_t, L_s, dtype=torch.bool))),
    }
    matrices = {name: {"queries": digit_task.token_names(q[0]), "keys": digit_task.token_names(k[0]),
                       "visible": m.int().tolist(), "cells": m.numel(), "blocked": int((~m).sum())}
                for name, (q, k, m) in masks.items()}
    variants = {"encoder_only": ["encoder_self"], "decoder_only": ["decoder_self"],
                "encoder_decoder": ["encoder_self", "decoder_self", "cross"]}
    return {"matrices": matrices, "variants": variants, "order": list(variants), "initial": "encoder_decoder"}


# the slider shows each weight to 2 decimals and to 4 in its tooltip (widgets/common.js weightCell):
# the page carries 4, which keeps lesson 8's scripts and data within their budget
CELL_DIGITS = 4


def checkpoint_widget(rows: list[dict], cfg) -> dict:
    """The slider's data: the checkpoints, the example's tokens and where the mirrored cells are."""
    src, tgt = digit_task.make_pairs(torch.tensor([cfg.example]))
    return {"src_tokens": digit_task.token_names(src[0]), "tgt_tokens": digit_task.token_names(tgt[0, :-1]),
            "target_output": digit_task.token_names(tgt[0]),
            "mirror": [[q, cfg.length - q] for q in range(cfg.length)],  # (row, column) pairs
            "checkpoints": [{**row, "cross": rounded(row["cross"])} for row in rows], "initial": len(rows) - 1}


def rounded(weights, digits: int = CELL_DIGITS):
    """Nested lists of attention weights rounded to what a cell's tooltip shows (0.1234)."""
    if isinstance(weights, list):
        return [rounded(w, digits) for w in weights]
    return round(weights, digits)
