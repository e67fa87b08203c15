// The whole job as the README states it, on every bundled kernel: the five
// passes in order, the allocation checked, the outputs unchanged.
//
// RUN: walrus-opt -expand-replication -lnc-split -vn-split -shrink-dn -sb-alloc %examples/tiled-matmul.mlir -o %t.matmul.mlir
// RUN: walrus-opt %t.matmul.mlir -sb-alloc-verify -o /dev/null
// RUN: walrus-run %examples/tiled-matmul.mlir %t.matmul.mlir | FileCheck %s
// RUN: walrus-opt -expand-replication -lnc-split -vn-split -shrink-dn -sb-alloc %examples/rmsnorm.mlir -o %t.rmsnorm.mlir
// RUN: walrus-opt %t.rmsnorm.mlir -sb-alloc-verify -o /dev/null
// RUN: walrus-run %examples/rmsnorm.mlir %t.rmsnorm.mlir | FileCheck %s
// RUN: walrus-opt -expand-replication -lnc-split -vn-split -shrink-dn -sb-alloc %examples/softmax.mlir -o %t.softmax.mlir
// RUN: walrus-opt %t.softmax.mlir -sb-alloc-verify -o /dev/null
// RUN: walrus-run %examples/softmax.mlir %t.softmax.mlir | FileCheck %s
// RUN: walrus-opt -expand-replication -lnc-split -vn-split -shrink-dn -sb-alloc %examples/flash-attention.mlir -o %t.flash.mlir
// RUN: walrus-opt %t.flash.mlir -sb-alloc-verify -o /dev/null
// RUN: walrus-run %examples/flash-attention.mlir %t.flash.mlir | FileCheck %s
// RUN: walrus-opt -expand-replication -lnc-split -vn-split -shrink-dn -sb-alloc %examples/conv1d.mlir -o %t.conv1d.mlir
// RUN: walrus-opt %t.conv1d.mlir -sb-alloc-verify -o /dev/null
// RUN: walrus-run %examples/conv1d.mlir %t.conv1d.mlir | FileCheck %s

// CHECK: identical: 1 output(s)
