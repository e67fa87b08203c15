#!/usr/bin/env python3
"""-vn-split time against the number of access patterns it examines.

Two shapes of function, each converted to bytecode once and timed with
MLIR's pass timing (best of 3), a table each:
  many tensors  each has eight accesses in four partition bands (so every
                tensor splits into four pieces, and every other band is
                read and survives);
  hot tiles     16 tiles, each written and read whole by a share of the
                instructions (as a kernel streams its tiles): thousands of
                accesses per tensor, none split.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from timing import parse_opt_and_sizes, print_time_per_pattern  # noqa: E402

TILE = "!bir.sbuf<128x64xf32>"
DRAM = "!bir.dram<128x64xf32>"


def generate(patterns, out):
    tensors = max(1, patterns // 8)
    out.write("bir.func @main {\n")
    out.write(f'  %y = bir.memloc "y" output : {DRAM}\n')
    for t in range(tensors):
        out.write(f'  %t{t} = bir.memloc "t{t}" internal : {TILE}\n')
    for t in range(tensors):
        for band in range(4):
            ap = f"#bir.ap<{band * 32 * 64}, [[64, 32], [1, 64]]>"
            out.write(f"  bir.memset %t{t}[{ap}], {band}.0 : {TILE}\n")
            out.write(f"  bir.dma %y[{ap}], %t{t}[{ap}] : {DRAM}, {TILE}\n")
    out.write("}\n")
    return tensors * 8


def generate_hot(patterns, out, tiles=16):
    out.write("bir.func @main {\n")
    out.write(f'  %y = bir.memloc "y" output : {DRAM}\n')
    for t in range(tiles):
        out.write(f'  %t{t} = bir.memloc "t{t}" internal : {TILE}\n')
    ap = "#bir.ap<0, [[64, 128], [1, 64]]>"
    rounds = max(1, patterns // (3 * tiles))
    for r in range(rounds):
        for t in range(tiles):
            out.write(f"  bir.memset %t{t}[{ap}], {r % 7}.0 : {TILE}\n")
            out.write(f"  bir.dma %y[{ap}], %t{t}[{ap}] : {DRAM}, {TILE}\n")
    out.write("}\n")
    return rounds * tiles * 3


def main():
    opt, sizes = parse_opt_and_sizes(__doc__)
    print("many tensors")
    print_time_per_pattern(opt, sizes, generate, "-vn-split", "VnSplit")
    print("hot tiles")
    print_time_per_pattern(opt, sizes, generate_hot, "-vn-split", "VnSplit")


if __name__ == "__main__":
    main()
