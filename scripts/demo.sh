#!/usr/bin/env bash
# The main job on a bundled example: parse and verify it, then print a
# summary of the program. Each pass of the pipeline joins this command as it
# lands. EXAMPLE=path overrides the example.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WALRUS_BUILD_DIR:-build}
example=${EXAMPLE:-examples/tiled-matmul.mlir}

echo "== $example"
"$build/bin/walrus-opt" "$example" -print-bir-summary -o /dev/null
