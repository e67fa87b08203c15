#!/usr/bin/env python3
"""MiniMalloc CSV import speed, from 100k to 1M rows.

For each size, a seeded trace (ids, lifetimes of 1 to 50 steps over a
horizon of twice the rows, sizes 1 B to 4 KiB) is written to a temporary
file and imported two ways:
  - in process: walrus.Context().import_minimalloc_csv (the C++ importer,
    what an embedder calls: parse the CSV, build the program);
  - walrus-translate --import-minimalloc-csv FILE -o /dev/null: the same,
    then MLIR's verifier and the textual printer, as a shell user runs it.
Prints seconds and microseconds per row for both; the in-process time is
the median of --repeat imports (each in a fresh context).
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build")


def write_trace(path, rows, seed):
    generator = random.Random(seed)
    with open(path, "w") as out:
        out.write("id,lower,upper,size\n")
        for index in range(rows):
            lower = generator.randrange(2 * rows)
            out.write(f"b{index},{lower},{lower + generator.randrange(1, 51)},"
                      f"{generator.randrange(1, 4097)}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default="100000,1000000")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(BUILD, "python"))
    import walrus

    print(f"{'rows':>9} {'in process s':>13} {'us/row':>7} {'walrus-translate s':>19} {'us/row':>7}")
    with tempfile.TemporaryDirectory() as scratch:
        for rows in map(int, args.rows.split(",")):
            path = os.path.join(scratch, f"trace-{rows}.csv")
            write_trace(path, rows, args.seed)
            with open(path) as source:
                text = source.read()
            times = []
            for _ in range(args.repeat):
                begin = time.perf_counter()
                module = walrus.Context().import_minimalloc_csv(text, path)
                times.append(time.perf_counter() - begin)
                del module
            in_process = statistics.median(times)
            begin = time.perf_counter()
            subprocess.run([os.path.join(BUILD, "bin", "walrus-translate"),
                            "--import-minimalloc-csv", path, "-o", os.devnull], check=True)
            translate = time.perf_counter() - begin
            print(f"{rows:>9} {in_process:>13.2f} {in_process / rows * 1e6:>7.2f}"
                  f" {translate:>19.2f} {translate / rows * 1e6:>7.2f}", flush=True)


if __name__ == "__main__":
    main()
