#!/usr/bin/env python3
"""Dense traces from utils/gen_minimalloc.py's generator through -sb-alloc's
dense path (edges not stored), with the window search first and with the
chains of orders alone: every allocation, with room and squeezed below
the chains' height, must pass -sb-alloc-verify; threads must not change
it; the graph must store no pair, and the work per node and order must
stay within a small multiple of log2(nodes) (an index probe per tree
level, not one per neighbour). Prints one summary line."""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_minimalloc as minimalloc  # noqa: E402

DENSE = "dense-edges=0 dense-edges-per-node=0"
# Probes and insertions per node and order, per level of the index: each
# placement probes the O(log) sets of its range a few times round.
WORK_PER_LEVEL = 8


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, **kwargs)


def check(tools, csv_path, scratch):
    """The problems found with one trace (empty when it is right)."""
    opt = os.path.join(tools, "walrus-opt")
    imported = os.path.join(scratch, "trace.mlir")
    run([os.path.join(tools, "walrus-translate"), "--import-minimalloc-csv",
         csv_path, "-o", imported], check=True)
    problems = []
    entries = {}
    # With the window search first (the default) and the chains alone.
    for variant in ("", " search-budget=0"):
        report = os.path.join(scratch, "report.json")
        outputs = []
        for threads in ([], ["--mlir-disable-threading"]):
            allocated = run([opt, imported,
                             f"-sb-alloc={DENSE}{variant} report-file={report}",
                             "-sb-alloc-verify"] + threads)
            if allocated.returncode != 0:
                return [allocated.stderr.decode()[:400]]
            outputs.append(allocated.stdout)
        if outputs[0] != outputs[1]:
            problems.append(f"threads changed the allocation ({variant})")
        with open(report) as f:
            entries[variant] = json.load(f)["functions"][0]
    # A short budget stops largest first part way (past half the budget):
    # still the same allocation with and without threads.
    short = [run([opt, imported,
                  f"-sb-alloc={DENSE} dense-budget=20 search-budget=0",
                  "-sb-alloc-verify"] + threads).stdout
             for threads in ([], ["--mlir-disable-threading"])]
    if short[0] != short[1] or not short[0]:
        problems.append("threads changed the allocation at dense-budget=20")
    for variant, entry in entries.items():
        nodes = len(entry["nodes"])
        if entry["stored_edges"] != 0:
            problems.append(f"the graph stored {entry['stored_edges']} pairs")
        per_node = entry["dense_work"] / (entry["dense_orders"] * nodes)
        bound = WORK_PER_LEVEL * math.log2(nodes)
        if per_node > bound:
            problems.append(f"work {per_node:.0f} per node and order > "
                            f"{bound:.0f} ({entry['edges']} pairs{variant})")
    entry = entries[" search-budget=0"]
    # Squeezed halfway between the lower bound and the height reached.
    squeezed = (entry["lower_bound_bytes"] + entry["peak_bytes"]) // 2
    for variant in entries:
        allocated = run([opt, imported,
                         f"-sb-alloc={DENSE}{variant} sbuf-bytes={squeezed}",
                         "-sb-alloc-verify", "-o", os.devnull])
        if allocated.returncode != 0:
            problems.append(allocated.stderr.decode()[:400])
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--sizes", default="1500,3000")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--traces", default="",
                        help="only these, as shape-count-seed,...")
    args = parser.parse_args()
    if args.traces:
        chosen = [(shape, int(count), int(seed)) for shape, count, seed in
                  (name.split("-") for name in args.traces.split(","))]
    else:
        chosen = [(shape, int(count), seed)
                  for count in args.sizes.split(",")
                  for shape in minimalloc.DENSE_SHAPES
                  for seed in range(args.seeds)]
    traces = failed = 0
    with tempfile.TemporaryDirectory() as scratch:
        for shape, count, seed in chosen:
            buffers, _ = minimalloc.generate_dense(
                count, seed, minimalloc.DENSE_SHAPES[shape])
            path = os.path.join(scratch, "trace.csv")
            minimalloc.write_csv(path, buffers, 0)
            traces += 1
            for problem in check(args.tools, path, scratch):
                failed += 1
                print(f"dense-{shape}-{count} seed {seed}: {problem}")
    print(f"{traces} dense traces: {traces - failed} verified, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
