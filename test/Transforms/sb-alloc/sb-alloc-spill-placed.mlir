// RUN: walrus-opt %s -sb-alloc="sbuf-bytes=1024 explain report" -sb-alloc-verify 2>&1 | FileCheck %s
// RUN: walrus-opt %s -sb-alloc=sbuf-bytes=1024 -o %t.mlir && walrus-run %s %t.mlir | FileCheck %s --check-prefix=SAME

// 'p' and 'q' (1 KiB each) overlap while 'q' is written and 'p' read; only
// one fits. Round 1 spills 'p' and places 'q'; but 'p's reload still meets
// 'q', so round 2 must move the already-placed 'q' to DRAM as well (before
// the fix this was reported as operands that do not fit).

// CHECK: remark: sb-alloc: spilling 'p' (128 x 1024 B) to DRAM in round 1
// CHECK: remark: sb-alloc: spilling 'q' (128 x 1024 B) to DRAM in round 2
// CHECK: remark: sb-alloc: @main: {{.*}} 2 spill(s), peak 1024 B/partition
// CHECK-DAG: bir.memloc "p_spill0" internal address 0 base_partition 0
// CHECK-DAG: bir.memloc "p_spill1" internal address 0 base_partition 0
// CHECK-DAG: bir.memloc "q_spill0" internal address 0 base_partition 0
// CHECK-DAG: bir.memloc "q_spill1" internal address 0 base_partition 0
// CHECK:      bir.memset %p_spill0
// CHECK-NEXT: bir.dma %p_home[{{.*}}], %p_spill0[
// CHECK-NEXT: bir.dma %q_spill0[{{.*}}], %in
// CHECK-NEXT: bir.dma %q_home[{{.*}}], %q_spill0[
// CHECK-NEXT: bir.dma %p_spill1[{{.*}}], %p_home[
// CHECK-NEXT: bir.dma %out[{{.*}}], %p_spill1[
// CHECK-NEXT: bir.dma %q_spill1[{{.*}}], %q_home[
// CHECK-NEXT: bir.dma %out2[{{.*}}], %q_spill1[

// SAME: identical

bir.func @main {
  %in = bir.memloc "in" input : !bir.dram<128x256xf32>
  %out = bir.memloc "out" output : !bir.dram<128x256xf32>
  %out2 = bir.memloc "out2" output : !bir.dram<128x256xf32>
  %p = bir.memloc "p" internal : !bir.sbuf<128x256xf32>
  %q = bir.memloc "q" internal : !bir.sbuf<128x256xf32>
  bir.memset %p[#bir.ap<0, [[256, 128], [1, 256]]>], 2.0 : !bir.sbuf<128x256xf32>
  bir.dma %q[#bir.ap<0, [[256, 128], [1, 256]]>], %in[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.sbuf<128x256xf32>, !bir.dram<128x256xf32>
  bir.dma %out[#bir.ap<0, [[256, 128], [1, 256]]>], %p[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.dram<128x256xf32>, !bir.sbuf<128x256xf32>
  bir.dma %out2[#bir.ap<0, [[256, 128], [1, 256]]>], %q[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.dram<128x256xf32>, !bir.sbuf<128x256xf32>
}
