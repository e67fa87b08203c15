// RUN: walrus-opt %s -split-input-file -print-bir-timeline -o /dev/null 2>&1 | FileCheck %s

// Times computed by hand from the trn2 model (docs/TimingModel.md): an
// ACT, DVE or Pool instruction costs (60 + N * c) cycles for N elements
// per partition, at 1.2, 0.96 and 1.2 GHz, where c is 1 for one streamed
// input, 2 for two and 2.58 for a division; a DMA holds one engine per 8
// partitions for its bytes over 23 B/ns per engine plus 17.391 ns
// (400 / 23) per packet (one contiguous run of a partition), and ends
// 1300 ns later.

// One engine: (60 + 100) / 0.96 = 166.667 ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.167 us, 1 instruction(s); PE 0.000 us (0%) ACT 0.000 us (0%) DVE 0.167 us (100%) Pool 0.000 us (0%) DMA 0.000 us (0%); bound by DVE; critical path 1 instruction(s): DVE 0.167 us; DMA 0 B at 0.0 GB/s; 12800 FLOP; roofline 0.000 us (estimate 0.00x); waits 0.000 us at barriers
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x100xf32>
    bir.tensor_scalar multiply %t[#bir.ap<0, [[100, 128], [1, 100]]>], %t[#bir.ap<0, [[100, 128], [1, 100]]>], 2.0 : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
  }
}

// -----

// Two engines, the second reading what the first wrote: ACT (60 + 100) /
// 1.2 = 133.333 ns, then DVE (60 + 2 * 100) / 0.96 = 270.833 ns after it:
// 404.167 ns.
// The critical path is both: the DVE op waited for the ACT one.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.404 us, 2 instruction(s); PE 0.000 us (0%) ACT 0.133 us (33%) DVE 0.271 us (67%){{.*}}critical path 2 instruction(s): ACT 0.133 us DVE 0.271 us;
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x100xf32>
    %b = bir.memloc "b" internal : !bir.sbuf<128x100xf32>
    bir.activation exp %a[#bir.ap<0, [[100, 128], [1, 100]]>], %b[#bir.ap<0, [[100, 128], [1, 100]]>] : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    bir.tensor_tensor add %b[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>] : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
  }
}

// -----

// A comparison then a predicated copy on the vector engine, each reading
// two operands: 2 x (60 + 2 * 100) / 0.96 = 541.667 ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.542 us, 2 instruction(s)
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x100xf32>
    %p = bir.memloc "p" internal : !bir.sbuf<128x100xi8>
    bir.tensor_tensor is_gt %p[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>] : !bir.sbuf<128x100xi8>, !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    bir.tensor_copy_predicated %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>] if %p[#bir.ap<0, [[100, 128], [1, 100]]>] : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xi8>
  }
}

// -----

// A tensor_tensor_scan streams two inputs on DVE: (60 + 2 * 100) / 0.96 =
// 270.833 ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.271 us, 1 instruction(s); PE 0.000 us (0%) ACT 0.000 us (0%) DVE 0.271 us (100%)
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x100xf32>
    %h = bir.memloc "h" internal : !bir.sbuf<128x100xf32>
    bir.tensor_tensor_scan multiply, add %h[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], 0.0 : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
  }
}

// -----

// An elementwise instruction runs on the engine it names: a tensor_scalar
// on the scalar engine, (60 + 100) / 1.2 = 133.333 ns on ACT; a
// tensor_tensor on GpSimd, (60 + 2 * 100) / 1.2 = 216.667 ns on Pool
// after it; a memset on the vector engine, (60 + 100) / 0.96 = 166.667 ns
// on DVE, overlapping both: 350.000 ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.350 us, 3 instruction(s); PE 0.000 us (0%) ACT 0.133 us (38%) DVE 0.167 us (48%) Pool 0.217 us (62%) DMA 0.000 us (0%); bound by Pool; critical path 2 instruction(s): ACT 0.133 us Pool 0.217 us;
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x100xf32>
    %b = bir.memloc "b" internal : !bir.sbuf<128x100xf32>
    %c = bir.memloc "c" internal : !bir.sbuf<128x100xf32>
    bir.tensor_scalar multiply %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], 2.0 on scalar : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    bir.tensor_tensor add %b[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>] on gpsimd : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    bir.memset %c[#bir.ap<0, [[100, 128], [1, 100]]>], 0.0 on vector : !bir.sbuf<128x100xf32>
  }
}

// -----

