"""Runs a command, failing if it has not finished after SECONDS: a hang
(or a quadratic blow-up) fails the test instead of stalling the suite.
Usage: run_bounded.py SECONDS COMMAND..."""
import subprocess
import sys

seconds = float(sys.argv[1])
try:
    sys.exit(subprocess.run(sys.argv[2:], timeout=seconds).returncode)
except subprocess.TimeoutExpired:
    print(f"run_bounded: {sys.argv[2]} did not finish within {seconds:g} s",
          file=sys.stderr)
    sys.exit(1)
