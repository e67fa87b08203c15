#!/usr/bin/env bash
# Configures (once) and builds Walrus incrementally in ./build.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WALRUS_BUILD_DIR:-build}

# Explicit flags are applied to an existing build directory too, so that a
# cached option (e.g. WALRUS_ENABLE_PYTHON) cannot outlive a script change.
if [ ! -f "$build/build.ninja" ] || [ -n "${WALRUS_CMAKE_FLAGS:-}" ]; then
  cmake -G Ninja -S . -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    ${WALRUS_CMAKE_FLAGS:-}
fi
# Two cores: two jobs keep memory in check.
ninja -C "$build" -j "${WALRUS_JOBS:-2}" "$@"