// A division costs 2.58 cycles per element: (60 + 2.58 * 100) / 0.96 =
// 331.250 ns. A tensor_tensor whose operand is one value per partition (a
// broadcast: step 0 along the free dimension) streams one input: (60 +
// 100) / 0.96 = 166.667 ns after it: 497.917 ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.498 us, 2 instruction(s); PE 0.000 us (0%) ACT 0.000 us (0%) DVE 0.498 us (100%)
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x100xf32>
    %r = bir.memloc "r" internal : !bir.sbuf<128x1xf32>
    bir.tensor_scalar divide %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], 1.0 reverse : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    bir.tensor_tensor multiply %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>], %r[#bir.ap<0, [[1, 128], [0, 100]]>] : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>, !bir.sbuf<128x1xf32>
  }
}

// -----

// Independent work on two engines overlaps: max(133.333, 270.833) ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.271 us, 2 instruction(s)
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x100xf32>
    %b = bir.memloc "b" internal : !bir.sbuf<128x100xf32>
    %c = bir.memloc "c" internal : !bir.sbuf<128x100xf32>
    bir.activation exp %a[#bir.ap<0, [[100, 128], [1, 100]]>], %a[#bir.ap<0, [[100, 128], [1, 100]]>] : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    bir.tensor_tensor add %b[#bir.ap<0, [[100, 128], [1, 100]]>], %c[#bir.ap<0, [[100, 128], [1, 100]]>], %c[#bir.ap<0, [[100, 128], [1, 100]]>] : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
  }
}

// -----

