#!/usr/bin/env bash
# The allocator's and analyses' lit tests on a ThreadSanitizer build in
# ./build-tsan: the searches' time-reversed attempts, the dense sweeps and
# the per-function pass pipelines run side by side there. Ends with
# `N passed, N failed` like `make check`. LIT_FILTER (a regular expression
# over test paths) picks other tests; `LIT_FILTER=.` runs them all
# (slower: walrus-opt on a 60k-tensor dense trace took 8-10 s here, 1.7 s
# in the plain build).
set -euo pipefail
cd "$(dirname "$0")/.."
export WALRUS_BUILD_DIR=build-tsan
export WALRUS_CMAKE_FLAGS="-DWALRUS_ENABLE_TSAN=ON -DWALRUS_ENABLE_PYTHON=OFF"
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp}
export LIT_FILTER=${LIT_FILTER:-'sb-alloc|Analysis/'}
scripts/build.sh
scripts/check.sh
