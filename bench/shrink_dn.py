#!/usr/bin/env python3
"""-shrink-dn time against the number of access patterns, and the bytes per
partition it saves on the bundled examples.

The generated functions hold tensors 128 x 512 f32 of which each access
touches a 64 x 256 window, so every tensor is trimmed. Times are MLIR pass
timings, best of 3. The bytes saved come from the pass's own report.
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from timing import parse_opt_and_sizes, print_time_per_pattern  # noqa: E402

TILE = "!bir.sbuf<128x512xf32>"


def generate(patterns, out):
    tensors = max(1, patterns // 5)
    out.write("bir.func @main {\n")
    for t in range(tensors):
        out.write(f'  %t{t} = bir.memloc "t{t}" internal : {TILE}\n')
    ap = "#bir.ap<8320, [[512, 64], [1, 256]]>"
    for t in range(tensors):
        out.write(f"  bir.memset %t{t}[{ap}], 1.0 : {TILE}\n")
        out.write(f"  bir.tensor_scalar add %t{t}[{ap}], %t{t}[{ap}], 1.0 : {TILE}, {TILE}\n")
        out.write(f"  bir.activation exp %t{t}[{ap}], %t{t}[{ap}] : {TILE}, {TILE}\n")
    out.write("}\n")
    return tensors * 5


def saved_on_examples(opt):
    rows = []
    for example in sorted(glob.glob(os.path.join(HERE, "..", "examples", "*.mlir"))):
        run = subprocess.run([opt, example, "-expand-replication", "-lnc-split", "-vn-split",
                              "-shrink-dn=report", "-o", os.devnull],
                             capture_output=True, text=True, check=True)
        saved = sum(int(n) for n in re.findall(r"saved (\d+) bytes per partition", run.stderr))
        rows.append((os.path.basename(example), saved))
    return rows


def main():
    opt, sizes = parse_opt_and_sizes(__doc__)
    print_time_per_pattern(opt, sizes, generate, "-shrink-dn", "ShrinkDn")
    print()
    print(f"{'example':>22} {'bytes/partition saved (all cores)':>34}")
    for name, saved in saved_on_examples(opt):
        print(f"{name:>22} {saved:>34}")


if __name__ == "__main__":
    main()
