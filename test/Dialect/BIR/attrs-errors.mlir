// RUN: walrus-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{access pattern needs at least the partition [step, num] pair}}
  bir.memset %t[#bir.ap<0, []>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{access pattern extents must be positive, got 0}}
  bir.memset %t[#bir.ap<0, [[4, 128], [1, 0]]>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{symbolic access pattern offset map must have one result}}
  bir.memset %t[#bir.sap<()[s0] -> (s0, 0), [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{symbolic access pattern block map may only use the shard id symbol s0}}
  bir.memset %t[#bir.sap<()[s0] -> (0), [[4, 128], [1, 4]], block = ()[s0, s1] -> (s1)>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{expected 'tile' or 'block', got 'row'}}
  bir.memset %t[#bir.sap<()[s0] -> (0), [[4, 128], [1, 4]], row = ()[s0] -> (0)>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'tile' given twice}}
  bir.memset %t[#bir.sap<()[s0] -> (0), [[4, 128], [1, 4]], tile = ()[s0] -> (0), tile = ()[s0] -> (0)>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

// expected-error @+1 {{replication factor must be at least 1, got 0}}
"test.replication"() {r = #bir.replication<factor = 0, partition_stride = 32, shift = 1>} : () -> ()

// -----

// expected-error @+1 {{replication partition_stride must be positive, got 0}}
"test.replication"() {r = #bir.replication<factor = 2, partition_stride = 0, shift = 1>} : () -> ()

// -----

// expected-error @+1 {{replication shift must not be negative, got -1}}
"test.replication"() {r = #bir.replication<factor = 2, partition_stride = 32, shift = -1>} : () -> ()

// -----

// A shift of 2^62 times replica 3 wrapped in the interpreter (SIGSEGV, a
// mutation of examples/conv1d.mlir).
// expected-error @+1 {{replication shift 4611686018427387904 is past 2^48}}
"test.replication"() {r = #bir.replication<factor = 4, partition_stride = 32, shift = 4611686018427387904>} : () -> ()

// -----

// expected-error @+1 {{replication factor and partition_stride must be at most 128, got 129 and 1}}
"test.replication"() {r = #bir.replication<factor = 129, partition_stride = 1, shift = 1>} : () -> ()

// -----

// expected-error @+1 {{replication factor and partition_stride must be at most 128, got 2 and 4294967296}}
"test.replication"() {r = #bir.replication<factor = 2, partition_stride = 4294967296, shift = 1>} : () -> ()

// -----

// expected-error @+1 {{unknown target preset "trn9"; expected trn1, trn2 or trn3}}
module attributes {bir.target = #bir.target<"trn9">} {}

// -----

// expected-error @+1 {{target sbuf_bytes_per_partition must be positive, got 0}}
module attributes {bir.target = #bir.target<name = "zero", sbuf_partitions = 128, sbuf_bytes_per_partition = 0, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {}

// -----

// expected-error @+1 {{target psum_bytes_per_partition (16384) must be a multiple of psum_banks (3)}}
module attributes {bir.target = #bir.target<name = "odd", sbuf_partitions = 128, sbuf_bytes_per_partition = 4096, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 3, max_stationary_free = 128, max_moving_free = 512>} {}

// -----

// expected-error @+1 {{target psum_reserved_banks must be in [0, 8), got 8}}
module attributes {bir.target = #bir.target<name = "allreserved", sbuf_partitions = 128, sbuf_bytes_per_partition = 4096, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512, psum_reserved_banks = 8>} {}

// -----

// expected-error @+1 {{target psum_reserved_banks must be in [0, 8), got -1}}
module attributes {bir.target = #bir.target<name = "negative", sbuf_partitions = 128, sbuf_bytes_per_partition = 4096, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512, psum_reserved_banks = -1>} {}

// -----

// expected-error @+1 {{#bir.target needs 'psum_partitions' here; give every geometry key or a preset name}}
module attributes {bir.target = #bir.target<name = "short", sbuf_partitions = 128, sbuf_bytes_per_partition = 4096>} {}