// A DMA into an SBUF slot an allocation reused: `b` sits at `a`'s bytes,
// so loading it waits until the copy has read `a` (write after read).
// Pool memset (60 + 512) / 1.2 = 476.667 ns, DVE copy (60 + 512) / 0.96 =
// 595.833 ns after it, then the DMA: 262144 B / (16 * 23 B/ns) = 712.348
// ns plus 8 packets per engine (139.130 ns) plus 1300 = 2151.478 ns:
// 3223.978 ns in all.
// The critical path is the memset, the copy and the DMA: the false
// dependency the allocation made.
// On the critical path the DMA counts 851.478 ns while its engines move
// the bytes, and its fixed latency apart.
// CHECK: remark: print-bir-timeline: @nc00 (core 0): 3.224 us, 3 instruction(s){{.*}}critical path 3 instruction(s): DVE 0.596 us Pool 0.477 us DMA 0.851 us DMA latency 1.300 us;
module @nc00 attributes {bir.lnc_size = 1 : i64, bir.neuron_core_id = 0 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<128x512xf32>
    %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.sbuf<128x512xf32>
    %b = bir.memloc "b" internal address 0 base_partition 0 : !bir.sbuf<128x512xf32>
    %c = bir.memloc "c" internal address 2048 base_partition 0 : !bir.sbuf<128x512xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 : !bir.sbuf<128x512xf32>
    bir.tensor_copy %c[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %b[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  }
}

// -----

// The same program before allocation: `b` is its own tensor, the DMA
// starts at once and ends last: 2151.478 ns.
// CHECK: remark: print-bir-timeline: @nc00 (core 0): 2.151 us, 3 instruction(s){{.*}}critical path 1 instruction(s): DMA 0.851 us DMA latency 1.300 us;
module @nc00 attributes {bir.lnc_size = 1 : i64, bir.neuron_core_id = 0 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<128x512xf32>
    %a = bir.memloc "a" internal : !bir.sbuf<128x512xf32>
    %b = bir.memloc "b" internal : !bir.sbuf<128x512xf32>
    %c = bir.memloc "c" internal : !bir.sbuf<128x512xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 : !bir.sbuf<128x512xf32>
    bir.tensor_copy %c[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %b[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  }
}

// -----

// Two independent DMAs take the same 16 engines: the second starts when
// the first frees them (851.478 ns), not when its latency ends, and ends
// at 2 * 851.478 + 1300 = 3002.957 ns. The critical path counts the first
// only until the second starts, so it adds up to the estimate: the DMA
// engines' 1702.957 ns (the DMA busy time) and the second's latency.
// CHECK: remark: print-bir-timeline: @nc00 (core 0): 3.003 us, 2 instruction(s){{.*}}DMA 1.703 us (57%); bound by DMA; critical path 2 instruction(s): DMA 1.703 us DMA latency 1.300 us;
module @nc00 attributes {bir.lnc_size = 1 : i64, bir.neuron_core_id = 0 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<128x512xf32>
    %a = bir.memloc "a" internal : !bir.sbuf<128x512xf32>
    %b = bir.memloc "b" internal : !bir.sbuf<128x512xf32>
    bir.dma %a[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
    bir.dma %b[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  }
}

// -----

// Transfers wait in queues (loads, stores, on-chip copies: the NKI DMA
// overview's "DMA Queues"), and the engines serve a ready transfer before
// one that waits. The store of `a` waits for the DVE op ((60 + 2048) /
// 0.96 = 2195.833 ns), then holds the 16 engines for 1 MiB: 1048576 /
// (16 * 23) + 8 packets (139.130) = 2988.522 ns, and ends 1300 ns later at
// 6484.355 ns. The load of `b`, later in the program but ready at once,
// runs on the engines before the store starts (851.478 ns) instead of
// after it (which would end at 7335.833 ns).
// CHECK: remark: print-bir-timeline: @nc00 (core 0): 6.484 us, 3 instruction(s){{.*}}critical path 2 instruction(s): DVE 2.196 us DMA 2.989 us DMA latency 1.300 us;
module @nc00 attributes {bir.lnc_size = 1 : i64, bir.neuron_core_id = 0 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<128x512xf32>
    %y = bir.memloc "y" output : !bir.dram<128x2048xf32>
    %a = bir.memloc "a" internal : !bir.sbuf<128x2048xf32>
    %b = bir.memloc "b" internal : !bir.sbuf<128x512xf32>
    bir.tensor_scalar multiply %a[#bir.ap<0, [[2048, 128], [1, 2048]]>], %a[#bir.ap<0, [[2048, 128], [1, 2048]]>], 2.0 : !bir.sbuf<128x2048xf32>, !bir.sbuf<128x2048xf32>
    bir.dma %y[#bir.ap<0, [[2048, 128], [1, 2048]]>], %a[#bir.ap<0, [[2048, 128], [1, 2048]]>] : !bir.dram<128x2048xf32>, !bir.sbuf<128x2048xf32>
    bir.dma %b[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  }
}

// -----

// Two DMAs write the halves of `y` on 8 engines each (64 partitions:
// 131072 B / (8 * 23) + 8 packets = 851.478 ns, ending 1300 ns later at
// 2151.478 ns); a DMA reading all of `y` waits for both and ends at
// 2 * 2151.478 = 4302.957 ns.
// CHECK: remark: print-bir-timeline: @nc00 (core 0): 4.303 us, 3 instruction(s){{.*}}critical path 2 instruction(s): DMA 1.703 us DMA latency 2.600 us;
module @nc00 attributes {bir.lnc_size = 1 : i64, bir.neuron_core_id = 0 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %y = bir.memloc "y" output : !bir.dram<128x512xf32>
    %a = bir.memloc "a" internal : !bir.sbuf<64x512xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.ap<0, [[512, 64], [1, 512]]>], %a[#bir.ap<0, [[512, 64], [1, 512]]>] : !bir.dram<128x512xf32>, !bir.sbuf<64x512xf32>
    bir.dma %y[#bir.ap<32768, [[512, 64], [1, 512]]>], %a[#bir.ap<0, [[512, 64], [1, 512]]>] : !bir.dram<128x512xf32>, !bir.sbuf<64x512xf32>
    bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>], %y[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  }
}

// -----

// A barrier between two cores: core 0 works 595.833 ns (a DVE copy of
// 512 columns) before it, core 1 nothing, so core 1 waits that long; after
// it each runs a 166.667 ns DVE op: both end at 762.5 ns (printed 0.762: 762.49999... in binary).
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.762 us, 2 instruction(s){{.*}}waits 0.000 us at barriers
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 1): 0.762 us, 1 instruction(s){{.*}}waits 0.596 us at barriers
// CHECK: remark: print-bir-timeline: kernel of 2 core(s): 0.762 us, slowest core 0
module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x512xf32>
    %c = bir.memloc "c" internal : !bir.sbuf<128x512xf32>
    bir.tensor_copy %c[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>] {mask = affine_set<()[s0] : (-s0 == 0)>} : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.core_barrier "b0"
    bir.tensor_scalar multiply %a[#bir.ap<0, [[512, 128], [1, 100]]>], %a[#bir.ap<0, [[512, 128], [1, 100]]>], 2.0 : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
  }
}

// -----

// The tensor engine on trn1 (2.8 GHz), bf16: the first matmult loads its
// stationary (128 / 4 = 32 cycles) and streams 512 columns (max(512, 64)
// cycles): 544 / 2.8 = 194.286 ns; the second reuses it: 512 / 2.8 =
// 182.857 ns, after the first (both accumulate into acc): 377.143 ns.
// 2 * 128 * 128 * 512 FLOPs each over 92 TFLOPS (bf16) is a roofline of
// 364.722 ns: the estimate is 1.03x it.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.377 us, 2 instruction(s); PE 0.377 us (100%){{.*}}; bound by PE; critical path 2 instruction(s): PE 0.377 us; DMA 0 B at 0.0 GB/s; 33554432 FLOP; roofline 0.365 us at the PE bf16 peak (estimate 1.03x)
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn1">} {
  bir.func @main {
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
    %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] start : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] stop : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
  }
}

// -----

