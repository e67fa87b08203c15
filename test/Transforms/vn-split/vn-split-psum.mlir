// RUN: walrus-opt %s -vn-split | FileCheck %s
// RUN: walrus-run %s --after=vn-split | FileCheck %s --check-prefix=INTERP

// PSUM tensors split like SBUF ones (the reference's vn_splitter takes
// both): two matmults fill the two halves of a two-bank accumulator and
// each half is read on its own, so each becomes a one-bank tensor.

// CHECK:      %[[LOW:.*]] = bir.memloc "acc_VN_0" internal : !bir.psum<128x512xf32>
// CHECK-NEXT: %[[HIGH:.*]] = bir.memloc "acc_VN_1" internal : !bir.psum<128x512xf32>
// CHECK-NOT:  "acc"
// CHECK:      bir.matmult %[[LOW]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>]
// CHECK:      bir.tensor_copy %{{.*}}, %[[LOW]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>]
// CHECK:      bir.matmult %[[HIGH]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>]
// CHECK:      bir.tensor_copy %{{.*}}, %[[HIGH]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>]
// INTERP: identical: 1 output(s), 524288 bytes
bir.func @main {
  %w = bir.memloc "w" input : !bir.dram<128x128xf32>
  %x = bir.memloc "x" input : !bir.dram<128x1024xf32>
  %y = bir.memloc "y" output : !bir.dram<128x1024xf32>
  %w_sb = bir.memloc "w_sb" internal : !bir.sbuf<128x128xf32>
  %x_sb = bir.memloc "x_sb" internal : !bir.sbuf<128x1024xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<128x1024xf32>
  %out = bir.memloc "out" internal : !bir.sbuf<128x1024xf32>
  bir.dma %w_sb[#bir.ap<0, [[128, 128], [1, 128]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.sbuf<128x128xf32>, !bir.dram<128x128xf32>
  bir.dma %x_sb[#bir.ap<0, [[1024, 128], [1, 1024]]>], %x[#bir.ap<0, [[1024, 128], [1, 1024]]>] : !bir.sbuf<128x1024xf32>, !bir.dram<128x1024xf32>
  bir.matmult %acc[#bir.ap<0, [[1024, 128], [1, 512]]>], %w_sb[#bir.ap<0, [[128, 128], [1, 128]]>], %x_sb[#bir.ap<0, [[1024, 128], [1, 512]]>] start stop
    : !bir.psum<128x1024xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x1024xf32>
  bir.tensor_copy %out[#bir.ap<0, [[1024, 128], [1, 512]]>], %acc[#bir.ap<0, [[1024, 128], [1, 512]]>] : !bir.sbuf<128x1024xf32>, !bir.psum<128x1024xf32>
  bir.matmult %acc[#bir.ap<512, [[1024, 128], [1, 512]]>], %w_sb[#bir.ap<0, [[128, 128], [1, 128]]>], %x_sb[#bir.ap<512, [[1024, 128], [1, 512]]>] start stop
    : !bir.psum<128x1024xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x1024xf32>
  bir.tensor_copy %out[#bir.ap<512, [[1024, 128], [1, 512]]>], %acc[#bir.ap<512, [[1024, 128], [1, 512]]>] : !bir.sbuf<128x1024xf32>, !bir.psum<128x1024xf32>
  bir.dma %y[#bir.ap<0, [[1024, 128], [1, 1024]]>], %out[#bir.ap<0, [[1024, 128], [1, 1024]]>] : !bir.dram<128x1024xf32>, !bir.sbuf<128x1024xf32>
}
