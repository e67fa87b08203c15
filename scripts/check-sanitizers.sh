#!/usr/bin/env bash
# The whole lit suite on an ASan + UBSan build in ./build-asan; ends with
# `N passed, N failed` like `make check`.
set -euo pipefail
cd "$(dirname "$0")/.."
export WALRUS_BUILD_DIR=build-asan
export WALRUS_CMAKE_FLAGS="-DWALRUS_ENABLE_SANITIZERS=ON -DWALRUS_ENABLE_PYTHON=OFF"
# Poisoning: LLVM's allocator headers, inlined into our instrumented code,
# poison arena memory that the uninstrumented libMLIR.so then writes.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allow_user_poisoning=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
scripts/build.sh
scripts/check.sh
