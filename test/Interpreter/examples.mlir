// Every bundled example computes the same bytes before and after the whole
// pipeline (-walrus-pipeline), on seeded inputs.
//
// RUN: walrus-run %examples/tiled-matmul.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/rmsnorm.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/softmax.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/flash-attention.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/conv1d.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/conv1d.mlir --seed=7 --after=walrus-pipeline | FileCheck %s

// CHECK: identical: {{[1-9][0-9]*}} output(s)

// Forced spills keep the bytes too: rmsnorm needs 8196 bytes per partition
// live at once; in 6200 the allocator spills (and -sb-alloc-verify agrees).
// RUN: walrus-run %examples/rmsnorm.mlir --after='expand-replication,lnc-split,vn-split,shrink-dn,sb-alloc{sbuf-bytes=6200 report},sb-alloc-verify' 2>&1 | FileCheck %s --check-prefix=SPILL
// SPILL: sb-alloc: @nc00::@main: {{.*}} 1 spill(s), peak 6148 B/partition
// SPILL: identical: 1 output(s), 614400 bytes
