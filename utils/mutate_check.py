#!/usr/bin/env python3
"""Rewrites numbers in valid programs to extremes and checks the tools.

For each mutation of each seed file (the examples and the test inputs by
default): one to three integer literals are replaced by hostile values
(0, -1, 2^31, 2^32, 2^62, 2^63 - 1, -2^63, ...); walrus-opt then parses,
verifies and runs the whole pipeline on it, and walrus-run runs it. A tool
may accept the program or reject it with an error; a signal (crash, abort,
sanitizer report), a timeout, or an exit status other than 0 and 1 is a
finding: the input is saved in --failures with the reason.

    python3 utils/mutate_check.py --seconds 600      # about 10 minutes
    python3 utils/mutate_check.py --count 200 --seed 7
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
EXTREMES = [0, -1, 1, 2, 127, 128, 129, 255, 256, 2**31 - 1, 2**31, 2**32, 2**32 + 1,
            2**48, 2**62, 2**63 - 1, -2**31, -2**62, -2**63]
NUMBER = re.compile(r"(?<![\w.#%@])-?\d+(?![\w.])")


def seeds(paths):
    """Seed files: .mlir inputs that hold bir and parse as they are."""
    files = []
    for pattern in paths:
        files += glob.glob(os.path.join(ROOT, pattern), recursive=True)
    return sorted(f for f in files if "bir." in open(f, errors="ignore").read())


def mutate(text, generator):
    """`text` with one to three integer literals outside comments replaced."""
    lines = text.split("\n")
    candidates = [(i, m) for i, line in enumerate(lines) if not line.lstrip().startswith("//")
                  for m in NUMBER.finditer(line)]
    if not candidates:
        return None
    for index, match in generator.sample(candidates, min(len(candidates),
                                                         generator.randint(1, 3))):
        line = lines[index]
        # Later matches on the same line keep their offsets when edited
        # right to left; sample order is arbitrary, so re-find by position.
        value = str(generator.choice(EXTREMES))
        if line[match.start():match.end()] == match.group(0):
            lines[index] = line[:match.start()] + value + line[match.end():]
    return "\n".join(lines)


def check(command, timeout):
    """None when the tool accepted or rejected the input cleanly, else why."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timeout after {timeout} s"
    if result.returncode < 0:
        return f"signal {-result.returncode}"
    if result.returncode not in (0, 1):
        return f"exit status {result.returncode}"
    if "Sanitizer" in result.stderr or "PLEASE submit a bug report" in result.stderr:
        return "crash report:\n" + result.stderr[-3000:]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--inputs", default="examples/*.mlir,test/**/*.mlir")
    parser.add_argument("--count", type=int, default=0, help="mutations (0: until --seconds)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--failures", default="mutate-failures")
    args = parser.parse_args()

    files = seeds(args.inputs.split(","))
    if not files:
        sys.exit("mutate_check: no seed files")
    generator = random.Random(args.seed)
    opt, run = os.path.join(args.bin, "walrus-opt"), os.path.join(args.bin, "walrus-run")
    begin, tried, findings = time.monotonic(), 0, 0
    work = os.path.join(args.failures, ".work")
    os.makedirs(work, exist_ok=True)
    while (args.count and tried < args.count) or \
            (not args.count and time.monotonic() - begin < args.seconds):
        source = generator.choice(files)
        text = mutate(open(source, errors="ignore").read(), generator)
        if text is None:
            continue
        tried += 1
        path = os.path.join(work, "input.mlir")
        with open(path, "w") as out:
            out.write(text)
        for command in ([opt, path, "-split-input-file", "-o", os.devnull],
                        [opt, path, "-split-input-file", "-walrus-pipeline", "-o", os.devnull],
                        [run, path, "--max-bytes=268435456", "--max-iterations=100000"]):
            reason = check(command, args.timeout)
            if reason:
                findings += 1
                saved = os.path.join(args.failures, f"finding-{findings}.mlir")
                with open(saved, "w") as out:
                    out.write(f"// {' '.join(os.path.basename(c) for c in command[:1])} "
                              f"{' '.join(command[2:])}\n// from {os.path.relpath(source, ROOT)}: "
                              f"{reason.splitlines()[0]}\n{text}")
                print(f"finding {findings}: {reason.splitlines()[0]} "
                      f"({os.path.relpath(source, ROOT)}) -> {saved}", flush=True)
                break
    print(f"mutate_check: {tried} mutation(s) of {len(files)} seed file(s), "
          f"{findings} finding(s), {time.monotonic() - begin:.0f} s")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
