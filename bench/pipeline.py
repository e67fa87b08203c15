#!/usr/bin/env python3
"""The post-split pipeline with and without threads.

For each size and core count: a symbolic program (gen_symbolic.py) split by
-lnc-split into per-core programs, stored as bytecode; then the four passes
that work on one function at a time (-vn-split -shrink-dn -sb-alloc
-sb-alloc-verify), timed with MLIR's pass timing (verifier off, as in the
other benchmarks), once on MLIR's thread pool and once with
--mlir-disable-threading, best of --repeats runs each. Prints a table:
seconds both ways, the speed-up, and microseconds per instruction of the
split program (all cores) single-threaded.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_symbolic  # noqa: E402
from timing import to_bytecode  # noqa: E402

PASSES = [("-vn-split", "VnSplit"), ("-shrink-dn", "ShrinkDn"), ("-sb-alloc", "SbAlloc"),
          ("-sb-alloc-verify", "SbAllocVerify")]


def split_instructions(symbolic, lnc):
    """Instructions after the split: gen_symbolic writes blocks of five,
    one of them (a masked memset) kept on one core only."""
    blocks = -(-symbolic // 5)
    return blocks * (4 * lnc + 1)


def top_level_wall(report, name):
    """Wall seconds of the top-level pass `name` in an --mlir-timing report
    (one column single-threaded, user and wall columns with threads). A
    pass that runs itself on every function through a nested pipeline is
    timed whole at the top level; the nested entries are parts of it."""
    pattern = r"^(?:\s*[0-9.]+ \(\s*[0-9.]+%\))*\s*([0-9.]+) \(\s*[0-9.]+%\)  " + re.escape(name) + r"$"
    match = re.search(pattern, report, re.MULTILINE)
    return float(match.group(1)) if match else None


def seconds(opt, path, extra, repeats):
    """Best total of the four passes' wall times over `repeats` runs."""
    best = None
    for _ in range(repeats):
        run = subprocess.run([opt, path, *[flag for flag, _ in PASSES], *extra, "--mlir-timing",
                              "--verify-each=false", "-o", os.devnull],
                             capture_output=True, text=True, check=True)
        total = 0.0
        for _, name in PASSES:
            value = top_level_wall(run.stderr, name)
            if value is None:
                sys.exit(f"no timing for {name} in:\n{run.stderr}")
            total += value
        best = total if best is None else min(best, total)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--lnc", default="2,4,8")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    print(f"{'symbolic':>9} {'lnc':>4} {'split instr':>12} {'threads s':>10} {'1 thread s':>11}"
          f" {'speed-up':>9} {'us/instr (1 thread)':>20}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in map(int, args.sizes.split(",")):
            for lnc in map(int, args.lnc.split(",")):
                text = os.path.join(tmp, "in.mlir")
                symbolic = os.path.join(tmp, "in.mlirbc")
                split = os.path.join(tmp, "split.mlirbc")
                with open(text, "w") as out:
                    gen_symbolic.generate(size, lnc, out)
                to_bytecode(args.opt, text, symbolic)
                subprocess.run([args.opt, symbolic, "-lnc-split", "--emit-bytecode", "-o", split],
                               check=True)
                instructions = split_instructions(size, lnc)
                threads = seconds(args.opt, split, [], args.repeats)
                alone = seconds(args.opt, split, ["--mlir-disable-threading"], args.repeats)
                print(f"{size:>9} {lnc:>4} {instructions:>12} {threads:>10.3f} {alone:>11.3f}"
                      f" {alone / threads:>9.2f} {alone / instructions * 1e6:>20.3f}", flush=True)


if __name__ == "__main__":
    main()
