#!/usr/bin/env python3
"""-sb-alloc on the bundled kernels and on generated workloads.

For each input: pass time (MLIR pass timing), peak resident memory of the
walrus-opt process, the allocator's peak bytes per partition against its
lower bound (the largest live area at one point over all partitions), and
the spills. `--sbuf-bytes` and `--search-budget` set sb-alloc's options for
the generated workloads (with less room they spill, and the search runs
before). Generated workloads hold N tensors of mixed partition counts
(32, 64, 96, 128) and sizes (256 B to 4 KiB per partition), each written
once and read by the next few instructions, in one function.
"""
import argparse
import glob
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from timing import seconds_in_report, to_bytecode  # noqa: E402


def generate(tensors, seed, out):
    rng = random.Random(seed)
    out.write("bir.func @main {\n")
    shapes = []
    for t in range(tensors):
        partitions = rng.choice([32, 64, 96, 128])
        columns = rng.choice([64, 128, 256, 512, 1024])  # f32: 256 B .. 4 KiB
        shapes.append((partitions, columns))
        out.write(f'  %t{t} = bir.memloc "t{t}" internal : !bir.sbuf<{partitions}x{columns}xf32>\n')
    for t, (partitions, columns) in enumerate(shapes):
        ty = f"!bir.sbuf<{partitions}x{columns}xf32>"
        out.write(f"  bir.memset %t{t}[#bir.ap<0, [[{columns}, {partitions}], [1, {columns}]]>], 1.0 : {ty}\n")
        # Read by a few of the next tensors' producers.
        for back in range(1, rng.randint(1, 4)):
            if t - back < 0:
                break
            p2, c2 = shapes[t - back]
            rows, cols = min(partitions, p2), min(columns, c2)
            ty2 = f"!bir.sbuf<{p2}x{c2}xf32>"
            out.write(f"  bir.tensor_tensor add %t{t}[#bir.ap<0, [[{columns}, {rows}], [1, {cols}]]>], "
                      f"%t{t}[#bir.ap<0, [[{columns}, {rows}], [1, {cols}]]>], "
                      f"%t{t - back}[#bir.ap<0, [[{c2}, {rows}], [1, {cols}]]>] : {ty}, {ty}, {ty2}\n")
    out.write("}\n")


def measure(opt, path, pipeline, options=""):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    run = subprocess.run([opt, path, *pipeline, f"-sb-alloc=report {options}", "-sb-alloc-verify",
                          "--mlir-timing", "--verify-each=0", "-o", os.devnull],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stderr)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    seconds = seconds_in_report(run.stderr, "SbAlloc")
    peak = lower = spills = 0
    for match in re.finditer(r"(\d+) spill\(s\), peak (\d+) B/partition, lower bound (\d+)", run.stderr):
        spills += int(match.group(1))
        peak = max(peak, int(match.group(2)))
        lower = max(lower, int(match.group(3)))
    return seconds, max(rss, before) / 1024, peak, lower, spills


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--sbuf-bytes", type=int, default=0,
                        help="bytes per partition for the generated workloads "
                             "(0: the target's); less makes them spill")
    parser.add_argument("--search-budget", type=int,
                        help="sb-alloc's search-budget for the generated workloads")
    args = parser.parse_args()
    options = f"sbuf-bytes={args.sbuf_bytes}"
    if args.search_budget is not None:
        options += f" search-budget={args.search_budget}"
    print(f"{'input':>24} {'sb-alloc s':>11} {'max RSS MiB':>12} {'peak B':>8} {'bound B':>8} "
          f"{'peak/bound':>10} {'spills':>7}")
    front = ["-expand-replication", "-lnc-split", "-lnc-verify", "-vn-split", "-shrink-dn"]
    for example in sorted(glob.glob(os.path.join(HERE, "..", "examples", "*.mlir"))):
        seconds, rss, peak, lower, spills = measure(args.opt, example, front)
        print(f"{os.path.basename(example):>24} {seconds:>11.4f} {rss:>12.0f} {peak:>8} {lower:>8} "
              f"{peak / lower:>10.3f} {spills:>7}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for size in map(int, args.sizes.split(",")):
            text = os.path.join(tmp, "in.mlir")
            bytecode = os.path.join(tmp, "in.mlirbc")
            with open(text, "w") as out:
                generate(size, size, out)
            to_bytecode(args.opt, text, bytecode)
            seconds, rss, peak, lower, spills = measure(args.opt, bytecode, [], options)
            print(f"{str(size) + ' tensors':>24} {seconds:>11.4f} {rss:>12.0f} {peak:>8} {lower:>8} "
                  f"{peak / lower:>10.3f} {spills:>7}", flush=True)


if __name__ == "__main__":
    main()
