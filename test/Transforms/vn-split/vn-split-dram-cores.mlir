// RUN: walrus-opt %s -vn-split=explain -verify-diagnostics | FileCheck %s

// Every core of a kernel sees one DRAM: a DRAM tensor of a multi-core
// kernel is never split, even where this core's accesses fall apart
// (another core's fall elsewhere).

// CHECK: bir.memloc "d" internal : !bir.dram<256x64xf32>
module attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
  bir.func @main {
    // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
    %y = bir.memloc "y" output : !bir.dram<256x64xf32>
    // expected-remark @+1 {{vn-split: not splitting 'd': DRAM tensors are shared by the kernel's cores}}
    %d = bir.memloc "d" internal : !bir.dram<256x64xf32>
    // expected-remark @+1 {{vn-split: not splitting 't': its accesses form one group}}
    %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
    bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
    bir.dma %d[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
    bir.dma %d[#bir.ap<8192, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
    bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %d[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<256x64xf32>
    bir.dma %y[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
    bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %d[#bir.ap<8192, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<256x64xf32>
    bir.dma %y[#bir.ap<8192, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
  }
}
