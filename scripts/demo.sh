#!/usr/bin/env bash
# The main job on a bundled example: the pipeline as far as it exists
# (expand-replication, lnc-split with its per-core report, the SPMD
# verifier, vn-split, shrink-dn and sb-alloc with their per-function
# reports, the allocation verifier), then a summary of every
# per-core program. EXAMPLE=path runs
# another kernel; PRINT_IR=1 prints the resulting IR too.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${WALRUS_BUILD_DIR:-build}
example=${EXAMPLE:-examples/rmsnorm.mlir}
output=/dev/null
[ "${PRINT_IR:-0}" = 1 ] && output=-

echo "== $example"
"$build/bin/walrus-opt" "$example" \
  -expand-replication -lnc-split=report -lnc-verify -vn-split=report \
  -shrink-dn=report -sb-alloc="report report-file=$build/demo-alloc.json" \
  -sb-alloc-verify \
  -print-bir-summary \
  -o "$output"

# The allocation as a picture (needs the Python package and matplotlib).
if [ -d "$build/python/walrus" ] && /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  PYTHONPATH="$build/python" /usr/bin/python3 -m walrus.picture \
    "$build/demo-alloc.json" -o "$build/demo-sbuf.png"
fi

# A whole layer as a compiler team holds it: a BERT encoder layer written
# in the forms torch-mlir emits (examples/zoo/gen_zoo.py), from linalg to
# allocated per-core programs with every pass's report (the f64-as-f32
# remarks left out), then checked against MLIR's own CPU execution.
zoo="$build/zoo-bert-layer.mlir"
/usr/bin/python3 examples/zoo/gen_zoo.py bert-layer -o "$zoo"
echo
echo "== $zoo (BERT encoder layer, torch-mlir forms, lnc-size=2)"
"$build/bin/walrus-opt" "$zoo" -walrus-from-linalg="lnc-size=2 report" \
  -print-bir-summary -o "$build/zoo-bert-layer.bir" 2>&1 |
  awk '/f64 computed in f32/ { skip = 2; next } skip > 0 { skip--; next } { print }'
# The default auto-cast gives the tensor engine bf16 operands: within 1%
# of the output's largest magnitude (docs/LinalgToBir.md, "Auto-cast").
/usr/bin/python3 utils/linalg_oracle.py "$zoo" --bin "$build/bin" --lnc-size 2 \
  --pipeline --scale-tol 1e-2 | tail -1
