#!/usr/bin/env bash
# Runs every test and ends with the line `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${WALRUS_BUILD_DIR:-build}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
/usr/lib/llvm-22/bin/lit -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

# lit's summary lines: "  Passed: N (..%)", "  Expectedly Failed: N (..%)", ...
count() {
  awk -F: -v key="$1" '{ sub(/^ +/, "", $1) }
    $1 == key { split($2, n, " "); total += n[1] } END { print total + 0 }' "$log"
}
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Unexpectedly Passed") + $(count "Timed Out") ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1  # lit failed without running a test (bad config, crash)
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
