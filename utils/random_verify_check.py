#!/usr/bin/env python3
"""Checks -sb-alloc-verify against a brute-force list of conflicts.

Each random MiniMalloc problem is imported with walrus-translate, then given
places by this script, not by -sb-alloc: a first fit (valid), the same with
one or two tensors moved (a few conflicts), or random places (many). The
conflicts are every two buffers whose lifetimes [lower, upper), partitions
and bytes all meet, found by trying every pair. -sb-alloc-verify must fail
exactly when there is one, and name exactly those pairs.

    python3 utils/random_verify_check.py --count 300 --tools build/bin
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from random_minimalloc_check import (BANDS, PARTITIONS,  # noqa: E402
                                     import_problem, random_rows)

MEMLOC = re.compile(r'(bir\.memloc "(\d+)" internal) :')
PAIR = re.compile(r"'(\d+)' and '(\d+)' are live at the same time")


def meets(a, b):
    """Whether two placed rows share a byte of a partition while both live."""
    (_, lo1, up1, s1, p1, base1, at1), (_, lo2, up2, s2, p2, base2, at2) = a, b
    return (lo1 < up2 and lo2 < up1 and base1 < base2 + p2 and
            base2 < base1 + p1 and at1 < at2 + s2 and at2 < at1 + s1)


def first_fit(rows, capacity):
    """Places rows in turn at the lowest byte free over their partitions
    and lifetime (base partition 0), or on top when none is."""
    placed = []
    for row in rows:
        _, lo, up, size, partitions = row
        at = 0
        for other in sorted(placed, key=lambda r: r[6]):
            if meets(row + (0, at), other):
                at = other[6] + other[3]
        placed.append(row + (0, min(at, capacity - size)))
    return placed


def place(rng, rows, capacity, mode):
    """Places `rows` by first fit, then moves some (or all, at random) to
    other bytes within its height (so that they meet others)."""
    placed = first_fit(rows, capacity)
    height = max(row[6] + row[3] for row in placed)
    if mode == "random":
        return [row[:5] + (rng.randint(0, PARTITIONS - row[4]),
                           rng.randint(0, height - row[3]))
                for row in placed]
    if mode == "moved":
        for _ in range(rng.randint(1, 2)):
            k = rng.randrange(len(placed))
            row = placed[k]
            placed[k] = row[:5] + (rng.choice([0, 32, 64, 96, row[5]]),
                                   rng.randint(0, height - row[3]))
    return [row if row[5] + row[4] <= PARTITIONS else row[:5] + (0, row[6])
            for row in placed]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tools", required=True)
    args = parser.parse_args()
    valid = invalid = wrong = 0
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "problem.csv")
        for seed in range(args.seed, args.seed + args.count):
            rng = random.Random(seed)
            rows = random_rows(rng, 2, BANDS + [128, 1])
            capacity = 4096
            imported = import_problem(args.tools, path, rows,
                                      capacity).decode()
            placed = place(rng, rows, capacity,
                           rng.choice(["valid", "moved", "random"]))
            where = {str(row[0]): row for row in placed}
            program = MEMLOC.sub(
                lambda m: f"{m.group(1)} address {where[m.group(2)][6]} "
                f"base_partition {where[m.group(2)][5]} :", imported)
            expected = {frozenset((str(a[0]), str(b[0])))
                        for i, a in enumerate(placed) for b in placed[i + 1:]
                        if meets(a, b)}
            run = subprocess.run(
                [os.path.join(args.tools, "walrus-opt"), "-sb-alloc-verify",
                 "-o", os.devnull], input=program, capture_output=True,
                text=True)
            reported = {frozenset(m) for m in PAIR.findall(run.stderr)}
            if (run.returncode != 0) != bool(expected) or \
                    reported != expected:
                wrong += 1
                print(f"seed {seed}: expected {sorted(map(sorted, expected))}"
                      f", reported {sorted(map(sorted, reported))}, exit "
                      f"{run.returncode}\n{run.stderr[:300]}")
            elif expected:
                invalid += 1
            else:
                valid += 1
    print(f"{args.count} placements checked: {valid} valid, {invalid} with "
          f"conflicts, {wrong} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