// The same matmults on fp32 operands cost 4x: (128 / 4 + 512) * 4 / 2.8 =
// 777.143 ns, then 512 * 4 / 2.8 = 731.429 ns: 1508.571 ns. Their roofline
// is at the fp32 peak, 23 TFLOPS: 33554432 / 23000 = 1458.891 ns, so the
// estimate is 1.03x it (at the bf16 peak it would read 4.14x).
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 1.509 us, 2 instruction(s){{.*}}; 33554432 FLOP; roofline 1.459 us at the PE fp32 peak (estimate 1.03x)
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn1">} {
  bir.func @main {
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    %w = bir.memloc "w" internal : !bir.sbuf<128x128xf32>
    %x = bir.memloc "x" internal : !bir.sbuf<128x512xf32>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] start : !bir.psum<128x512xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x512xf32>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] stop : !bir.psum<128x512xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x512xf32>
  }
}

// -----

// One bf16 and one fp32 matmult: the roofline takes each at its own peak,
// 16777216 / 92000 + 16777216 / 23000 = 911.805 ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): {{.*}}; 33554432 FLOP; roofline 0.912 us at the PE bf16 and fp32 peaks
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn1">} {
  bir.func @main {
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    %w = bir.memloc "w" internal : !bir.sbuf<128x128xf32>
    %x = bir.memloc "x" internal : !bir.sbuf<128x512xf32>
    %wb = bir.memloc "wb" internal : !bir.sbuf<128x128xbf16>
    %xb = bir.memloc "xb" internal : !bir.sbuf<128x512xbf16>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] start stop : !bir.psum<128x512xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x512xf32>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %wb[#bir.ap<0, [[128, 128], [1, 128]]>], %xb[#bir.ap<0, [[512, 128], [1, 512]]>] start stop : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
  }
}

// -----

// A loop runs its body once per iteration: four dependent DVE ops of
// 166.667 ns each.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 0): 0.667 us, 4 instruction(s)
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x100xf32>
    bir.loop 0 to 4 step 1 {
      bir.tensor_scalar multiply %t[#bir.ap<0, [[100, 128], [1, 100]]>], %t[#bir.ap<0, [[100, 128], [1, 100]]>], 2.0 : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    }
  }
}

// -----

// Collectives move what a ring over the cores passes through each core:
// at 4 cores, a reduce_scatter into 32 x 64 f32 moves 3 slices, 24576 B,
// on 4 engines (32 partitions): 24576 / (4 * 23) = 267.130 ns plus 8
// packets (139.130 ns) plus 1300 = 1706.261 ns. An all_reduce of 128 x 64
// f32 moves 2 * 3 / 4 of it, 49152 B, on 16 engines: 133.565 + 139.130 +
// 1300 = 1572.696 ns. The cores meet at each: 3278.957 ns.
// CHECK: remark: print-bir-timeline: @nc_symbolic (core 3): 3.279 us, 2 instruction(s){{.*}}DMA 73728 B
module @nc_symbolic attributes {bir.lnc_size = 4 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %block = bir.memloc "block" internal : !bir.sbuf<128x64xf32>
    %share = bir.memloc "share" internal : !bir.sbuf<32x64xf32>
    bir.collective reduce_scatter %share[#bir.ap<0, [[64, 32], [1, 64]]>], %block[#bir.ap<0, [[64, 128], [1, 64]]>] reduce add shard_offset affine_map<()[s0] -> (s0 * 2048)> : !bir.sbuf<32x64xf32>, !bir.sbuf<128x64xf32>
    bir.collective all_reduce %block[#bir.ap<0, [[64, 128], [1, 64]]>], %block[#bir.ap<0, [[64, 128], [1, 64]]>] reduce add : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
  }
}

// -----

// Overrides for what-ifs: the vector engine at 1.92 GHz halves the time.
// RUN: walrus-opt %s -split-input-file -print-bir-timeline=dve-ghz=1.92 -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAST
// FAST: remark: print-bir-timeline: @nc_symbolic (core 0): 0.083 us, 1 instruction(s)

// -----

// A what-if DMA: 4 engines of 46 B/ns, 32 partitions each, and packets
// that cost one byte's time (1 / 46 ns):
// 262144 B / (4 * 46) = 1424.696 ns plus 32 packets of 1 / 46 ns plus
// 1300 ns = 2725.391 ns.
// RUN: walrus-opt %s -split-input-file -print-bir-timeline="dma-packet-bytes=1 dma-engines=4 dma-bytes-per-ns=46 dma-partitions-per-engine=32" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHATIF
// WHATIF: remark: print-bir-timeline: @nc_dma (core 0): 2.725 us, 1 instruction(s)
module @nc_dma attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<128x512xf32>
    %a = bir.memloc "a" internal : !bir.sbuf<128x512xf32>
    bir.dma %a[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  }
}
