#!/usr/bin/env python3
"""Random MiniMalloc problems through -sb-alloc at (or just above) their
lower bound: every allocation must pass -sb-alloc-verify, whether the
search placed it or spills did. With --banded, buffers span 1 to 128
partitions (the `partitions` column), so the search over partition bands
runs. With --dense, every problem takes the dense path (its window search,
then its chains of orders); with --twins, each comes twice in time. With
--perfect, problems are perfect packings (utils/gen_minimalloc.py's hard
generator), so a spill means the search missed a placement that exists.
With --pinned, each problem is allocated once and then 10-30% of its
tensors come with the addresses that allocation gave them, as a compiler
that pins tensors writes them. Prints one summary line."""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_minimalloc as minimalloc  # noqa: E402


PARTITIONS = 128


def lower_bound(rows):
    """The most bytes x partitions live at once, over all partitions."""
    events = sorted([(lo, s * p) for _, lo, _, s, p in rows] +
                    [(up, -s * p) for _, _, up, s, p in rows],
                    key=lambda e: (e[0], e[1]))
    live = best = 0
    for _, delta in events:
        live += delta
        best = max(best, live)
    return -(-best // PARTITIONS)


def make_perfect(rng, seed, banded):
    """A small guillotine cut of capacity x horizon (utils/gen_minimalloc.py's
    hard generator; banded: its band generator, which also cuts the
    partitions into halves and quarters): a placement at the capacity
    exists by construction."""
    count = rng.randint(8, 40)
    capacity = rng.choice([16, 32, 64, 100])
    horizon = rng.choice([8, 16, 32, 100])
    if banded:
        buffers, capacity = minimalloc.generate_band(count, seed, capacity,
                                                     horizon)
        return [(index, *buffer)
                for index, buffer in enumerate(buffers)], capacity
    buffers, capacity = minimalloc.generate_hard(count, seed, capacity,
                                                 horizon)
    return [(index, lower, upper, size, PARTITIONS)
            for index, (lower, upper, size) in enumerate(buffers)], capacity


def make_twins(rng, rows):
    """`rows` twice, the second copy after the first and a gap of 0 to 30
    one-step tensors, with 0 to 3 tensors live throughout and sometimes
    one across the gap: the dense path's window search then meets two
    runs of fullest points, separate problems or not."""
    end = max(up for _, _, up, _, _ in rows)
    gap = rng.randint(0, 30)
    twins = list(rows)
    twins += [(len(twins) + k, end + k, end + k + 1, 1, PARTITIONS)
              for k in range(gap)]
    shift = end + gap
    twins += [(len(twins) + k, lo + shift, up + shift, s, p)
              for k, (_, lo, up, s, p) in enumerate(rows)]
    extra = [(0, 2 * end + gap)] * rng.randint(0, 3)
    if rng.random() < 0.3:
        extra.append((end - rng.randint(1, 5), shift + rng.randint(1, 5)))
    twins += [(len(twins) + k, lo, up, rng.randint(1, 10), PARTITIONS)
              for k, (lo, up) in enumerate(extra)]
    return twins


BANDS = [32, 32, 64, 64, 128, 20, 50, 96]


def random_rows(rng, least, partitions=None):
    """`least` to 40 buffers (id, lower, upper, size, partitions) over 42
    steps, of 1 to 40 bytes; partitions drawn from `partitions`, else all."""
    rows = []
    for index in range(rng.randint(least, 40)):
        lower = rng.randint(0, 30)
        drawn = rng.choice(partitions) if partitions else PARTITIONS
        rows.append((index, lower, lower + rng.randint(1, 12),
                     rng.randint(1, 40), drawn))
    return rows


def pin_tensors(source, allocated, count, rng):
    """`source` (BIR text) with `count` of its SBUF tensors, drawn with
    `rng` (in numeric order of their names where those are numbers), given
    the addresses `allocated` (an -sb-alloc output of it) placed them at."""
    addresses = {name: (address, base) for name, address, base in re.findall(
        r'bir\.memloc "([^"]+)" internal address (\d+) base_partition (\d+)',
        allocated)}
    names = sorted(addresses, key=lambda name: (
        not name.isdigit(), int(name) if name.isdigit() else 0, name))
    pinned = set(rng.sample(names, min(count, len(names))))

    def pin(match):
        name = match.group(1)
        if name not in pinned:
            return match.group(0)
        address, base = addresses[name]
        return (f'bir.memloc "{name}" internal address {address} '
                f'base_partition {base} :')

    return re.sub(r'bir\.memloc "([^"]+)" internal :', pin, source)


def import_problem(tools, path, rows, capacity):
    """Writes `rows` to the CSV at `path` and imports it: the program."""
    with open(path, "w") as out:
        out.write("id,lower,upper,size,partitions\n")
        out.writelines(f"{i},{lo},{up},{s},{p}\n" for i, lo, up, s, p in rows)
    return subprocess.run(
        [os.path.join(tools, "walrus-translate"), "--import-minimalloc-csv",
         f"--minimalloc-capacity={capacity}", path],
        capture_output=True, check=True).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tools", required=True)
    parser.add_argument("--search-budget", type=int, default=None,
                        help="sb-alloc's search-budget (default: its own)")
    parser.add_argument("--banded", action="store_true",
                        help="buffers of 1 to 128 partitions")
    parser.add_argument("--dense", action="store_true",
                        help="place without the graph's edges")
    parser.add_argument("--twins", action="store_true",
                        help="each problem twice, one copy after the other")
    parser.add_argument("--perfect", action="store_true",
                        help="perfect packings: every one must be placed")
    parser.add_argument("--pinned", action="store_true",
                        help="some tensors pinned where a first allocation "
                        "put them")
    args = parser.parse_args()
    placed = spilled = failed = 0
    budget = ("" if args.search_budget is None
              else f" search-budget={args.search_budget}")
    if args.dense:
        budget += " dense-edges=0 dense-edges-per-node=0"
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "problem.csv")
        for seed in range(args.seed, args.seed + args.count):
            rng = random.Random(seed)
            rows = random_rows(rng, 3, BANDS if args.banded else None)
            if args.twins:
                rows = make_twins(rng, rows)
            capacity = lower_bound(rows) + rng.choice([0, 0, 1, 5])
            capacity = max(capacity, max(r[3] for r in rows))
            if args.perfect:
                rows, capacity = make_perfect(rng, seed, args.banded)
            imported = import_problem(args.tools, path, rows, capacity)
            options = f"-sb-alloc=sbuf-bytes={capacity} report{budget}"
            if args.pinned:
                first = subprocess.run(
                    [os.path.join(args.tools, "walrus-opt"), options],
                    input=imported, capture_output=True)
                if first.returncode == 0:
                    imported = pin_tensors(
                        imported.decode(), first.stdout.decode(),
                        max(1, len(rows) * rng.randint(1, 3) // 10),
                        rng).encode()
            run = subprocess.run(
                [os.path.join(args.tools, "walrus-opt"),
                 options, "-sb-alloc-verify",
                 "-o", os.devnull], input=imported, capture_output=True)
            if run.returncode != 0:
                failed += 1
                print(f"seed {seed}: {run.stderr.decode()[:500]}")
            elif b" 0 spill(s)" in run.stderr:
                placed += 1
            else:
                spilled += 1
                if args.perfect:
                    print(f"seed {seed}: spilled a perfect packing")
    kind = ("banded " if args.banded else "") + ("dense " if args.dense
                                                   else "") + \
        ("twin " if args.twins else "") + \
        ("perfect " if args.perfect else "") + \
        ("pinned " if args.pinned else "") + "MiniMalloc"
    print(f"{args.count} random {kind} problems: {placed} placed, "
          f"{spilled} spilled, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
