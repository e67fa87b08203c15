#!/bin/bash
# Writes the allocations of the examples, 60 random programs, the lowered
# small zoo and examples/models, and the MiniMalloc instances into OUT, with
# the tools of BIN (default build/bin); diff two such folders to show that a
# change leaves every allocation as it was:
#
#   utils/allocation_outputs.sh /tmp/before /tmp/walrus-before/bin
#   utils/allocation_outputs.sh /tmp/after
#   diff -r /tmp/before /tmp/after   # .err files differ only in their paths
#
# PUBLIC=DIR adds every DIR/*.csv (the public sets bench/minimalloc.py --dir
# reads, at their capacity).
set -euo pipefail
out=$(realpath -m "$1")
bin=$(realpath "${2:-build/bin}")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$root"
passes="-expand-replication -lnc-split -vn-split -shrink-dn -sb-alloc"
for f in examples/*.mlir; do
  n=$(basename "$f" .mlir)
  "$bin/walrus-opt" "$f" -walrus-pipeline -o "$out/ex-$n.mlir" 2>"$out/ex-$n.err" || true
done
for s in $(seq 1 60); do
  python3 utils/random_bir.py "$s" > "$work/rnd-$s.mlir"
  "$bin/walrus-opt" "$work/rnd-$s.mlir" $passes -o "$out/rnd-$s.mlir" 2>"$out/rnd-$s.err" || true
done
for m in bert-layer llama-layer mobilenetv3-block vit resnet18; do
  python3 examples/zoo/gen_zoo.py "$m" --size small -o "$work/zoo-$m.mlir"
  for l in 1 2; do
    "$bin/walrus-opt" "$work/zoo-$m.mlir" "-walrus-from-linalg=lnc-size=$l" \
      -o "$out/zoo-$m-$l.mlir" 2>"$out/zoo-$m-$l.err" || true
  done
done
for f in examples/models/*.mlir; do
  n=$(basename "$f" .mlir)
  "$bin/walrus-opt" "$f" "-walrus-from-linalg=lnc-size=2" -o "$out/model-$n.mlir" 2>"$out/model-$n.err" || true
done
python3 utils/gen_minimalloc.py -o "$work/inst" --hard 50,100,200,500 \
  --trace 1000,10000 --band 50,100,200 --dense 6000 --seeds 2 \
  --dense-seeds 1,2 > /dev/null
for f in "$work"/inst/*.csv ${PUBLIC:+"$PUBLIC"/*.csv}; do
  n=$(basename "$f" .csv)
  # The capacity: the sidecar's, else the name's (A.1048576.csv), else the
  # lower bound (the dense traces: their total, which always fits).
  cap=$(python3 - "$f" <<'PY'
import os, sys
sys.path.insert(0, "utils")
import gen_minimalloc as g
path = sys.argv[1]
name = os.path.basename(path)[:-4]
if os.path.exists(path + ".capacity"):
    cap = int(open(path + ".capacity").read())
    if cap:
        print(cap)
        sys.exit()
buffers, named = g.read_csv(path)
if name.startswith("dense"):
    print(sum(b[2] for b in buffers))
else:
    print(named or g.lower_bound(buffers))
PY
)
  "$bin/walrus-translate" --import-minimalloc-csv "$f" |
    "$bin/walrus-opt" "-sb-alloc=sbuf-bytes=$cap" -o "$out/mm-$n.mlir" 2>"$out/mm-$n.err" || true
  "$bin/walrus-translate" --export-minimalloc-csv "$out/mm-$n.mlir" > "$out/mm-$n.csv" 2>>"$out/mm-$n.err" || true
done
echo "allocations in $out"
