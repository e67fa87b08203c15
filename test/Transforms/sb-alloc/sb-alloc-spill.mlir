// RUN: walrus-opt %s -sb-alloc="sbuf-bytes=2048 explain" -sb-alloc-verify 2>&1 | FileCheck %s
// RUN: walrus-opt %s -sb-alloc=sbuf-bytes=2048 -o %t.mlir && walrus-run %s %t.mlir | FileCheck %s --check-prefix=SAME

// Three 1 KiB tiles live at once in 2 KiB per partition: the cheapest
// (the long-lived 'keep', read twice outside any loop, against the others
// read in a loop) goes to a DRAM home. Each instruction that used it gets a
// short tensor of its own, reloaded before and stored after it.

// CHECK: remark: sb-alloc: spilling 'keep' (128 x 1024 B) to DRAM in round 1
// A spill is never silent: a warning at the function says how much.
// CHECK: warning: sb-alloc: @main: 1 SBUF tensor(s) of 131072 B in all did not fit and go through DRAM (spilled); -sb-alloc=explain names each and the round it spilled in
// CHECK-LABEL: bir.func @main
// CHECK:       %keep_home = bir.memloc "keep_home" internal {bir.spill_home} : !bir.dram<128x256xf32>
// CHECK-DAG:   %keep_spill0 = bir.memloc "keep_spill0" internal address 0 base_partition 0 : !bir.sbuf<128x256xf32>
// CHECK-DAG:   %keep_spill1 = bir.memloc "keep_spill1" internal address 0 base_partition 0 : !bir.sbuf<128x256xf32>
// CHECK:       %a = bir.memloc "a" internal address 0 base_partition 0
// CHECK-NEXT:  %b = bir.memloc "b" internal address 1024 base_partition 0
// The first use only writes all of 'keep': no reload, a store after.
// CHECK:       bir.memset %keep_spill0[#bir.ap<0, {{\[\[}}256, 128], [1, 256]]>], 3.000000e+00
// CHECK-NEXT:  bir.dma %keep_home[#bir.ap<0, {{\[\[}}256, 128], [1, 256]]>], %keep_spill0[#bir.ap<0, {{\[\[}}256, 128], [1, 256]]>]
// CHECK:       bir.loop
// The last use reads it: a reload before, nothing stored after.
// CHECK:       bir.dma %keep_spill1[#bir.ap<0, {{\[\[}}256, 128], [1, 256]]>], %keep_home[#bir.ap<0, {{\[\[}}256, 128], [1, 256]]>]
// CHECK-NEXT:  bir.dma %y[{{.*}}], %keep_spill1[
// CHECK-NOT:   bir.dma %keep_home

// SAME: identical: 1 output(s), 262144 bytes

bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<128x256xf32>
  %y = bir.memloc "y" output : !bir.dram<256x256xf32>
  %keep = bir.memloc "keep" internal : !bir.sbuf<128x256xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<128x256xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x256xf32>
  bir.memset %keep[#bir.ap<0, [[256, 128], [1, 256]]>], 3.0 : !bir.sbuf<128x256xf32>
  bir.dma %a[#bir.ap<0, [[256, 128], [1, 256]]>], %x[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.sbuf<128x256xf32>, !bir.dram<128x256xf32>
  bir.loop 0 to 8 step 1 {
    bir.activation exp %b[#bir.ap<0, [[256, 128], [1, 256]]>], %a[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>
    bir.tensor_scalar multiply %a[#bir.ap<0, [[256, 128], [1, 256]]>], %b[#bir.ap<0, [[256, 128], [1, 256]]>], 0.5 : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>
  }
  bir.dma %y[#bir.ap<0, [[256, 128], [1, 256]]>], %a[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.dram<256x256xf32>, !bir.sbuf<128x256xf32>
  bir.dma %y[#bir.ap<32768, [[256, 128], [1, 256]]>], %keep[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.dram<256x256xf32>, !bir.sbuf<128x256xf32>
}
