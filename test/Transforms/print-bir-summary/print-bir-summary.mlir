// RUN: walrus-opt %s -print-bir-summary -o /dev/null | FileCheck %s

// The summary covers every module that holds bir.funcs, symbolic or split.

// CHECK-LABEL: module @nc_symbolic: symbolic over 2 core(s), target trn1 (128 x 196608 B SBUF)
// CHECK-NEXT:   func @main: 4 memlocs, 5 instructions (1 loops, 2 masked)
// CHECK-NEXT:     sbuf: 2 tensor(s), 2048 B/partition declared (1.0% of 196608)
// CHECK-NEXT:     psum: 1 tensor(s), 2048 B/partition declared (12.5% of 16384)
// CHECK-NEXT:     dram: 1 tensor(s), 262144 B
// CHECK-NEXT:     instructions: core_barrier=1 dma=2 memset=2
// CHECK-LABEL:   func @helper: 0 memlocs, 0 instructions (0 loops, 0 masked)
// CHECK-NEXT:     instructions: none
module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn1">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xbf16>
    %a = bir.memloc "a" internal : !bir.sbuf<128x512xbf16>
    %b = bir.memloc "b" internal : !bir.sbuf<128x256xf32>
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    bir.memset %b[#bir.ap<0, [[256, 128], [1, 256]]>], 0.0 {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x256xf32>
    bir.loop 0 to 2 step 1 {
      bir.dma %a[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.sap<(d0)[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>]
        : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
      bir.memset %acc[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 {mask = affine_set<()[s0] : (s0 - 1 == 0)>} : !bir.psum<128x512xf32>
    }
    bir.dma %x[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.dram<256x512xbf16>, !bir.sbuf<128x512xbf16>
    bir.core_barrier "done"
  }
  bir.func @helper {
  }
}

// CHECK-LABEL: module @nc00: core 0 of 2, target trn2 (128 x 229376 B SBUF)
// CHECK-NEXT:   func @main: 1 memlocs, 1 instructions (0 loops, 0 masked)
// CHECK-LABEL: module @nc01: core 1 of 2, target trn2 (128 x 229376 B SBUF)
module @split {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      %a = bir.memloc "a" internal : !bir.sbuf<128x512xbf16>
      bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.sbuf<128x512xbf16>
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
    }
  }
}
