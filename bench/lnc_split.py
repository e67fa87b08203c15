#!/usr/bin/env python3
"""lnc-split against plain Operation::clone(), on generated symbolic modules.

For each size and core count, writes a module (gen_symbolic.py), converts it
to bytecode once, then times with MLIR's own pass timing:
  - `-lnc-split`: N-1 clones, then binding, folding and pruning per core;
  - `-test-walrus-clone-module=copies=N-1`: the same number of plain clones.
Prints a table; the ratio column is lnc-split / clone.
"""
import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_symbolic  # noqa: E402
from timing import pass_seconds, to_bytecode  # noqa: E402


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
                to_bytecode(args.opt, text, bytecode)
                split = pass_seconds(args.opt, bytecode, "-lnc-split", "LncSplit")
                clone = pass_seconds(args.opt, bytecode, f"-test-walrus-clone-module=copies={lnc - 1}",
                                     "TestCloneModule")
                per = split / (size * lnc) * 1e6
                print(f"{size:>12} {lnc:>4} {split:>12.3f} {clone:>9.3f} {split / clone:>6.2f} {per:>14.3f}",
                      flush=True)


if __name__ == "__main__":
    main()
