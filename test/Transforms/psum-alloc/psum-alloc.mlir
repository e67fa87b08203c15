// RUN: walrus-opt %s -split-input-file -psum-alloc -psum-alloc-verify | FileCheck %s
// RUN: walrus-opt %s -split-input-file -psum-alloc="report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// In -walrus-pipeline: the flash-attention example's scores, four
// 512-column accumulation tiles, take banks 0-3 whole (one tile per bank),
// and the output tile the next bank, on each core.
// RUN: walrus-opt %S/../../../examples/flash-attention.mlir -walrus-pipeline | FileCheck %s --check-prefix=FLASH
// A kernel inside a host module (the lowered MLP): its two accumulation
// tiles, live together, take banks 0 and 1.
// RUN: walrus-opt %S/../../../examples/models/mlp.mlir -walrus-from-linalg | FileCheck %s --check-prefix=HOST
// HOST: bir.memloc "mm_acc" internal address 0 base_partition 0 : !bir.psum<72x160xf32>
// HOST: bir.memloc "mm_acc_2" internal address 2048 base_partition 0 : !bir.psum<72x96xf32>
// FLASH: bir.memloc "scores_ps" internal address 0 base_partition 0 : !bir.psum<128x4x512xf32>
// FLASH: bir.memloc "o_ps" internal address 8192 base_partition 0 : !bir.psum<128x128xf32>
// FLASH: bir.memloc "scores_ps" internal address 0 base_partition 0 : !bir.psum<128x4x512xf32>
// FLASH: bir.memloc "o_ps" internal address 8192 base_partition 0 : !bir.psum<128x128xf32>

// Three accumulation groups one after the other: each lands in the bank
// after the last one used (2048 bytes per bank on trn2), so the copy-out
// of one overlaps the next one's matmults; the half-bank g2 too, though
// bank 0 is free again by then.
// CHECK-LABEL: bir.func @rotation
// CHECK: bir.memloc "g0" internal address 0 base_partition 0 : !bir.psum<128x512xf32>
// CHECK: bir.memloc "g1" internal address 2048 base_partition 0 : !bir.psum<128x512xf32>
// CHECK: bir.memloc "g2" internal address 4096 base_partition 0 : !bir.psum<128x256xf32>
// REPORT: remark: psum-alloc: @rotation: 3 PSUM tensor(s) in 3 of 8 usable bank(s) of 2048 bytes
module attributes {bir.target = #bir.target<"trn2">} {
  bir.func @rotation {
    %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
    %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
    %y = bir.memloc "y" internal : !bir.sbuf<128x512xf32>
    %g0 = bir.memloc "g0" internal : !bir.psum<128x512xf32>
    %g1 = bir.memloc "g1" internal : !bir.psum<128x512xf32>
    %g2 = bir.memloc "g2" internal : !bir.psum<128x256xf32>
    bir.memset %w[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xbf16>
    bir.memset %x[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 : !bir.sbuf<128x512xbf16>
    bir.matmult %g0[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                %x[#bir.ap<0, [[512, 128], [1, 512]]>] start stop
      : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %g0[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    bir.matmult %g1[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                %x[#bir.ap<0, [[512, 128], [1, 512]]>] start stop
      : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %g1[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    bir.matmult %g2[#bir.ap<0, [[256, 128], [1, 256]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                %x[#bir.ap<0, [[512, 128], [1, 256]]>] start stop
      : !bir.psum<128x256xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 256]]>], %g2[#bir.ap<0, [[256, 128], [1, 256]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x256xf32>
  }
}

// -----

// A group held across a loop: `acc` accumulates in every iteration and is
// read after the loop, so it keeps its bank over the whole loop; `tmp`,
// written and read inside each iteration, lives with it and takes the next
// bank.
// CHECK-LABEL: bir.func @loop
// CHECK: bir.memloc "acc" internal address 0 base_partition 0
// CHECK: bir.memloc "tmp" internal address 2048 base_partition 0
module attributes {bir.target = #bir.target<"trn2">} {
  bir.func @loop {
    %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
    %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
    %y = bir.memloc "y" internal : !bir.sbuf<128x512xf32>
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    %tmp = bir.memloc "tmp" internal : !bir.psum<128x512xf32>
    bir.memset %w[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xbf16>
    bir.memset %x[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 : !bir.sbuf<128x512xbf16>
    bir.memset %acc[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
    bir.loop 0 to 4 step 1 {
      bir.matmult %tmp[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                  %x[#bir.ap<0, [[512, 128], [1, 512]]>] start stop
        : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
      bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %tmp[#bir.ap<0, [[512, 128], [1, 512]]>]
        : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
      bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                  %x[#bir.ap<0, [[512, 128], [1, 512]]>]
        : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    }
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %acc[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
  }
}
