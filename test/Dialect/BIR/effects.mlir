// RUN: walrus-opt %S/ops.mlir -test-walrus-print-effects -o /dev/null | FileCheck %s
// RUN: walrus-opt %S/ops.mlir -canonicalize -cse | walrus-opt -test-walrus-print-effects -o /dev/null | FileCheck %s

// Every instruction's memory effects come from the read/write marking
// of its tensor operands in ODS (BIR_ReadTensor, BIR_WrittenTensor,
// BIR_UpdatedTensor), and so do the accesses the layout passes see; a
// matmult without 'start' reads its accumulator too. A core barrier has
// no tensor operand and unknown effects: nothing moves or drops it.
// MLIR's own canonicalize and cse keep every instruction (second run).

// CHECK:      bir.dma: effects write 't' read 'in'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.dma: effects write 'w' read 't'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.dma_gather: effects write 'f' read 'table' read 'ids'; accesses write dst_ap read src_ap read indices_ap
// CHECK-NEXT: bir.memset: effects write 'acc'; accesses write dst_ap
// CHECK-NEXT: bir.matmult: effects read 'acc' write 'acc' read 'w' read 't'; accesses read-write dst_ap read stationary_ap read moving_ap
// CHECK-NEXT: bir.matmult: effects read 'acc' write 'acc' read 'w' read 't'; accesses write dst_ap read stationary_ap read moving_ap
// CHECK-NEXT: bir.tensor_copy: effects write 'f' read 'acc'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.transpose: effects write 'w' read 't'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.activation: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.activation: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.activation: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.activation: effects write 'f' read 'f' read 'f'; accesses write dst_ap read src_ap read bias_ap
// CHECK-NEXT: bir.activation: effects write 'f' read 'f' read 'f' read 'f'; accesses write dst_ap read src_ap read bias_ap read scales_ap
// CHECK-NEXT: bir.tensor_tensor: effects write 'f' read 'f' read 't'; accesses write dst_ap read lhs_ap read rhs_ap
// CHECK-NEXT: bir.tensor_scalar: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.tensor_scalar: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.tensor_scalar: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.tensor_tensor: effects write 'f' read 'f' read 'f'; accesses write dst_ap read lhs_ap read rhs_ap
// CHECK-NEXT: bir.tensor_tensor_scan: effects write 'f' read 'f' read 'f'; accesses write dst_ap read data0_ap read data1_ap
// CHECK-NEXT: bir.tensor_copy: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.memset: effects write 'f'; accesses write dst_ap
// CHECK-NEXT: bir.tensor_scalar: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.memset: effects write 'f'; accesses write dst_ap
// CHECK-NEXT: bir.tensor_tensor: effects write 'f' read 'f' read 'f'; accesses write dst_ap read lhs_ap read rhs_ap
// CHECK-NEXT: bir.tensor_reduce: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.collective: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.collective: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.collective: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.core_barrier: effects unknown; accesses
// CHECK-NEXT: bir.sb2sb: effects write 'f' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.tensor_tensor: effects write 'p' read 'f' read 'f'; accesses write dst_ap read lhs_ap read rhs_ap
// CHECK-NEXT: bir.tensor_copy_predicated: effects read 'f' write 'f' read 'f' read 'p'; accesses read-write dst_ap read src_ap read predicate_ap
// CHECK-NEXT: bir.dma: effects write 'out' read 'f'; accesses write dst_ap read src_ap
// CHECK-NEXT: bir.dma: effects write 't' read 'in'; accesses write dst_ap read src_ap
// CHECK-NOT:  bir.
