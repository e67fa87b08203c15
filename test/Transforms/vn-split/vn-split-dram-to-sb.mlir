// RUN: walrus-opt %s -split-input-file -vn-split="dram-to-sb-bytes=512 explain" -verify-diagnostics | FileCheck %s
// RUN: walrus-opt %s -split-input-file -vn-split="dram-to-sb-bytes=256 explain report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIGHT
// RUN: walrus-opt %s -split-input-file -vn-split=dram-to-sb-bytes=256 | FileCheck %s --check-prefix=TIGHT-IR
// RUN: walrus-opt %s -split-input-file -vn-split 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: split-file %s %t
// RUN: walrus-opt %t/whole.mlir -walrus-pipeline="dram-to-sb-bytes=512" | FileCheck %s --check-prefix=PIPELINE
// RUN: walrus-run %t/whole.mlir --after='vn-split{dram-to-sb-bytes=512},shrink-dn,sb-alloc' | FileCheck %s --check-prefix=INTERP-WHOLE
// RUN: walrus-run %t/pieces.mlir --after='vn-split{dram-to-sb-bytes=512},shrink-dn,sb-alloc' | FileCheck %s --check-prefix=INTERP-PIECES
// RUN: walrus-run %t/pieces.mlir --after='vn-split{dram-to-sb-bytes=256},shrink-dn,sb-alloc' | FileCheck %s --check-prefix=INTERP-PIECES
// RUN: walrus-run %t/stays.mlir --after='vn-split{dram-to-sb-bytes=512},shrink-dn,sb-alloc' | FileCheck %s --check-prefix=INTERP-STAYS

// The reference's DRAM-to-SB move (vn_splitter's "Moved <ml> from DRAM to
// SB"): an internal DRAM scratch tensor that DMAs alone move to and from
// SBUF lives in SBUF when it fits, and its DMAs copy within SBUF.

//--- whole.mlir
// One group: the whole tensor moves and keeps its name.
// CHECK-LABEL: bir.func @main
// CHECK:      %[[D:.*]] = bir.memloc "d" internal : !bir.sbuf<128x64xf32>
// CHECK:      bir.dma %[[D]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %{{.*}} : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
// CHECK:      bir.dma %{{.*}}, %[[D]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
// PIPELINE: bir.memloc "d" internal address {{[0-9]+}} base_partition 0 : !bir.sbuf<128x64xf32>
// OFF-LABEL: bir.func @main
// OFF:       bir.memloc "d" internal : !bir.dram<128x64xf32>
// INTERP-WHOLE: identical: 1 output(s), 32768 bytes
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<128x64xf32>
  // expected-remark @+1 {{vn-split: moved 'd' from DRAM to SB (128 partitions x 256 bytes)}}
  %d = bir.memloc "d" internal : !bir.dram<128x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 't': its accesses form one group}}
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 'u': its accesses form one group}}
  %u = bir.memloc "u" internal : !bir.sbuf<128x64xf32>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 3.0 : !bir.sbuf<128x64xf32>
  bir.dma %d[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %u[#bir.ap<0, [[64, 128], [1, 64]]>], %d[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 128], [1, 64]]>], %u[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
}

// -----
//--- pieces.mlir
// Two row halves used apart: two pieces, each moved while the budget
// lasts (512 B: both; 256 B: the first only).
// CHECK-LABEL: bir.func @main
// CHECK:      %[[P0:.*]] = bir.memloc "d_VN_0" internal : !bir.sbuf<128x64xf32>
// CHECK-NEXT: %[[P1:.*]] = bir.memloc "d_VN_1" internal : !bir.sbuf<128x64xf32>
// CHECK:      bir.dma %[[P0]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %{{.*}} : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
// CHECK:      bir.dma %[[P1]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %{{.*}} : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
// TIGHT: remark: vn-split: not moving piece 1 of 'd' to SB: 256 bytes/partition exceed what dram-to-sb-bytes leaves (0)
// TIGHT: remark: vn-split: moved 'd_VN_0' from DRAM to SB (128 partitions x 256 bytes)
// TIGHT: remark: vn-split: @main: split 1 tensor(s) into 2 piece(s), 1 dead node(s), 0 dead instruction(s), 0 fold(s), 1 moved to SB
// TIGHT-IR-LABEL: bir.func @main
// TIGHT-IR: bir.memloc "d_VN_0" internal : !bir.sbuf<128x64xf32>
// TIGHT-IR: bir.memloc "d_VN_1" internal : !bir.dram<128x64xf32>
// INTERP-PIECES: identical: 1 output(s), 65536 bytes
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<256x64xf32>
  // expected-remark @+4 {{vn-split: 'd' is splittable, shape=(256 partitions, 256 bytes)}}
  // expected-remark @+3 {{vn-split: split 'd' into 2 pieces: d_VN_0 (128 x 256 B), d_VN_1 (128 x 256 B)}}
  // expected-remark @+2 {{vn-split: moved 'd_VN_0' from DRAM to SB (128 partitions x 256 bytes)}}
  // expected-remark @+1 {{vn-split: moved 'd_VN_1' from DRAM to SB (128 partitions x 256 bytes)}}
  %d = bir.memloc "d" internal : !bir.dram<256x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 't': its accesses form one group}}
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
  bir.dma %d[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 2.0 : !bir.sbuf<128x64xf32>
  bir.dma %d[#bir.ap<8192, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %d[#bir.ap<8192, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<256x64xf32>
  bir.dma %y[#bir.ap<8192, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %d[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<256x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
}

// -----
//--- stays.mlir
// What stays in DRAM: a group taller than SBUF's partitions, and a tensor
// a DMA fills from PSUM (a DMA between PSUM and SBUF does not exist).
// CHECK-LABEL: bir.func @main
// CHECK: bir.memloc "tall" internal : !bir.dram<256x64xf32>
// CHECK: bir.memloc "from_psum" internal : !bir.dram<128x64xf32>
// INTERP-STAYS: identical: 2 output(s), 98304 bytes
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<256x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 'z': it is a program output}}
  %z = bir.memloc "z" output : !bir.dram<128x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 'tall': its accesses form one group}}
  %tall = bir.memloc "tall" internal : !bir.dram<256x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 'from_psum': its accesses form one group}}
  %from_psum = bir.memloc "from_psum" internal : !bir.dram<128x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 'acc': its accesses form one group}}
  %acc = bir.memloc "acc" internal : !bir.psum<128x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 't': its accesses form one group}}
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  // expected-remark @+1 {{vn-split: not splitting 'wide': its accesses form one group}}
  %wide = bir.memloc "wide" internal : !bir.sbuf<128x128xf32>
  bir.memset %wide[#bir.ap<0, [[128, 128], [1, 128]]>], 4.0 : !bir.sbuf<128x128xf32>
  bir.dma %tall[#bir.ap<0, [[64, 256], [1, 64]]>], %wide[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x128xf32>
  bir.dma %wide[#bir.ap<0, [[128, 128], [1, 128]]>], %tall[#bir.ap<0, [[64, 256], [1, 64]]>] : !bir.sbuf<128x128xf32>, !bir.dram<256x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 256], [1, 64]]>], %wide[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x128xf32>
  bir.memset %acc[#bir.ap<0, [[64, 128], [1, 64]]>], 5.0 : !bir.psum<128x64xf32>
  bir.dma %from_psum[#bir.ap<0, [[64, 128], [1, 64]]>], %acc[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.psum<128x64xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %from_psum[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<128x64xf32>
  bir.dma %z[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
}
