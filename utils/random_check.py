#!/usr/bin/env python3
"""Runs N random BIR programs through a pass pipeline and the interpreter.

For each seed: generate a program (random_bir.py), verify it with
walrus-opt, then run it with walrus-run before and after the pipeline and
compare every DRAM output bit for bit. A program that fails to verify or
whose outputs differ is saved, with the reason, as a reproducer in
--failures. Prints one line per failure and a closing count; exits 1 if
any program failed.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import random_bir  # noqa: E402

DEFAULT_PIPELINE = "walrus-pipeline"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    build = os.path.join(HERE, "..", "build", "bin")
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--pipeline", default=DEFAULT_PIPELINE)
    parser.add_argument("--walrus-opt", default=os.path.join(build, "walrus-opt"))
    parser.add_argument("--walrus-run", default=os.path.join(build, "walrus-run"))
    parser.add_argument("--failures", default="random-failures")
    args = parser.parse_args()

    failures = 0
    for seed in range(args.seed, args.seed + args.count):
        program = random_bir.Generator(seed).program()
        path = os.path.join(args.failures, f"seed-{seed}.mlir")
        verify = subprocess.run([args.walrus_opt, "-", "-o", os.devnull], input=program,
                                capture_output=True, text=True)
        reason = None
        if verify.returncode != 0:
            reason = "invalid program: " + verify.stderr.strip()
        else:
            os.makedirs(args.failures, exist_ok=True)
            with open(path, "w") as out:
                out.write(program)
            run = subprocess.run([args.walrus_run, path, f"--after={args.pipeline}"],
                                 capture_output=True, text=True)
            if run.returncode == 0:
                os.remove(path)
            else:
                reason = (run.stdout + run.stderr).strip()
        if reason:
            failures += 1
            os.makedirs(args.failures, exist_ok=True)
            with open(path, "w") as out:
                out.write(program)
                out.write("\n// " + reason.replace("\n", "\n// ") + "\n")
            print(f"seed {seed}: {reason.splitlines()[0]} (saved {path})")
    if os.path.isdir(args.failures) and not os.listdir(args.failures):
        os.rmdir(args.failures)
    print(f"{args.count} random programs through '{args.pipeline}': "
          f"{args.count - failures} identical, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
