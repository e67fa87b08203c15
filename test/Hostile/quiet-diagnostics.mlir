// RUN: not walrus-opt %s -walrus-pipeline 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: not walrus-opt %s -vn-split=ratio=0.5 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not walrus-opt %s -vn-split=ratio=0.5 --mlir-print-op-on-diagnostic=true 2>&1 | FileCheck %s --check-prefix=DUMP

// Diagnostics that point at the cause: -walrus-pipeline checks the
// symbolic kernel before splitting it, so a masked barrier is named at the
// barrier (not as a count mismatch at the function after the split); and
// walrus-opt does not dump the operation after a pass's error unless asked.

// BARRIER: quiet-diagnostics.mlir:20:5: error: cross-core instruction is masked off on core 1; every core must take part in it
// BARRIER-NOT: core barrier(s)
// OPTION: error: vn-split: ratio must be at least 1
// OPTION-NOT: see current operation
// DUMP: see current operation

module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
    bir.core_barrier "b" {mask = affine_set<()[s0] : (s0 == 0)>}
  }
}
