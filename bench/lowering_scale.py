#!/usr/bin/env python3
"""How -convert-linalg-to-bir scales with the number of ops.

Writes a chain of N elementwise linalg.add ops on 64x64 f32 memrefs (each
adds the function's argument to the previous result into a new buffer, as
bufferization leaves a residual stream), lowers it with `walrus-opt
-convert-linalg-to-bir --mlir-timing`, and prints one row per N: the
lowering pass's wall seconds, microseconds per op, and that against the
smallest N (a linear lowering keeps it near 1). Each op lowers to 4
instructions. The chain is written as memrefs because upstream one-shot
bufferization is itself quadratic on such chains (`--bufferize` times it
too).
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pipeline import top_level_wall  # noqa: E402

BIN = os.path.join(HERE, "..", "build", "bin")


def chain(ops, tensors=False):
    kind = "tensor" if tensors else "memref"
    t = f"{kind}<64x64xf32>"
    lines = [f"func.func @chain(%x: {t}) -> {t} {{"]
    previous = "%x"
    for i in range(ops):
        if tensors:
            lines.append(f"  %e{i} = tensor.empty() : {t}")
            lines.append(f"  %a{i} = linalg.add ins({previous}, %x : {t}, {t}) "
                         f"outs(%e{i} : {t}) -> {t}")
        else:
            lines.append(f"  %a{i} = memref.alloc() : {t}")
            lines.append(f"  linalg.add ins({previous}, %x : {t}, {t}) outs(%a{i} : {t})")
        previous = f"%a{i}"
    lines.append(f"  return {previous} : {t}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ops", default="1000,10000,100000",
                        help="comma-separated chain lengths")
    parser.add_argument("--bin", default=BIN)
    parser.add_argument("--bufferize", action="store_true",
                        help="write tensors and time upstream bufferization too")
    args = parser.parse_args()
    opt = os.path.join(args.bin, "walrus-opt")
    print("| ops | instructions | lower s | us / op | vs smallest |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    first = None
    with tempfile.TemporaryDirectory(prefix="walrus-scale-") as work:
        for ops in [int(n) for n in args.ops.split(",")]:
            source = os.path.join(work, f"chain-{ops}.mlir")
            with open(source, "w") as out:
                out.write(chain(ops, tensors=args.bufferize))
            passes = ["-convert-linalg-to-bir"]
            if args.bufferize:
                passes.insert(0, "-one-shot-bufferize=bufferize-function-boundaries "
                              "function-boundary-type-conversion=identity-layout-map")
            run = subprocess.run([opt, source, *passes, "--mlir-timing", "-o", os.devnull],
                                 check=True, capture_output=True, text=True)
            if args.bufferize:
                bufferize = top_level_wall(run.stderr, "OneShotBufferizePass")
                print(f"(one-shot-bufferize of {ops} ops: {bufferize:.3f} s)")
            seconds = top_level_wall(run.stderr, "ConvertLinalgToBir")
            per_op = seconds / ops * 1e6
            first = first or per_op
            print(f"| {ops} | {4 * ops} | {seconds:.3f} | {per_op:.1f} | {per_op / first:.2f} |")


if __name__ == "__main__":
    main()
