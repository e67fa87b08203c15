// RUN: walrus-opt %s -split-input-file -bir-schedule | FileCheck %s
// RUN: walrus-opt %s -split-input-file -bir-schedule=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: walrus-opt %s -split-input-file -bir-schedule="report sbuf-limit=4096" 2>/dev/null | FileCheck %s --check-prefix=LIMIT
// RUN: walrus-opt %s -split-input-file -bir-schedule="report sbuf-limit=4096" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT-REMARK
// RUN: walrus-opt %s -split-input-file -bir-schedule="heuristic=asap" | FileCheck %s --check-prefix=ASAP
// RUN: walrus-opt %s -split-input-file -bir-schedule="heuristic=dma-prefetch" | FileCheck %s --check-prefix=PREFETCH

// Two tiles loaded, computed and stored in turn. The scheduler's model
// runs the DMA engines in program order, where the second load would wait
// behind the first store, which waits for exp0: it moves the load right
// after the first load. The timeline's DMA queues already let the second
// load run before the store (loads and stores wait in queues of their
// own: docs/TimingModel.md), so both orders take 5.6 us, and the new one,
// no slower, is kept.
// REMARK: remark: bir-schedule: @nc_symbolic::@main: estimate 5.6 us -> 5.6 us; 1 of 1 runs of a block reordered, 0 kept at the SBUF limit
// CHECK-LABEL: bir.func @main
// CHECK:      name = "load0"
// CHECK-NEXT: name = "load1"
// CHECK-NEXT: name = "exp0"
// CHECK-NEXT: name = "store0"
// CHECK-NEXT: name = "exp1"
// CHECK-NEXT: name = "store1"
// The four tiles take 2048 B/partition each: the given order keeps two
// live at once, the new one three. At a limit of two the order stays.
// LIMIT-REMARK: remark: bir-schedule: @nc_symbolic::@main: estimate 5.6 us -> 5.6 us; 0 of 1 runs of a block reordered, 1 kept at the SBUF limit
// LIMIT-LABEL: bir.func @main
// LIMIT:      name = "load0"
// LIMIT-NEXT: name = "exp0"
// LIMIT-NEXT: name = "store0"
// LIMIT-NEXT: name = "load1"
// ASAP-LABEL: bir.func @main
// PREFETCH-LABEL: bir.func @main
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %a0 = bir.memloc "a0" internal : !bir.sbuf<128x512xf32>
    %b0 = bir.memloc "b0" internal : !bir.sbuf<128x512xf32>
    %a1 = bir.memloc "a1" internal : !bir.sbuf<128x512xf32>
    %b1 = bir.memloc "b1" internal : !bir.sbuf<128x512xf32>
    bir.dma %a0[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "load0"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b0[#bir.ap<0, [[512, 128], [1, 512]]>], %a0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp0"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %b0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store0"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %a1[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<65536, [[512, 128], [1, 512]]>] {name = "load1"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b1[#bir.ap<0, [[512, 128], [1, 512]]>], %a1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp1"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<65536, [[512, 128], [1, 512]]>], %b1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store1"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}

// -----

// One load tile for both: the second load overwrites what exp0 reads, so
// it stays after exp0 (write after read), and goes before store0, whose
// path to the end is shorter. `asap` takes the earlier of two ops that can
// start at once: the given order.
// REMARK: remark: bir-schedule: @nc_symbolic::@main: estimate
// CHECK-LABEL: bir.func @main
// CHECK:      name = "load0"
// CHECK-NEXT: name = "exp0"
// CHECK-NEXT: name = "load1"
// CHECK-NEXT: name = "store0"
// CHECK-NEXT: name = "exp1"
// CHECK-NEXT: name = "store1"
// ASAP-LABEL: bir.func @main
// ASAP:      name = "load0"
// ASAP-NEXT: name = "exp0"
// ASAP-NEXT: name = "store0"
// ASAP-NEXT: name = "load1"
// LIMIT-LABEL: bir.func @main
// PREFETCH-LABEL: bir.func @main
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %a = bir.memloc "a" internal : !bir.sbuf<128x512xf32>
    %b0 = bir.memloc "b0" internal : !bir.sbuf<128x512xf32>
    %b1 = bir.memloc "b1" internal : !bir.sbuf<128x512xf32>
    bir.dma %a[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "load0"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b0[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp0"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %b0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store0"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %a[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<65536, [[512, 128], [1, 512]]>] {name = "load1"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b1[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp1"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<65536, [[512, 128], [1, 512]]>], %b1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store1"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}

// -----

// Two halves of one tile: the second half's load touches no column exp0
// reads, so it moves up. A load through a view of the tile (of the first
// half's bytes) may touch any byte of it, so it stays after everything
// that reads the tile, exp1 too.
// REMARK: remark: bir-schedule: @nc_symbolic::@main: estimate
// CHECK-LABEL: bir.func @main
// CHECK:      name = "load0"
// CHECK-NEXT: name = "load1"
// CHECK-NEXT: name = "exp0"
// CHECK:      name = "exp1"
// CHECK:      name = "load2"
// LIMIT-LABEL: bir.func @main
// ASAP-LABEL: bir.func @main
// PREFETCH-LABEL: bir.func @main
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %a = bir.memloc "a" internal : !bir.sbuf<128x512xf32>
    %b = bir.memloc "b" internal : !bir.sbuf<128x512xf32>
    %v = bir.view %a : !bir.sbuf<128x512xf32> to !bir.sbuf<128x2x256xf32>
    bir.dma %a[#bir.ap<0, [[512, 128], [1, 256]]>], %x[#bir.ap<0, [[512, 128], [1, 256]]>] {name = "load0"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b[#bir.ap<0, [[512, 128], [1, 256]]>], %a[#bir.ap<0, [[512, 128], [1, 256]]>] {name = "exp0"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 256]]>], %b[#bir.ap<0, [[512, 128], [1, 256]]>] {name = "store0"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %a[#bir.ap<256, [[512, 128], [1, 256]]>], %x[#bir.ap<256, [[512, 128], [1, 256]]>] {name = "load1"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b[#bir.ap<256, [[512, 128], [1, 256]]>], %a[#bir.ap<256, [[512, 128], [1, 256]]>] {name = "exp1"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<256, [[512, 128], [1, 256]]>], %b[#bir.ap<256, [[512, 128], [1, 256]]>] {name = "store1"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %v[#bir.ap<0, [[512, 128], [1, 256]]>], %x[#bir.ap<65536, [[512, 128], [1, 256]]>] {name = "load2"} : !bir.sbuf<128x2x256xf32>, !bir.dram<256x512xf32>
  }
}

// -----

// The cores meet at a barrier: nothing crosses it, so each side is a run
// of its own and the second load stays after the barrier.
// REMARK: remark: bir-schedule: @nc_symbolic::@main: estimate {{.*}}; 0 of 2 runs of a block reordered
// CHECK-LABEL: bir.func @main
// CHECK:      name = "load0"
// CHECK-NEXT: name = "exp0"
// CHECK-NEXT: name = "store0"
// CHECK-NEXT: bir.core_barrier "half"
// CHECK-NEXT: name = "load1"
// LIMIT-LABEL: bir.func @main
// ASAP-LABEL: bir.func @main
// PREFETCH-LABEL: bir.func @main
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %a0 = bir.memloc "a0" internal : !bir.sbuf<128x512xf32>
    %b0 = bir.memloc "b0" internal : !bir.sbuf<128x512xf32>
    %a1 = bir.memloc "a1" internal : !bir.sbuf<128x512xf32>
    %b1 = bir.memloc "b1" internal : !bir.sbuf<128x512xf32>
    bir.dma %a0[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "load0"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b0[#bir.ap<0, [[512, 128], [1, 512]]>], %a0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp0"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %b0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store0"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.core_barrier "half"
    bir.dma %a1[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<65536, [[512, 128], [1, 512]]>] {name = "load1"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b1[#bir.ap<0, [[512, 128], [1, 512]]>], %a1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp1"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<65536, [[512, 128], [1, 512]]>], %b1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store1"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}

// -----

// A loop is one op holding every engine: the load it does not touch goes
// before it and overlaps it (prefetch); the store of what it writes stays
// after it. Inside, the loop's body is a run of its own.
// REMARK: remark: bir-schedule: @nc_symbolic::@main: estimate
// CHECK-LABEL: bir.func @main
// CHECK:      name = "load0"
// CHECK-NEXT: name = "load1"
// CHECK-NEXT: bir.loop 0 to 8 step 1
// CHECK-NEXT:   name = "square"
// CHECK:      name = "exp1"
// CHECK-NEXT: name = "store0"
// CHECK-NEXT: name = "store1"
// PREFETCH-LABEL: bir.func @main
// PREFETCH:      name = "load0"
// PREFETCH-NEXT: name = "load1"
// PREFETCH-NEXT: bir.loop 0 to 8 step 1
// LIMIT-LABEL: bir.func @main
// ASAP-LABEL: bir.func @main
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %a0 = bir.memloc "a0" internal : !bir.sbuf<128x512xf32>
    %a1 = bir.memloc "a1" internal : !bir.sbuf<128x512xf32>
    %b1 = bir.memloc "b1" internal : !bir.sbuf<128x512xf32>
    bir.dma %a0[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "load0"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.loop 0 to 8 step 1 {
      bir.tensor_tensor multiply %a0[#bir.ap<0, [[512, 128], [1, 512]]>], %a0[#bir.ap<0, [[512, 128], [1, 512]]>], %a0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "square"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    }
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %a0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store0"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %a1[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<65536, [[512, 128], [1, 512]]>] {name = "load1"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b1[#bir.ap<0, [[512, 128], [1, 512]]>], %a1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp1"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<65536, [[512, 128], [1, 512]]>], %b1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store1"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}

// -----

// After allocation: `a1` sits on `a0`'s bytes, so its load waits for exp0
// (the order the allocation assumed). The load into `s0`, which shares no
// byte with them, moves up. Tensors of one storage set may share any byte:
// the load into `s1` stays after exp2 reads `s0`.
// REMARK: remark: bir-schedule: @nc_symbolic::@main: estimate 11.6 us -> 9.1 us
// CHECK-LABEL: bir.func @main
// CHECK:      name = "load0"
// CHECK-NEXT: name = "load2"
// CHECK-NEXT: name = "exp0"
// CHECK-NEXT: name = "store0"
// CHECK-NEXT: name = "exp2"
// CHECK-NEXT: name = "reload2"
// CHECK-NEXT: name = "reload0"
// LIMIT-LABEL: bir.func @main
// ASAP-LABEL: bir.func @main
// PREFETCH-LABEL: bir.func @main
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %a0 = bir.memloc "a0" internal address 0 base_partition 0 : !bir.sbuf<128x512xf32>
    %a1 = bir.memloc "a1" internal address 0 base_partition 0 : !bir.sbuf<128x512xf32>
    %b = bir.memloc "b" internal address 2048 base_partition 0 : !bir.sbuf<128x512xf32>
    %s0 = bir.memloc "s0" internal set "shared" : !bir.sbuf<128x512xf32>
    %s1 = bir.memloc "s1" internal set "shared" : !bir.sbuf<128x512xf32>
    %c = bir.memloc "c" internal : !bir.sbuf<128x512xf32>
    bir.dma %a0[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "load0"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %b[#bir.ap<0, [[512, 128], [1, 512]]>], %a0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp0"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %b[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store0"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %a1[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<65536, [[512, 128], [1, 512]]>] {name = "reload0"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.dma %s0[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "load2"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %c[#bir.ap<0, [[512, 128], [1, 512]]>], %s0[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "exp2"} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %s1[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<65536, [[512, 128], [1, 512]]>] {name = "reload2"} : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.dma %y[#bir.ap<65536, [[512, 128], [1, 512]]>], %a1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store1"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %s1[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store2"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 128], [1, 512]]>], %c[#bir.ap<0, [[512, 128], [1, 512]]>] {name = "store3"} : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}
