#!/usr/bin/env python3
"""MiniMalloc-format allocation instances, generated with fixed seeds.

    gen_minimalloc.py -o DIR [--hard 50,100] [--trace 1000] [--band 50]
                      [--dense 6000] [--seeds 2] [--dense-seeds 1]

Writes DIR/NAME.csv (MiniMalloc's columns id, lower, upper, size, plus
Walrus's `partitions` where a buffer spans fewer than 128) and
DIR/NAME.csv.capacity. The families (bench/minimalloc.py describes them):
hard-N (perfect guillotine packings), band-N (the same over partition
quarters), trace-N (kernel-like traces), dense-{lm,train,step}-N (dense
traces with real models' statistics). The tests and bench/minimalloc.py
share these generators.
"""
import argparse
import csv
import math
import os
import random
import re

PARTITIONS = 128


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


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    buffers = [(int(r["lower"]), int(r["upper"]), int(r["size"]),
                int(r.get("partitions") or PARTITIONS)) for r in rows]
    capacity = None
    if os.path.exists(path + ".capacity"):
        with open(path + ".capacity") as f:
            capacity = int(f.read())
    else:
        # MiniMalloc's benchmarks name the capacity: A.1048576.csv.
        named = re.search(r"\.(\d+)\.csv$", path)
        capacity = int(named.group(1)) if named else None
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True, help="folder to write")
    add_size_options(parser)
    args = parser.parse_args()
    generate_all(args.output, *parse_sizes(args))


def add_size_options(parser):
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


def parse_sizes(args):
    """generate_all's arguments after the folder."""
    def numbers(text):
        return [int(n) for n in text.split(",") if n]
    return (numbers(args.hard), numbers(args.trace), args.seeds,
            numbers(args.band), numbers(args.dense), numbers(args.dense_seeds))


if __name__ == "__main__":
    main()
