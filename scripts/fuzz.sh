#!/usr/bin/env bash
# Fuzzes parse + verify + pipeline + interpreter with libFuzzer (and ASan,
# UBSan) for FUZZ_SECONDS (default 60), starting from the examples and the
# test inputs. Crashes are saved by libFuzzer as crash-* in build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
export WALRUS_BUILD_DIR=build-fuzz
export WALRUS_CMAKE_FLAGS="-DWALRUS_ENABLE_FUZZER=ON -DWALRUS_ENABLE_SANITIZERS=ON -DWALRUS_ENABLE_PYTHON=OFF"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
scripts/build.sh walrus-fuzz
corpus=build-fuzz/corpus
mkdir -p "$corpus"
cp examples/*.mlir "$corpus"/
find test -name '*.mlir' -exec cp {} "$corpus"/ \;
cd build-fuzz
./bin/walrus-fuzz -max_total_time="${FUZZ_SECONDS:-60}" -max_len=16384 \
  -rss_limit_mb=4096 corpus 2>&1 | tail -n 25
