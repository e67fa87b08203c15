"""Pass timing shared by the benchmarks: MLIR's own --mlir-timing."""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def seconds_in_report(stderr, pass_name):
    """The wall time of `pass_name` in an --mlir-timing report, or None.
    With threads the report has a user-time column before the wall time,
    and a pass scheduled on a module shows its per-function runs nested
    under it: the outermost line counts."""
    pattern = (r"^\s*(?:-?[0-9.]+\s+\(\s*-?[0-9.]+%\)\s+)?(-?[0-9.]+)\s+\(\s*-?[0-9.]+%\)"
               r"(\s+)" + re.escape(pass_name) + r"\s*$")
    matches = [(len(m.group(2)), float(m.group(1)))
               for m in re.finditer(pattern, stderr, re.MULTILINE)]
    return min(matches)[1] if matches else None


def pass_seconds(opt, input_path, pipeline, pass_name, repeats=3):
    """Best wall time of `pass_name` over `repeats` runs of `opt`."""
    best = None
    for _ in range(repeats):
        run = subprocess.run(
            [opt, input_path, pipeline, "--mlir-timing", "--verify-each=false",
             "-o", os.devnull],
            capture_output=True, text=True, check=True)
        seconds = seconds_in_report(run.stderr, pass_name)
        if seconds is None:
            sys.exit(f"no timing for {pass_name} in:\n{run.stderr}")
        best = seconds if best is None else min(best, seconds)
    return best


def to_bytecode(opt, text_path, bytecode_path):
    """Parses once, so that the timed runs read bytecode."""
    subprocess.run([opt, text_path, "--emit-bytecode", "-o", bytecode_path], check=True)


def print_time_per_pattern(opt, sizes, generate, flag, pass_name):
    """For each size: generate(size, file) -> access patterns written, then
    the best time of `flag` on its bytecode, as a table."""
    label = f"{flag.lstrip('-')} s"
    print(f"{'access patterns':>15} {label:>12} {'us/pattern':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            text = os.path.join(tmp, "in.mlir")
            bytecode = os.path.join(tmp, "in.mlirbc")
            with open(text, "w") as out:
                patterns = generate(size, out)
            to_bytecode(opt, text, bytecode)
            seconds = pass_seconds(opt, bytecode, flag, pass_name)
            print(f"{patterns:>15} {seconds:>12.3f} {seconds / patterns * 1e6:>11.3f}", flush=True)


def parse_opt_and_sizes(description, sizes="10000,100000,1000000"):
    """The --opt and --sizes options every pass-timing benchmark takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--opt", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--sizes", default=sizes)
    args = parser.parse_args()
    return args.opt, [int(size) for size in args.sizes.split(",")]
