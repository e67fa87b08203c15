// Every bundled example computes the same bytes before and after the
// pipeline (as far as it exists), on seeded inputs.
//
// RUN: walrus-run %examples/tiled-matmul.mlir --after=expand-replication,lnc-split,lnc-verify,vn-split | FileCheck %s
// RUN: walrus-run %examples/rmsnorm.mlir --after=expand-replication,lnc-split,lnc-verify,vn-split | FileCheck %s
// RUN: walrus-run %examples/softmax.mlir --after=expand-replication,lnc-split,lnc-verify,vn-split | FileCheck %s
// RUN: walrus-run %examples/flash-attention.mlir --after=expand-replication,lnc-split,lnc-verify,vn-split | FileCheck %s
// RUN: walrus-run %examples/conv1d.mlir --after=expand-replication,lnc-split,lnc-verify,vn-split | FileCheck %s
// RUN: walrus-run %examples/conv1d.mlir --seed=7 --after=expand-replication,lnc-split,lnc-verify,vn-split | FileCheck %s

// CHECK: identical: {{[1-9][0-9]*}} output(s)
