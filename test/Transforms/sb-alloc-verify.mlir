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
