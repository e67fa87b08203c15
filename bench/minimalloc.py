#!/usr/bin/env python3
"""Static allocation quality on MiniMalloc CSV instances (issue 9).

    python3 bench/minimalloc.py                 # generate, then compare
    python3 bench/minimalloc.py --dir DIR       # every DIR/*.csv
    python3 bench/minimalloc.py --generate DIR  # only write the instances

Per instance: buffers, lower bound (the largest total size live at one
time), and for Walrus (walrus-translate --import-minimalloc-csv | walrus-opt
-sb-alloc | --export-minimalloc-csv) and each greedy baseline: height (the
highest byte any buffer reaches), height / lower bound, whether it fits the
instance's capacity, and time (for Walrus the -sb-alloc pass alone, by
MLIR's pass timing; for the baselines their C++ placement loop, in
bench/greedy_baselines.cpp). Walrus runs at the capacity, where it must
place every buffer without spilling; when it cannot, the height is the
lowest it reaches with 1%, 2%, 4%, ... more room without a spill, the
time that of the attempt at the capacity, and `spilled` how many tensors
it spilled there (the baselines do not spill: they overflow). A summary
follows: per family of instances (the name without its seed) and
allocator, how many fit, the worst height / lower bound and the longest
time. Baselines, as in the production allocators:

  best-fit   size-descending best fit (TFLite, XLA kSpatial)
  first-fit  size-descending first fit (TFLM)
  temporal   start-time order, best fit (XLA kTemporal)

Generated instances (deterministic seeds):
  hard-N     a capacity x time rectangle cut into N buffers by random
             guillotine cuts, then shuffled: the optimum is the capacity
             and equals the lower bound
  band-N     4 partition quarters x capacity x time cut into N boxes of a
             quarter, a half or all 128 partitions (Walrus's `partitions`
             column; the greedy baselines, 1-D, do not run on these)
  trace-N    kernel-like traces: tiles of the SBUF sizes the bundled kernels
             use, each live for a few steps, a few long-lived weights
  dense-lm-N, dense-train-N, dense-step-N
             dense traces with the statistics of real models' (issue 17):
             lifetimes skewed (median 5 steps, 90th percentile 3-7% of
             the horizon, 1% live throughout), sizes from 4 B to GBs
             (median ~30 KB); activations kept from a forward to a
             backward half, over 4 micro-batches (4% of the buffers for
             lm, 9% for train, 30% for step). Live at once: 200-3.6k
             buffers for lm and train (6k-100k buffers), 5.1k for
             step-60000 (a public 62k-buffer training step: 9.3k). Walrus runs with room
             (no capacity: fitting means reaching the lower bound), and
             `min cap` is the smallest sbuf-bytes at which it places every
             buffer without a spill (bisection, 8 steps between the lower
             bound and its height). Seed 1 by default; `--dense-seeds
             1,2,3` adds others (named dense-lm-N-s2, ...).

Each row also gives the peak memory (RSS) of the process: walrus-opt's
whole run for Walrus, greedy-baselines' (all three) for the baselines.
"""
import argparse
import csv
import glob
import math
import os
import random
import re
import subprocess
import sys
import tempfile

PARTITIONS = 128

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from timing import seconds_in_report  # noqa: E402


# --- instances -------------------------------------------------------------

def write_csv(path, buffers, capacity):
    """buffers: (lower, upper, size[, partitions]); the capacity goes in a
    sidecar file so that the CSV stays in MiniMalloc's format (plus Walrus's
    `partitions` column when a buffer spans fewer than 128)."""
    banded = any(len(b) > 3 and b[3] != PARTITIONS for b in buffers)
    with open(path, "w") as out:
        out.write("id,lower,upper,size" + (",partitions" if banded else "") + "\n")
        for index, buffer in enumerate(buffers):
            lower, upper, size = buffer[:3]
            extra = f",{buffer[3]}" if banded else ""
            out.write(f"{index},{lower},{upper},{size}{extra}\n")
    with open(path + ".capacity", "w") as out:
        out.write(f"{capacity}\n")


