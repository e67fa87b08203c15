#!/usr/bin/env python3
"""-vn-split time against the number of access patterns it examines.

Generates functions whose tensors each have eight accesses in four
partition bands (so every tensor splits into four pieces, and every other
band is read and survives), converts them to bytecode once, and times the
pass with MLIR's pass timing (best of 3). Prints a table.
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


def main():
    opt, sizes = parse_opt_and_sizes(__doc__)
    print_time_per_pattern(opt, sizes, generate, "-vn-split", "VnSplit")


if __name__ == "__main__":
    main()
