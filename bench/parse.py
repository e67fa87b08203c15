#!/usr/bin/env python3
"""Parsing BIR: kernels of 25k to 200k instructions, each with an
immediate (scalar products by floats and memsets of integers, alternating,
as test/Hostile/Inputs/gen_immediates.py writes them). Prints one row per
size: instructions, megabytes of text, seconds to parse and verify
(--mlir-timing's Parser), to print, and microseconds per instruction
parsed (flat when parsing is linear in the immediates).
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from timing import seconds_in_report  # noqa: E402

GENERATOR = os.path.join(HERE, "..", "test", "Hostile", "Inputs", "gen_immediates.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--sizes", default="25000,50000,100000,200000")
    args = parser.parse_args()
    print(f"{'instructions':>12} {'MB':>6} {'parse s':>8} {'print s':>8} {'us/instr':>9}")
    with tempfile.TemporaryDirectory() as work:
        for size in map(int, args.sizes.split(",")):
            path = os.path.join(work, f"k{size}.mlir")
            with open(path, "w") as out:
                subprocess.run([sys.executable, GENERATOR, str(size)], stdout=out, check=True)
            result = subprocess.run([args.opt, path, "--mlir-timing", "-o", "/dev/null"],
                                    capture_output=True, text=True)
            if result.returncode:
                sys.exit(result.stderr[-2000:])
            parse = seconds_in_report(result.stderr, "Parser") or 0.0
            output = seconds_in_report(result.stderr, "Output") or 0.0
            megabytes = os.path.getsize(path) / 1e6
            print(f"{size:>12} {megabytes:>6.1f} {parse:>8.3f} {output:>8.3f} "
                  f"{parse / size * 1e6:>9.2f}")


if __name__ == "__main__":
    main()
