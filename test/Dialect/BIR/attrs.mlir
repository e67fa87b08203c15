// RUN: walrus-opt %s --verify-roundtrip --allow-unregistered-dialect | FileCheck %s

// Presets print as their name; any other geometry prints in full.
// CHECK: "test.targets"() {full = #bir.target<name = "tiny", sbuf_partitions = 64, sbuf_bytes_per_partition = 4096, psum_partitions = 64, psum_bytes_per_partition = 2048, psum_banks = 2, max_stationary_free = 64, max_moving_free = 256>, preset = #bir.target<"trn2">, spelled = #bir.target<"trn3">, trn1 = #bir.target<"trn1">}
"test.targets"() {
  trn1 = #bir.target<"trn1">,
  preset = #bir.target<"trn2">,
  spelled = #bir.target<name = "trn3", sbuf_partitions = 128, sbuf_bytes_per_partition = 262144, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>,
  full = #bir.target<name = "tiny", sbuf_partitions = 64, sbuf_bytes_per_partition = 4096, psum_partitions = 64, psum_bytes_per_partition = 2048, psum_banks = 2, max_stationary_free = 64, max_moving_free = 256>
} : () -> ()

// CHECK: "test.patterns"()
// CHECK-SAME: broadcast = #bir.ap<0, {{\[\[}}0, 128], [1, 512]]>
// CHECK-SAME: negative = #bir.ap<511, {{\[\[}}512, 128], [-1, 512]]>
// CHECK-SAME: nested = #bir.ap<0, {{\[\[}}2048, 128], [512, 4], [1, 512]]>
// CHECK-SAME: symbolic = #bir.sap<(d0, d1)[s0] -> (d0 * 128 + s0 * 64), {{\[\[}}2048, 128], [1, 64]]>
// CHECK-SAME: with_parts = #bir.sap<(d0)[s0] -> (s0), {{\[\[}}2048, 128], [1, 64]], tile = (d0)[s0] -> (d0 * 262144), block = (d0)[s0] -> ((d0 mod 2) * 512)>
"test.patterns"() {
  broadcast = #bir.ap<0, [[0, 128], [1, 512]]>,
  negative = #bir.ap<511, [[512, 128], [-1, 512]]>,
  nested = #bir.ap<0, [[2048, 128], [512, 4], [1, 512]]>,
  symbolic = #bir.sap<(d0, d1)[s0] -> (d0 * 128 + s0 * 64), [[2048, 128], [1, 64]]>,
  with_parts = #bir.sap<(d0)[s0] -> (s0), [[2048, 128], [1, 64]], block = (d0)[s0] -> ((d0 mod 2) * 512), tile = (d0)[s0] -> (d0 * 262144)>
} : () -> ()

// CHECK: "test.replication"() {r = #bir.replication<factor = 4, partition_stride = 32, shift = 1>}
"test.replication"() {r = #bir.replication<factor = 4, partition_stride = 32, shift = 1>} : () -> ()
