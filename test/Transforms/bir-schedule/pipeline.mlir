// RUN: walrus-opt %s -walrus-pipeline="schedule report" -o /dev/null 2>&1 | FileCheck %s
// RUN: walrus-opt %s -walrus-pipeline="report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// `schedule` runs -bir-schedule after shrink-dn, before the allocation
// (whose liveness then follows the new order), and the pipeline's timeline
// estimates what the allocation made of it. Off by default. Before the
// allocation both orders take 5.6 us (the second load does not wait for
// the first store: test/Transforms/bir-schedule/order.mlir); after it,
// the given order's allocation puts the second tile on the first one's
// bytes, so its load waits for exp0, and the new order's does not.
// CHECK: remark: bir-schedule: @nc_symbolic::@main: estimate 5.6 us -> 5.6 us
// CHECK: remark: sb-alloc:
// CHECK: remark: print-bir-timeline: kernel of 1 core(s): 5.631 us
// OFF-NOT: remark: bir-schedule
// OFF: remark: print-bir-timeline: kernel of 1 core(s): 8.259 us
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %a0 = bir.memloc "a0" internal : !bir.sbuf<128x512xf32>
    %b0 = bir.memloc "b0" internal : !bir.sbuf<128x512xf32>
    %a1 = bir.memloc "a1" internal : !bir.sbuf<128x512xf32>
    %b1 = bir.memloc "b1" internal : !bir.sbuf<128x512xf32>
    bir.dma %a0[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b0[#bir.ap<0, [[512, 128], [1, 512]]>], %a0[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %b0[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %a1[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<65536, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b1[#bir.ap<0, [[512, 128], [1, 512]]>], %a1[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<65536, [[512, 128], [1, 512]]>], %b1[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}