def generate_hard(count, seed, capacity=1 << 16, horizon=1 << 12):
    """Guillotine-cut [0, capacity) x [0, horizon) into `count` rectangles."""
    rng = random.Random(seed)
    pieces = [(0, capacity, 0, horizon)]  # offset, size, lower, upper
    while len(pieces) < count:
        # Cut the largest piece that can still be cut.
        pieces.sort(key=lambda p: p[1] * (p[3] - p[2]))
        offset, size, lower, upper = pieces.pop()
        along_time = upper - lower > 1 and (size == 1 or rng.random() < 0.5)
        if along_time:
            cut = rng.randint(lower + 1, upper - 1)
            pieces += [(offset, size, lower, cut), (offset, size, cut, upper)]
        elif size > 1:
            cut = rng.randint(1, size - 1)
            pieces += [(offset, cut, lower, upper),
                       (offset + cut, size - cut, lower, upper)]
        else:
            pieces.append((offset, size, lower, upper))
            break
    rng.shuffle(pieces)
    return [(lower, upper, size) for _, size, lower, upper in pieces], capacity


def generate_band(count, seed, capacity=1 << 16, horizon=1 << 12):
    """Guillotine-cut 4 partition quarters x [0, capacity) x [0, horizon)
    into `count` boxes: cuts along time, bytes, or the quarters (4 into
    2 + 2, 2 into 1 + 1, so every box is a quarter, a half or all of the
    partitions, as SBUF's bands are)."""
    rng = random.Random(seed)
    pieces = [(0, 4, 0, capacity, 0, horizon)]  # lane, lanes, offset, size, lower, upper
    while len(pieces) < count:
        pieces.sort(key=lambda p: p[1] * p[3] * (p[5] - p[4]))
        lane, lanes, offset, size, lower, upper = pieces.pop()
        axes = [axis for axis, ok in (("time", upper - lower > 1),
                                      ("bytes", size > 1),
                                      ("lanes", lanes > 1)) if ok]
        if not axes:
            pieces.append((lane, lanes, offset, size, lower, upper))
            break
        axis = rng.choice(axes)
        if axis == "time":
            cut = rng.randint(lower + 1, upper - 1)
            pieces += [(lane, lanes, offset, size, lower, cut),
                       (lane, lanes, offset, size, cut, upper)]
        elif axis == "bytes":
            cut = rng.randint(1, size - 1)
            pieces += [(lane, lanes, offset, cut, lower, upper),
                       (lane, lanes, offset + cut, size - cut, lower, upper)]
        else:
            half = lanes // 2
            pieces += [(lane, half, offset, size, lower, upper),
                       (lane + half, half, offset, size, lower, upper)]
    rng.shuffle(pieces)
    quarter = PARTITIONS // 4
    return [(lower, upper, size, lanes * quarter)
            for _, lanes, _, size, lower, upper in pieces], capacity


def generate_trace(count, seed):
    """Tiles of 512 B..8 KiB per partition written by one instruction and
    read within the next few; about 2% long-lived (weights, accumulators)."""
    rng = random.Random(seed)
    sizes = [512, 1024, 2048, 4096, 8192]
    buffers = []
    step = 0
    while len(buffers) < count:
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.02:
                life = rng.randint(50, 2000)
            else:
                life = rng.randint(1, 8)
            buffers.append((step, step + life, rng.choice(sizes)))
        step += 1
    buffers = buffers[:count]
    return buffers, None


