// Tensors that come with an address stay where they are, and the search
// before spilling places the others around them (docs/placement/Search.md, "Fixed
// buffers in the search"). 13 bytes per partition; %in_a [0, 0] at 8 and
// %in_b [5, 7] at 8 are fixed. Colouring puts %x [3, 4] lowest, at 0;
// %y [4, 6] then meets %x below 5 and %in_b at 8, and 9 + 5 passes 13, so
// it spills. The search puts %y at 0 and %x above it, at 5: below %in_b's
// byte, which %x does not meet in time.
// RUN: walrus-opt %s -sb-alloc="sbuf-bytes=13 report" -sb-alloc-verify 2>&1 | FileCheck %s
// RUN: walrus-opt %s -sb-alloc="sbuf-bytes=13 report" --mlir-disable-threading 2>&1 | FileCheck %s
// Without the search (and before it placed around fixed tensors): a spill.
// RUN: walrus-opt %s -sb-alloc="sbuf-bytes=13 search-budget=0 report" -sb-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=COLOURING

// CHECK: remark: sb-alloc: @main: 4 node(s), 2 edge(s), 1 round(s), 0 spill(s), peak 12 B/partition, lower bound 10 B/partition, search work {{[0-9]+}}{{$}}
// CHECK: %y = bir.memloc "y" internal address 0 base_partition 0
// CHECK-NEXT: %in_a = bir.memloc "in_a" internal address 8 base_partition 0
// CHECK-NEXT: %x = bir.memloc "x" internal address 5 base_partition 0
// CHECK-NEXT: %in_b = bir.memloc "in_b" internal address 8 base_partition 0
// COLOURING: 1 spill(s)

module attributes {bir.target = #bir.target<name = "fixed", sbuf_partitions = 128, sbuf_bytes_per_partition = 16, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
  bir.func @main {
    %sink = bir.memloc "sink" output : !bir.dram<128x5xi8>
    %y = bir.memloc "y" internal : !bir.sbuf<128x5xi8>
    %in_a = bir.memloc "in_a" internal address 8 base_partition 0 : !bir.sbuf<128x4xi8>
    %x = bir.memloc "x" internal : !bir.sbuf<128x5xi8>
    %in_b = bir.memloc "in_b" internal address 8 base_partition 0 : !bir.sbuf<128x1xi8>
    bir.memset %in_a[#bir.ap<0, [[4, 128], [1, 4]]>], 0.000000e+00 : !bir.sbuf<128x4xi8>
    bir.dma %sink[#bir.ap<0, [[5, 128], [1, 4]]>], %in_a[#bir.ap<0, [[4, 128], [1, 4]]>] : !bir.dram<128x5xi8>, !bir.sbuf<128x4xi8>
    bir.memset %x[#bir.ap<0, [[5, 128], [1, 5]]>], 0.000000e+00 : !bir.sbuf<128x5xi8>
    bir.memset %y[#bir.ap<0, [[5, 128], [1, 5]]>], 0.000000e+00 : !bir.sbuf<128x5xi8>
    bir.dma %sink[#bir.ap<0, [[5, 128], [1, 5]]>], %x[#bir.ap<0, [[5, 128], [1, 5]]>] : !bir.dram<128x5xi8>, !bir.sbuf<128x5xi8>
    bir.memset %in_b[#bir.ap<0, [[1, 128], [1, 1]]>], 0.000000e+00 : !bir.sbuf<128x1xi8>
    bir.dma %sink[#bir.ap<0, [[5, 128], [1, 5]]>], %y[#bir.ap<0, [[5, 128], [1, 5]]>] : !bir.dram<128x5xi8>, !bir.sbuf<128x5xi8>
    bir.dma %sink[#bir.ap<0, [[5, 128], [1, 1]]>], %in_b[#bir.ap<0, [[1, 128], [1, 1]]>] : !bir.dram<128x5xi8>, !bir.sbuf<128x1xi8>
  }
}
