#!/usr/bin/env python3
"""lnc-split against plain Operation::clone(), on generated symbolic modules.

For each size and core count, writes a module (gen_symbolic.py), converts it
to bytecode once, then times with MLIR's own pass timing:
  - `-lnc-split`: N-1 clones, then binding, folding and pruning per core;
  - `-test-clone-module=copies=N-1`: the same number of plain clones.
Prints a table; the ratio column is lnc-split / clone.
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


def pass_seconds(opt, bytecode, pipeline, pass_name):
    """Wall time of `pass_name` in `--mlir-timing` output, best of 3."""
    best = None
    for _ in range(3):
        run = subprocess.run(
            [opt, bytecode, pipeline, "--mlir-timing", "--verify-each=false",
             "-o", os.devnull],
            capture_output=True, text=True, check=True)
        match = re.search(r"^\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+" + re.escape(pass_name) + r"\s*$",
                          run.stderr, re.MULTILINE)
        if not match:
            sys.exit(f"no timing for {pass_name} in:\n{run.stderr}")
        seconds = float(match.group(1))
        best = seconds if best is None else min(best, seconds)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--lnc", default="2,4,8")
    args = parser.parse_args()

    print(f"{'instructions':>12} {'lnc':>4} {'lnc-split s':>12} {'clone s':>9} {'ratio':>6} {'us/instr/core':>14}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in map(int, args.sizes.split(",")):
            for lnc in map(int, args.lnc.split(",")):
                text = os.path.join(tmp, "in.mlir")
                bytecode = os.path.join(tmp, "in.mlirbc")
                with open(text, "w") as out:
                    gen_symbolic.generate(size, lnc, out)
                subprocess.run([args.opt, text, "--emit-bytecode", "-o", bytecode], check=True)
                split = pass_seconds(args.opt, bytecode, "-lnc-split", "LncSplit")
                clone = pass_seconds(args.opt, bytecode, f"-test-clone-module=copies={lnc - 1}",
                                     "TestCloneModule")
                per = split / (size * lnc) * 1e6
                print(f"{size:>12} {lnc:>4} {split:>12.3f} {clone:>9.3f} {split / clone:>6.2f} {per:>14.3f}",
                      flush=True)


if __name__ == "__main__":
    main()