def generate_dense(count, seed, nested):
    """Weights live throughout; `nested` of the buffers are activations
    written in the first half of a micro-batch and read back, a little out
    of order, in its second half; a fifth are values read a while later;
    the rest are temporaries read within a few steps."""
    rng = random.Random(seed)
    horizon = max(100, count // 3)
    cycles = 4

    def size(median, sigma):
        value = int(math.exp(rng.gauss(math.log(median), sigma)))
        return max(4, min(value, 2 << 30))

    buffers = []
    for _ in range(count):
        start = rng.randrange(horizon)
        kind = rng.random()
        if kind < 0.01:
            start, end, bytes_ = 0, horizon, size(16 << 20, 0.7)
        elif kind < 0.01 + nested:
            cycle = horizon // cycles
            base = rng.randrange(cycles) * cycle
            into = rng.randrange(cycle // 2)
            start = base + into
            end = base + cycle - into + int(cycle * rng.uniform(-0.05, 0.05))
            bytes_ = size(8 << 20, 0.7)
        elif kind < 0.25:
            life = math.exp(rng.uniform(math.log(8), math.log(0.15 * horizon)))
            end = start + int(life)
            bytes_ = size(256 << 10, 1.5)
        else:
            end = start + 1 + min(int(rng.expovariate(1 / 4.5)), 40)
            bytes_ = size(12 << 10, 2.5)
        buffers.append((start, max(start + 1, min(end, horizon)), bytes_))
    return buffers, None


DENSE_SHAPES = {"lm": 0.04, "train": 0.09, "step": 0.3}


def lower_bound(buffers):
    """The most bytes per partition live at once, spread over all
    partitions (buffers: (lower, upper, size[, partitions]))."""
    events = []
    for buffer in buffers:
        lower, upper, size = buffer[:3]
        area = size * (buffer[3] if len(buffer) > 3 else PARTITIONS)
        events.append((lower, area))
        events.append((upper, -area))
    events.sort(key=lambda e: (e[0], e[1]))  # frees before allocations
    live = best = 0
    for _, delta in events:
        live += delta
        best = max(best, live)
    return -(-best // PARTITIONS)


def run_measured(command, input_bytes=b""):
    """(returncode, stdout, stderr, peak RSS in MiB) of one process: its
    own rusage (os.wait4), not the running maximum over all children."""
    with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as stdout, \
            tempfile.TemporaryFile() as stderr:
        stdin.write(input_bytes)
        stdin.seek(0)
        process = subprocess.Popen(command, stdin=stdin, stdout=stdout,
                                   stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        return (process.returncode, stdout.read(), stderr.read(),
                usage.ru_maxrss / 1024)


# --- greedy baselines ------------------------------------------------------

def run_baselines(tools, path):
    """(name, height, seconds, RSS MiB) per baseline, from
    bench/greedy_baselines.cpp (C++, so that its times compare with
    -sb-alloc's)."""
    code, out, err, rss = run_measured(
        [os.path.join(tools, "greedy-baselines"), path])
    if code != 0:
        sys.exit(err.decode())
    rows = []
    for line in out.decode().splitlines():
        name, height, seconds = line.split()
        rows.append((name, int(height), float(seconds), rss))
    return rows


# --- Walrus ----------------------------------------------------------------

def run_walrus(tools, path, capacity):
    """run_walrus_measured without the RSS."""
    return run_walrus_measured(tools, path, capacity)[:3]


def run_walrus_measured(tools, path, capacity):
    """Height and sb-alloc's own time (MLIR pass timing: no process start,
    parsing, printing or IR verification after the pass, like the
    in-process baselines; the export parses and so verifies the result),
    with height None when it did not place every buffer at `capacity`
    bytes, and how many tensors sb-alloc spilled (0 when it placed them
    all). The timed run prints no report: rendering a remark re-reads the
    source file for its excerpt (0.03 s at 100k buffers); the spills are
    counted by a second run, with the report, only where there are any."""
    imported = subprocess.run(
        [os.path.join(tools, "walrus-translate"), "--import-minimalloc-csv",
         path], capture_output=True, check=True).stdout

    def allocate(*extra):
        code, out, err, rss = run_measured(
            [os.path.join(tools, "walrus-opt"),
             f"-sb-alloc=sbuf-bytes={capacity}" + "".join(extra),
             "--mlir-timing", "--verify-each=0", "--emit-bytecode", "-"],
            imported)
        if code != 0:
            sys.exit(err.decode())
        return out, err.decode(), rss

    allocated, timing, rss = allocate()
    seconds = seconds_in_report(timing, "SbAlloc")
    exported = subprocess.run(
        [os.path.join(tools, "walrus-translate"), "--export-minimalloc-csv",
         "-"], input=allocated, capture_output=True)
    if exported.returncode != 0:  # spilled
        _, report, _ = allocate(" report")
        spills = sum(int(n) for n in re.findall(r"(\d+) spill\(s\)", report))
        return None, seconds, spills, rss
    rows = csv.DictReader(exported.stdout.decode().splitlines())
    return (max(int(r["offset"]) + int(r["size"]) for r in rows), seconds, 0,
            rss)


def find_min_capacity(tools, path, low, high, steps=8):
    """The smallest capacity in (low, high] found to place every buffer
    without a spill, by bisection (`high` is known to fit)."""
    for _ in range(steps):
        if high - low <= 1:
            break
        middle = (low + high) // 2
        if run_walrus(tools, path, middle)[0] is not None:
            high = middle
        else:
            low = middle
    return high


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    buffers = [(int(r["lower"]), int(r["upper"]), int(r["size"]),
                int(r.get("partitions") or PARTITIONS)) for r in rows]
    capacity = None
    if os.path.exists(path + ".capacity"):
        with open(path + ".capacity") as f:
            capacity = int(f.read())
    return buffers, capacity


def generate_all(folder, sizes_hard, sizes_trace, seeds, sizes_band=(),
                 sizes_dense=(), dense_seeds=(1,)):
    os.makedirs(folder, exist_ok=True)
    for count in sizes_dense:
        for shape, nested in DENSE_SHAPES.items():
            for seed in dense_seeds:
                buffers, _ = generate_dense(count, seed, nested)
                # Seed 1 keeps the name the tables have always used.
                suffix = "" if seed == 1 else f"-s{seed}"
                # No capacity: Walrus runs with room.
                write_csv(os.path.join(
                    folder, f"dense-{shape}-{count}{suffix}.csv"), buffers, 0)
    for count in sizes_band:
        for seed in range(seeds):
            buffers, capacity = generate_band(count, seed)
            write_csv(os.path.join(folder, f"band-{count}-s{seed}.csv"),
                      buffers, capacity)
    for count in sizes_hard:
        for seed in range(seeds):
            buffers, capacity = generate_hard(count, seed)
            write_csv(os.path.join(folder, f"hard-{count}-s{seed}.csv"),
                      buffers, capacity)
    for count in sizes_trace:
        buffers, _ = generate_trace(count, 1)
        # Capacity: the lower bound itself; fitting means reaching it.
        write_csv(os.path.join(folder, f"trace-{count}.csv"), buffers,
                  lower_bound(buffers))


def print_summary(summary):
    """Per family of instances and allocator: how many fit at their
    capacity, the worst height / lower bound and the longest time."""
    print()
    print(f"{'family':<20} {'allocator':<10} {'fit':>9} {'worst h/lb':>10} "
          f"{'max time s':>10}")
    for family, allocators in summary.items():
        for label, rows in allocators.items():
            fitted = sum(1 for fits, _, _ in rows if fits)
            print(f"{family:<20} {label:<10} {f'{fitted}/{len(rows)}':>9} "
                  f"{max(r[1] for r in rows):>10.5f} "
                  f"{max(r[2] for r in rows):>10.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", help="folder of MiniMalloc CSV instances")
    parser.add_argument("--generate", help="write the generated instances here and stop")
    parser.add_argument("--tools", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--hard", default="50,100,200,500")
    parser.add_argument("--trace", default="1000,10000,100000")
    parser.add_argument("--band", default="50,100,200",
                        help="sizes of quarter/half/full-partition instances")
    parser.add_argument("--dense", default="6000,20000,60000",
                        help="sizes of the dense-lm and dense-train traces")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--dense-seeds", default="1",
                        help="seeds of the dense traces (names gain -sN "
                        "but for seed 1)")
    args = parser.parse_args()
    dense_seeds = [int(n) for n in args.dense_seeds.split(",") if n]
    dense = [int(n) for n in args.dense.split(",") if n]
    hard = [int(n) for n in args.hard.split(",") if n]
    trace = [int(n) for n in args.trace.split(",") if n]
    band = [int(n) for n in args.band.split(",") if n]
    if args.generate:
        generate_all(args.generate, hard, trace, args.seeds, band, dense,
                     dense_seeds)
        return
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.dir
        if not folder:
            folder = scratch
            generate_all(folder, hard, trace, args.seeds, band, dense,
                         dense_seeds)
        paths = sorted(glob.glob(os.path.join(folder, "*.csv")),
                       key=lambda p: (os.path.basename(p).split("-")[0],
                                      len(p), p))
        # family (instance name without its seed) -> allocator -> rows
        summary = {}
        print(f"{'instance':<20} {'buffers':>7} {'lower':>11} {'capacity':>11} "
              f"{'allocator':<10} {'height':>11} {'h/lb':>8} {'fits':>4} "
              f"{'time s':>7} {'RSS MiB':>7} {'spilled':>7} {'min cap':>11}")
        for path in paths:
            buffers, capacity = read_csv(path)
            bound = lower_bound(buffers)
            name = os.path.basename(path)[:-4]
            unlimited = sum(buffer[2] for buffer in buffers)
            with_room = name.startswith("dense-")
            capacity = unlimited if with_room else capacity or bound
            # At the capacity when it fits there; else the lowest height
            # found at 1%, 2%, 4%, ... more room (the search runs at each),
            # with the time of the attempt at the capacity.
            height, seconds, spills, rss = run_walrus_measured(
                args.tools, path, capacity)
            fits = height is not None
            slack = 1
            while height is None:
                room = min(capacity + capacity * slack // 100, unlimited)
                height, _, _ = run_walrus(args.tools, path, room)
                slack *= 2
            smallest = "-"
            if with_room:
                fits = height <= bound
                smallest = str(height if fits else find_min_capacity(
                    args.tools, path, bound - 1, height))
            rows = [("walrus", height, fits, seconds, rss, str(spills),
                     smallest)]
            # The greedy baselines are 1-D: they run when every buffer
            # spans all partitions.
            one_dimensional = all(b[3] == PARTITIONS for b in buffers)
            for label, h, secs, base_rss in (run_baselines(args.tools, path)
                                             if one_dimensional else []):
                rows.append((label, h, h <= (bound if with_room else capacity),
                             secs, base_rss, "-", "-"))
            family = re.sub(r"-s\d+$", "", name)
            for label, h, fits, seconds, rss, spilled, smallest in rows:
                shown = "-" if with_room else capacity
                print(f"{name:<20} {len(buffers):>7} {bound:>11} {shown:>11} "
                      f"{label:<10} {h:>11} {h / bound:>8.5f} "
                      f"{'yes' if fits else 'no':>4} {seconds:>7.3f} "
                      f"{rss:>7.0f} {spilled:>7} {smallest:>11}")
                summary.setdefault(family, {}).setdefault(label, []).append(
                    (fits, h / bound, seconds))
            if with_room and len(rows) > 1:
                greedy = min(row[1] for row in rows[1:])
                closed = (greedy - height) / (greedy - bound) \
                    if greedy > bound else float(height <= bound)
                print(f"{name:<20} walrus closes {closed:.2f} of the best "
                      f"greedy baseline's gap to the lower bound")
            sys.stdout.flush()
        print_summary(summary)


if __name__ == "__main__":
    main()
