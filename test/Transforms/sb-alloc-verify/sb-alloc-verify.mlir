// RUN: walrus-opt %s -sb-alloc-verify -o /dev/null

// Valid allocations: the same bytes for tensors live at different times,
// disjoint partitions or bytes for tensors live together; PSUM and DRAM
// tensors are not SBUF's business; a never-live tensor conflicts with none.
bir.func @valid {
  %y = bir.memloc "y" output : !bir.dram<64x8xf32>
  %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.sbuf<64x8xf32>
  %b = bir.memloc "b" internal address 0 base_partition 64 : !bir.sbuf<64x8xf32>
  %c = bir.memloc "c" internal address 32 base_partition 0 : !bir.sbuf<64x8xf32>
  %reuse = bir.memloc "reuse" internal address 0 base_partition 0 : !bir.sbuf<128x16xf32>
  %idle = bir.memloc "idle" internal address 0 base_partition 0 : !bir.sbuf<128x8xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<64x8xf32>
  bir.memset %a[#bir.ap<0, [[8, 64], [1, 8]]>], 1.0 : !bir.sbuf<64x8xf32>
  bir.memset %b[#bir.ap<0, [[8, 64], [1, 8]]>], 2.0 : !bir.sbuf<64x8xf32>
  bir.memset %c[#bir.ap<0, [[8, 64], [1, 8]]>], 3.0 : !bir.sbuf<64x8xf32>
  bir.tensor_tensor add %a[#bir.ap<0, [[8, 64], [1, 8]]>], %b[#bir.ap<0, [[8, 64], [1, 8]]>], %c[#bir.ap<0, [[8, 64], [1, 8]]>]
    : !bir.sbuf<64x8xf32>, !bir.sbuf<64x8xf32>, !bir.sbuf<64x8xf32>
  bir.dma %y[#bir.ap<0, [[8, 64], [1, 8]]>], %a[#bir.ap<0, [[8, 64], [1, 8]]>] : !bir.dram<64x8xf32>, !bir.sbuf<64x8xf32>
  bir.memset %reuse[#bir.ap<0, [[16, 128], [1, 16]]>], 0.0 : !bir.sbuf<128x16xf32>
  bir.tensor_copy %acc[#bir.ap<0, [[8, 64], [1, 8]]>], %reuse[#bir.ap<0, [[16, 64], [1, 8]]>] : !bir.psum<64x8xf32>, !bir.sbuf<128x16xf32>
}

// Rows that died hold another tensor: rows 0-63 of t are read for the
// last time before v is written there.
bir.func @rows_died {
  %x = bir.memloc "x" input : !bir.dram<128x64xf32>
  %y = bir.memloc "y" output : !bir.dram<128x64xf32>
  %t = bir.memloc "t" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
  %v = bir.memloc "v" internal address 0 base_partition 0 : !bir.sbuf<64x64xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %x[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
  bir.memset %v[#bir.ap<0, [[64, 64], [1, 64]]>], 2.0 : !bir.sbuf<64x64xf32>
  bir.tensor_tensor add %v[#bir.ap<0, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<4096, [[64, 64], [1, 64]]>] : !bir.sbuf<64x64xf32>, !bir.sbuf<64x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<4096, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<64x64xf32>
}
