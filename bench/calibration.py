#!/usr/bin/env python3
"""The timing model against published kernel timings.

Writes each published kernel in bir (examples/calibration/gen_nki_matmul.py,
from the structure its source gives), estimates it with -print-bir-timeline
and prints one row per kernel: the published time, the estimate, their
ratio and the source. Nothing in the model was fitted to these numbers
(docs/TimingModel.md): every row is held out.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "..", "examples", "calibration", "gen_nki_matmul.py")
TUTORIAL = "NKI matrix multiplication tutorial, [4096, 8192] x [8192, 8192] bf16, trn1"
AUTOTUNER = ("neuron-kernel-autotuner README (neuron-bench, SDK 2.25), "
             "[4096, 1024] x [1024, 2048] bf16, trn1")

# (kernel, M, K, N, published microseconds, source)
PUBLISHED = [
    ("tiled", 4096, 8192, 8192, 51800, TUTORIAL),
    ("hoist_load", 4096, 8192, 8192, 42960, TUTORIAL),
    ("block_free", 4096, 8192, 8192, 22070, TUTORIAL),
    ("fully_optimized", 4096, 8192, 8192, 6970, TUTORIAL),
    ("tiled", 4096, 1024, 2048, 463, AUTOTUNER),
    ("fully_optimized", 4096, 1024, 2048, 273, AUTOTUNER),
]


def estimate(opt, kernel, m, k, n, work):
    path = os.path.join(work, f"{kernel}-{m}-{k}-{n}.mlir")
    subprocess.run([sys.executable, GENERATOR, kernel, "--m", str(m), "--k", str(k),
                    "--n", str(n), "-o", path], check=True)
    result = subprocess.run([opt, path, "-print-bir-timeline", "-o", "/dev/null"],
                            capture_output=True, text=True)
    if result.returncode:
        sys.exit(result.stderr[-2000:])
    return float(re.search(r"kernel of \d+ core\(s\): ([0-9.]+) us", result.stderr).group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    args = parser.parse_args()
    print(f"{'kernel':>16} {'M x K x N':>17} {'published us':>13} {'estimate us':>12} "
          f"{'ratio':>6}  source")
    with tempfile.TemporaryDirectory() as work:
        for kernel, m, k, n, published, source in PUBLISHED:
            estimated = estimate(args.opt, kernel, m, k, n, work)
            print(f"{kernel:>16} {f'{m}x{k}x{n}':>17} {published:>13.0f} {estimated:>12.0f} "
                  f"{estimated / published:>6.2f}  {source}", flush=True)


if __name__ == "__main__":
    main()
