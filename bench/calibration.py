#!/usr/bin/env python3
"""The timing model against published kernel timings.

Writes each published kernel in bir (examples/calibration/gen_nki_matmul.py,
from the structure its source gives), estimates it with -print-bir-timeline
and prints one row per kernel: the published time, the estimate, their
ratio, the roofline bound of the structure as written and the source.

One constant of the model, the cost of a DMA packet, is fitted to the
first row (`--fit tiled` bisects it and prints the value that
lib/Analysis/Timeline.cpp holds); every other row is held out
(docs/TimingModel.md). A published time below the roofline of the
structure as written measured a different structure; it is flagged.
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


def estimate(opt, kernel, m, k, n, work, packet_bytes=None):
    """The estimate and the roofline bound, microseconds."""
    path = os.path.join(work, f"{kernel}-{m}-{k}-{n}.mlir")
    if not os.path.exists(path):
        subprocess.run([sys.executable, GENERATOR, kernel, "--m", str(m), "--k", str(k),
                        "--n", str(n), "-o", path], check=True)
    option = "-print-bir-timeline"
    if packet_bytes is not None:
        option += f"=dma-packet-bytes={packet_bytes}"
    result = subprocess.run([opt, path, option, "-o", "/dev/null"],
                            capture_output=True, text=True)
    if result.returncode:
        sys.exit(result.stderr[-2000:])
    total = re.search(r"kernel of \d+ core\(s\): ([0-9.]+) us", result.stderr)
    roofline = re.search(r"roofline ([0-9.]+) us", result.stderr)
    return float(total.group(1)), float(roofline.group(1))


def fit(opt, row, work):
    """The packet cost (bytes) that makes `row`'s estimate its published
    time: the estimate grows with the cost, so bisect."""
    kernel, m, k, n, published, _ = row
    lo, hi = 1.0, 65536.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if estimate(opt, kernel, m, k, n, work, mid)[0] < published:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--fit", metavar="KERNEL",
                        help="print the DMA packet cost fitted to the first row of KERNEL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        if args.fit:
            rows = [row for row in PUBLISHED if row[0] == args.fit]
            if not rows:
                sys.exit(f"no published row for kernel '{args.fit}'")
            print(f"dma-packet-bytes fitted to {args.fit} {rows[0][1]}x{rows[0][2]}x{rows[0][3]}: "
                  f"{fit(args.opt, rows[0], work):.1f}")
            return
        print(f"{'kernel':>16} {'M x K x N':>17} {'published us':>13} {'estimate us':>12} "
              f"{'ratio':>6} {'roofline us':>12}  {'row':<9} source")
        for index, (kernel, m, k, n, published, source) in enumerate(PUBLISHED):
            estimated, roofline = estimate(args.opt, kernel, m, k, n, work)
            role = "fitted" if index == 0 else "held out"
            if published < roofline:
                role = "below roofline"
            print(f"{kernel:>16} {f'{m}x{k}x{n}':>17} {published:>13.0f} {estimated:>12.0f} "
                  f"{estimated / published:>6.2f} {roofline:>12.0f}  {role:<9} {source}", flush=True)


if __name__ == "__main__":
    main()
