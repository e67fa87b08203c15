#!/usr/bin/env bash
# Runs every test (the lit suite, then the Python package's pytest suite)
# and ends with the line `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${WALRUS_BUILD_DIR:-build}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit's summary lines: "  Passed: N (..%)", "  Expectedly Failed: N (..%)", ...
count() {
  awk -F: -v key="$1" '{ gsub(/^ +| +$/, "", $1) }
    $1 == key { split($2, n, " "); total += n[1] } END { print total + 0 }' "$log"
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Unexpectedly Passed") + $(count "Timed Out") ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1  # lit failed without running a test (bad config, crash)
fi

# The Python package's tests, when the bindings were built.
if grep -q '^WALRUS_ENABLE_PYTHON:BOOL=ON' "$build/CMakeCache.txt" &&
   compgen -G "$build/python/walrus/_walrus*.so" >/dev/null; then
  PYTHONPATH="$PWD/$build/python" /usr/bin/python3 -m pytest -q python/tests 2>&1 | tee "$log"
  pystatus=${PIPESTATUS[0]}
  summary=$(tail -n 1 "$log")
  pypassed=$(grep -o '[0-9]* passed' <<<"$summary" | cut -d' ' -f1)
  pyfailed=$(( $(grep -o '[0-9]* failed' <<<"$summary" | cut -d' ' -f1 || echo 0) + \
               $(grep -o '[0-9]* error' <<<"$summary" | cut -d' ' -f1 || echo 0) ))
  passed=$(( passed + ${pypassed:-0} ))
  failed=$(( failed + pyfailed ))
  if [ "$pystatus" -ne 0 ] && [ "$pyfailed" -eq 0 ]; then
    failed=$(( failed + 1 ))  # pytest failed without a failing test
  fi
else
  echo "check: Python bindings not built (disabled, or pybind11 missing): pytest skipped"
fi
# The public corpus (../shared/corpus, when this machine has it): each file
# and core count that lowered and agreed with MLIR before (the expected
# outcomes in bench/corpus-expected.txt) must still (bench/corpus.py).
if [ -d ../shared/corpus ]; then
  /usr/bin/python3 -B bench/corpus.py --check --bin "$build/bin" 2>&1 | tee "$log"
  corpus=$(grep '^corpus check:' "$log" | tail -n 1)
  passed=$(( passed + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"${corpus:-: 0 passed}") ))
  failed=$(( failed + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"${corpus:-, 1 failed}") ))
else
  echo "check: ../shared/corpus not found: the corpus check skipped"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
