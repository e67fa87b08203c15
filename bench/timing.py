"""Pass timing shared by the benchmarks: MLIR's own --mlir-timing."""
import os
import re
import subprocess
import sys


def pass_seconds(opt, input_path, pipeline, pass_name, repeats=3):
    """Best wall time of `pass_name` over `repeats` runs of `opt`."""
    best = None
    for _ in range(repeats):
        run = subprocess.run(
            [opt, input_path, pipeline, "--mlir-timing", "--verify-each=false",
             "-o", os.devnull],
            capture_output=True, text=True, check=True)
        match = re.search(r"^\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+" + re.escape(pass_name) + r"\s*$",
                          run.stderr, re.MULTILINE)
        if not match:
            sys.exit(f"no timing for {pass_name} in:\n{run.stderr}")
        seconds = float(match.group(1))
        best = seconds if best is None else min(best, seconds)
    return best


def to_bytecode(opt, text_path, bytecode_path):
    """Parses once, so that the timed runs read bytecode."""
    subprocess.run([opt, text_path, "--emit-bytecode", "-o", bytecode_path], check=True)
