#!/usr/bin/env python3
"""Writes a symbolic BIR module with about N instructions for lnc cores.

The program streams 16 SBUF tiles through DRAM: loops of loads whose DRAM
offset depends on the loop and the shard id, elementwise work, and masked
instructions that only some cores keep, so that -lnc-split binds, folds and
prunes at scale.
"""
import argparse
import sys

TILE = "!bir.sbuf<128x512xf32>"
AP = "#bir.ap<0, [[512, 128], [1, 512]]>"


def generate(instructions, lnc, out):
    rows = 128 * lnc * 4
    dram = f"!bir.dram<{rows}x512xf32>"
    out.write(f"module @nc_symbolic attributes {{bir.lnc_size = {lnc} : i64}} {{\n")
    out.write("  bir.func @main {\n")
    out.write(f'    %x = bir.memloc "x" input : {dram}\n')
    out.write(f'    %y = bir.memloc "y" output : {dram}\n')
    for t in range(16):
        out.write(f'    %t{t} = bir.memloc "t{t}" internal : {TILE}\n')
    emitted = 0
    block = 0
    while emitted < instructions:
        t, u = block % 16, (block + 5) % 16
        core = block % lnc
        out.write("    bir.loop 0 to 4 step 1 {\n")
        out.write(f"      bir.dma %t{t}[{AP}], %x[#bir.sap<(d0)[s0] -> (d0 * 65536 + s0 * 262144), [[512, 128], [1, 512]]>]"
                  f" : {TILE}, {dram}\n")
        out.write(f"      bir.tensor_tensor add %t{u}[{AP}], %t{u}[{AP}], %t{t}[{AP}] : {TILE}, {TILE}, {TILE}\n")
        out.write(f"      bir.memset %t{t}[{AP}], 0.0 {{mask = affine_set<()[s0] : (s0 - {core} == 0)>}} : {TILE}\n")
        out.write("    }\n")
        out.write(f"    bir.activation exp %t{u}[{AP}], %t{u}[{AP}] : {TILE}, {TILE}\n")
        out.write(f"    bir.dma %y[#bir.sap<()[s0] -> (s0 * 262144), [[512, 128], [1, 512]]>], %t{u}[{AP}]"
                  f" : {dram}, {TILE}\n")
        emitted += 5
        block += 1
    out.write("  }\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("instructions", type=int)
    parser.add_argument("--lnc", type=int, default=2)
    args = parser.parse_args()
    generate(args.instructions, args.lnc, sys.stdout)


if __name__ == "__main__":
    main()
