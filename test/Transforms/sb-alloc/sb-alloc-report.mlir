// RUN: walrus-opt %s -sb-alloc="report report-file=%t.json explain sbuf-bytes=1536" -sb-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// The identity copies chain three 512-byte tensors into one partner group
// that needs 1536 bytes per partition; with sbuf-bytes=1024 it is too large
// (next RUN line).
// RUN: walrus-opt %s -sb-alloc="explain sbuf-bytes=1024" -sb-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOO-LARGE

// REMARKS: remark: sb-alloc: partners: 3 tensors share one place, requires 1536 bytes/partition
// REMARKS: remark: sb-alloc: @main: 1 node(s), 0 edge(s), 1 round(s), 0 spill(s), peak 512 B/partition, lower bound 512 B/partition, search work {{[0-9]+}}{{$}}

// JSON:      "functions": [
// JSON:        "function": "@main",
// Nothing spilled: the first round's bound is the bound, no node unplaced.
// JSON:        "lower_bound_before_spilling": 512,
// JSON-NEXT:   "lower_bound_bytes": 512,
// JSON:        "nodes": [
// JSON:            "address": 0,
// JSON-NEXT:       "band_class": 8,
// JSON-NEXT:       "base_partition": 0,
// JSON-NEXT:       "bytes": 512,
// JSON-NEXT:       "end": 3,
// JSON-NEXT:       "partitions": 128,
// JSON-NEXT:       "start": 0,
// JSON-NEXT:       "tensors": [
// JSON-NEXT:         "a",
// JSON-NEXT:         "b",
// JSON-NEXT:         "c"
// JSON:        "peak_bytes": 512,
// JSON-NEXT:   "rounds": 1,
// JSON-NEXT:   "search_placed": 0,
// JSON-NEXT:   "search_tensors": 0,
// JSON-NEXT:   "search_work": {{[0-9]+}},
// JSON-NEXT:   "spills": 0,
// JSON-NEXT:   "stored_edges": 0,
// JSON-NEXT:   "unplaced_before_spilling": 0

// TOO-LARGE: remark: sb-alloc: accumulation group is too large for SB: 3 tensors, largest = 'a', requires 1536 bytes/partition

bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<128x128xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<128x128xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x128xf32>
  %c = bir.memloc "c" internal : !bir.sbuf<128x128xf32>
  bir.memset %a[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xf32>
  bir.tensor_copy %b[#bir.ap<0, [[128, 128], [1, 128]]>], %a[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
  bir.tensor_copy %c[#bir.ap<0, [[128, 128], [1, 128]]>], %b[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
  bir.dma %y[#bir.ap<0, [[128, 128], [1, 128]]>], %c[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.dram<128x128xf32>, !bir.sbuf<128x128xf32>
}
