#!/usr/bin/env bash
# Fuzzes, with libFuzzer (and ASan, UBSan), every input format the tools
# read, for FUZZ_SECONDS each (default 60):
#   walrus-fuzz      BIR text: parse, verify, -psum-alloc as written,
#                    -print-bir-timeline with the options of a first
#                    `// timeline:` line, pipeline, interpreter; seeds are
#                    the examples, the test inputs and deep nestings;
#   walrus-fuzz-capi BIR text through the C API: parse, allocations and
#                    timelines, the pipeline (the bir seeds and dictionary);
#   walrus-fuzz-csv  MiniMalloc CSV: import, -sb-alloc, export;
#   walrus-fuzz-npy  .npy (and raw) tensor files as walrus-run reads them;
#   walrus-fuzz-linalg  host modules in linalg: -walrus-from-linalg at 1-4
#                    cores, then the interpreter;
#   walrus-fuzz-lsp  streams of LSP messages through walrus-lsp-server's
#                    filter, documents opened and edited by range as the
#                    server applies the edits, and the parses it does.
# Each has a dictionary of hostile tokens (tools/walrus-fuzz/*.dict). Runs
# are forked and go on past a crash; a crash with no Walrus frame on its
# stack (MLIR's own parser or verifier) is reported, not counted.
# FUZZ_TARGETS (default all six) picks some. Prints each target's
# executions and the crashes libFuzzer saved (<target>-crash-* in
# build-fuzz/); fails if any target found one in Walrus code.
set -euo pipefail
cd "$(dirname "$0")/.."
export WALRUS_BUILD_DIR=build-fuzz
export WALRUS_CMAKE_FLAGS="-DWALRUS_ENABLE_FUZZER=ON -DWALRUS_ENABLE_SANITIZERS=ON -DWALRUS_ENABLE_PYTHON=OFF"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
all="walrus-fuzz walrus-fuzz-capi walrus-fuzz-csv walrus-fuzz-npy walrus-fuzz-linalg walrus-fuzz-lsp"
scripts/build.sh ${FUZZ_TARGETS:-$all}
python3 scripts/fuzz_seeds.py build-fuzz/corpus
cd build-fuzz
status=0
for target in ${FUZZ_TARGETS:-$all}; do
  dict=../tools/walrus-fuzz/${target#walrus-fuzz-}.dict
  case $target in walrus-fuzz|walrus-fuzz-capi) dict=../tools/walrus-fuzz/bir.dict ;; esac
  corpus=corpus/$(basename "$dict" .dict)
  echo "== $target (${FUZZ_SECONDS:-60} s, $(ls "$corpus" | wc -l) seeds)"
  # Forked runs go on past a crash, so that one of MLIR's own (its parser
  # on a mutated linalg op) does not end the search for Walrus's.
  fuzzer=0
  ./bin/$target -max_total_time="${FUZZ_SECONDS:-60}" -max_len=16384 \
      -rss_limit_mb=4096 -timeout=30 -dict="$dict" -print_final_stats=1 \
      -fork=1 -ignore_crashes=1 -ignore_timeouts=0 -ignore_ooms=0 \
      -artifact_prefix="$target-" "$corpus" > "$target.log" 2>&1 || fuzzer=1
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$target.log" || true
  # A crash is Walrus's when a Walrus frame other than the harness's own
  # (walrus::fuzz::, which parses) is on its stack; the others are MLIR's
  # alone, reported apart. Artifacts of earlier runs that no
  # longer crash are said so.
  artifacts=0
  for artifact in "$target"-crash-* "$target"-timeout-* "$target"-oom-*; do
    [ -e "$artifact" ] || continue
    artifacts=$((artifacts + 1))
    if report=$(./bin/$target "$artifact" 2>&1); then
      echo "fixed (no longer crashes): $artifact"
    elif grep -v "in walrus::fuzz::" <<<"$report" | grep -q "in walrus::"; then
      echo "finding: build-fuzz/$artifact"
      status=1
    else
      echo "crash inside MLIR alone (not counted): $artifact:" \
        "$(grep -m1 -oE 'in mlir::[^ (]*' <<<"$report" || echo "no MLIR frame")"
    fi
  done
  if [ "$fuzzer" -ne 0 ] && [ "$artifacts" -eq 0 ]; then
    echo "$target failed without an artifact: see build-fuzz/$target.log"
    status=1
  fi
done
exit $status
