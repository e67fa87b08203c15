#!/usr/bin/env python3
"""-print-bir-timeline's speed: programs of 10k to 1M executed instructions.

Each program is a loop whose body is a DMA in, a vector op, an activation
and a DMA out over rotating SBUF tiles (so dependencies and all engines
are exercised), run for as many iterations as the size asks. Prints one
row per size: executed instructions, seconds for the whole walrus-opt run
and for the pass alone (--mlir-timing), and microseconds per instruction
(flat when the estimate is linear in instructions).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from timing import seconds_in_report  # noqa: E402


def program(iterations):
    ap = "#bir.ap<0, [[512, 128], [1, 512]]>"
    body = []
    for t in range(4):
        tile = f"%t{t}"
        src = f"#bir.sap<(d0)[s0] -> ((d0 * 4 + {t}) mod 64 * 65536), [[512, 128], [1, 512]]>"
        body += [
            f"      bir.dma {tile}[{ap}], %x[{src}] : !bir.sbuf<128x512xbf16>, !bir.dram<8192x512xbf16>",
            f"      bir.tensor_scalar multiply {tile}[{ap}], {tile}[{ap}], 2.0 : !bir.sbuf<128x512xbf16>, !bir.sbuf<128x512xbf16>",
            f"      bir.activation exp {tile}[{ap}], {tile}[{ap}] : !bir.sbuf<128x512xbf16>, !bir.sbuf<128x512xbf16>",
            f"      bir.dma %y[{src}], {tile}[{ap}] : !bir.dram<8192x512xbf16>, !bir.sbuf<128x512xbf16>",
        ]
    tiles = "\n".join(f'    %t{t} = bir.memloc "t{t}" internal : !bir.sbuf<128x512xbf16>' for t in range(4))
    return (f'module @nc_symbolic attributes {{bir.lnc_size = 1 : i64}} {{\n  bir.func @main {{\n'
            f'    %x = bir.memloc "x" input : !bir.dram<8192x512xbf16>\n'
            f'    %y = bir.memloc "y" output : !bir.dram<8192x512xbf16>\n{tiles}\n'
            f'    bir.loop 0 to {iterations} step 1 {{\n' + "\n".join(body) + "\n    }\n  }\n}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--sizes", default="10000,100000,1000000")
    args = parser.parse_args()
    print(f"{'instructions':>12} {'total s':>8} {'pass s':>8} {'us/instr':>9}")
    with tempfile.TemporaryDirectory() as work:
        for size in map(int, args.sizes.split(",")):
            path = os.path.join(work, f"p{size}.mlir")
            with open(path, "w") as out:
                out.write(program(max(1, size // 16)))
            begin = time.perf_counter()
            result = subprocess.run([args.opt, path, "-print-bir-timeline", "--mlir-timing",
                                     "-o", "/dev/null"], capture_output=True, text=True)
            seconds = time.perf_counter() - begin
            if result.returncode:
                sys.exit(result.stderr[-2000:])
            executed = (size // 16) * 16
            passed = seconds_in_report(result.stderr, "PrintBirTimeline") or 0.0
            print(f"{executed:>12} {seconds:>8.2f} {passed:>8.3f} {1e6 * passed / executed:>9.3f}",
                  flush=True)


if __name__ == "__main__":
    main()
