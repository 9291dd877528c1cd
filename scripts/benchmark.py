#!/usr/bin/env python3
"""Training-step throughput of tutorial_code's Transformer against nn.Transformer.

Prints one line per batch size with samples per second of each and their ratio
(ours / PyTorch's); a ratio of 1.00 means equally fast.
"""

import argparse
import json
from coursebuild.benchmark import BenchmarkConfig, compare_training_throughput


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
