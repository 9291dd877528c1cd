#!/usr/bin/env python3
"""Training-step throughput of tutorial_code's Transformer against nn.Transformer.

Prints one line per batch size with samples per second of each and their ratio
(ours / PyTorch's); a ratio of 1.00 means equally fast.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import asdict, dataclass

import torch
from torch import nn

import coursebuild.paths  # noqa: F401  (puts this repository on sys.path, for tutorial_code)
from tutorial_code.masks import causal_mask, padding_mask
from tutorial_code.models import EncoderDecoderTransformer, TransformerConfig


@dataclass
class BenchmarkConfig:
    batch_sizes: tuple[int, ...] = (64, 256)
    seq_len: int = 10  # BOS + 8 digits + EOS, as in the reversal task
    steps: int = 20  # training steps per timed run
    repeats: int = 7  # timed runs per model; the median is reported
    warmup: int = 5  # untimed steps before the first run
    threads: int = 0  # torch threads; 0 leaves PyTorch's default


class TorchReference(nn.Module):
    """The course's encoder–decoder with its core replaced by PyTorch's modules."""

    def __init__(self, ours: EncoderDecoderTransformer):
        super().__init__()
        cfg = ours.cfg
        self.cfg, self.embed, self.out = cfg, ours.embed, ours.out  # shared, not copied
        kw = dict(d_model=cfg.d_model, nhead=cfg.n_heads, dim_feedforward=cfg.d_ff, dropout=cfg.dropout,
                  batch_first=True, norm_first=cfg.norm_first)
        # built without the final LayerNorm that nn.Transformer adds, as in our post-LN model
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(**kw), cfg.n_layers, enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(**kw), cfg.n_layers)

    def forward(self, src, tgt):
        src_blocked = ~padding_mask(src, self.cfg.pad_id)[:, 0, 0]  # PyTorch: True = blocked
        memory = self.encoder(self.embed(src), src_key_padding_mask=src_blocked)
        x = self.decoder(self.embed(tgt), memory, tgt_mask=~causal_mask(tgt.size(1), tgt.device),
                         memory_key_padding_mask=src_blocked)
        return self.out(x)


def training_step(model, optimiser, src, tgt_in, tgt_out) -> float:
    logits = model(src, tgt_in)
    loss = nn.functional.cross_entropy(logits.flatten(0, 1), tgt_out.flatten())
    optimiser.zero_grad(set_to_none=True)
    loss.backward()
    optimiser.step()
    return loss.item()


def time_steps(model, optimiser, batches) -> float:
    start = time.perf_counter()
    for src, tgt_in, tgt_out in batches:
        training_step(model, optimiser, src, tgt_in, tgt_out)
    return time.perf_counter() - start


def random_batches(n, batch_size, seq_len, vocab_size, generator):
    out = []
    for _ in range(n):
        src = torch.randint(3, vocab_size, (batch_size, seq_len), generator=generator)
        tgt = src.flip(1)
        out.append((src, tgt[:, :-1], tgt[:, 1:]))
    return out


def compare_training_throughput(bench: BenchmarkConfig | None = None, cfg: TransformerConfig | None = None) -> dict:
    """Median training samples per second of both implementations, and their ratio."""
    bench = bench or BenchmarkConfig()
    if bench.threads:
        torch.set_num_threads(bench.threads)
    cfg = cfg or TransformerConfig()  # the course's reference model: D=64, h=4, d_ff=128, N=2
    rows = []
    for batch_size in bench.batch_sizes:
        torch.manual_seed(0)
        ours = EncoderDecoderTransformer(cfg)
        ref = TorchReference(EncoderDecoderTransformer(cfg))
        models = {"ours": ours, "pytorch": ref}
        optims = {k: torch.optim.Adam(m.parameters(), lr=1e-3) for k, m in models.items()}
        g = torch.Generator().manual_seed(batch_size)
        warm = random_batches(bench.warmup, batch_size, bench.seq_len, cfg.vocab_size, g)
        timed = random_batches(bench.steps, batch_size, bench.seq_len, cfg.vocab_size, g)
        for k in models:
            time_steps(models[k], optims[k], warm)
        seconds = {k: [] for k in models}
        for _ in range(bench.repeats):
            for k in models:  # alternate, so drifts in machine speed hit both
                seconds[k].append(time_steps(models[k], optims[k], timed))
        rate = {k: bench.steps * batch_size / statistics.median(v) for k, v in seconds.items()}
        rows.append({
            "batch_size": batch_size,
            "ours_samples_per_s": rate["ours"],
            "pytorch_samples_per_s": rate["pytorch"],
            "ratio": rate["ours"] / rate["pytorch"],
        })
    return {"config": asdict(cfg), "bench": asdict(bench), "threads": torch.get_num_threads(),
            "torch": torch.__version__, "rows": rows}



def positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--batch-sizes", type=positive, nargs="+", default=[64, 256])
    p.add_argument("--steps", type=positive, default=20, help="training steps per timed run (default 20)")
    p.add_argument("--repeats", type=positive, default=7, help="timed runs per model (default 7)")
    p.add_argument("--threads", type=positive, default=None, help="torch threads (default: PyTorch's)")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    a = p.parse_args()
    bench = BenchmarkConfig(batch_sizes=tuple(a.batch_sizes), steps=a.steps, repeats=a.repeats, threads=a.threads or 0)
    result = compare_training_throughput(bench)
    if a.json:
        print(json.dumps(result, indent=2))
        return
    print(f"torch {result['torch']}, {result['threads']} threads, reference model (D=64, h=4, d_ff=128, N=2+2)")
    for r in result["rows"]:
        print(f"batch {r['batch_size']:4d}: ours {r['ours_samples_per_s']:8.0f} samples/s, "
              f"nn.Transformer {r['pytorch_samples_per_s']:8.0f} samples/s, ratio {r['ratio']:.2f}x")


if __name__ == "__main__":
    main()
