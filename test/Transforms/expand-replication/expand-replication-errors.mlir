// RUN: walrus-opt %s -split-input-file -expand-replication -verify-diagnostics

// Replication must be made explicit on the symbolic module, before the
// split: per-core expansion could diverge between cores.
module {
  // expected-error @+1 {{expand-replication must run before lnc-split: this module is already concretized for core 1}}
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
    }
  }
}

// -----

bir.func @main {
  %x = bir.memloc "x" internal : !bir.sbuf<32x8xbf16>
  %w = bir.memloc "w" internal : !bir.sbuf<64x8xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<8x8xf32>
  bir.matmult %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 64], [1, 8]]>],
              %x[#bir.ap<0, [[8, 32], [1, 8]]>] start stop
              replication <factor = 2, partition_stride = 32, shift = 1>
    : !bir.psum<8x8xf32>, !bir.sbuf<64x8xbf16>, !bir.sbuf<32x8xbf16>
  // expected-error @+1 {{reads 'x' with #bir.replication<factor = 2, partition_stride = 32, shift = 2> but another matmult reads it with #bir.replication<factor = 2, partition_stride = 32, shift = 1>}}
  bir.matmult %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 64], [1, 8]]>],
              %x[#bir.ap<0, [[8, 32], [1, 8]]>] start stop
              replication <factor = 2, partition_stride = 32, shift = 2>
    : !bir.psum<8x8xf32>, !bir.sbuf<64x8xbf16>, !bir.sbuf<32x8xbf16>
}

// -----

bir.func @main {
  %x = bir.memloc "x" internal : !bir.sbuf<32x8xbf16>
  %v = bir.view %x : !bir.sbuf<32x8xbf16> to !bir.sbuf<32x8xbf16>
  %w = bir.memloc "w" internal : !bir.sbuf<64x8xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<8x8xf32>
  // expected-error @+1 {{a replicated moving operand must be a bir.memloc, not a view}}
  bir.matmult %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 64], [1, 8]]>],
              %v[#bir.ap<0, [[8, 32], [1, 8]]>] start stop
              replication <factor = 2, partition_stride = 32, shift = 1>
    : !bir.psum<8x8xf32>, !bir.sbuf<64x8xbf16>, !bir.sbuf<32x8xbf16>
}

// -----

bir.func @main {
  %x = bir.memloc "x" internal : !bir.sbuf<32x8xbf16>
  // expected-error @+1 {{cannot replicate 'x': growing it would change what this view reinterprets}}
  %v = bir.view %x : !bir.sbuf<32x8xbf16> to !bir.sbuf<32x4xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<64x8xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<8x8xf32>
  bir.matmult %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 64], [1, 8]]>],
              %x[#bir.ap<0, [[8, 32], [1, 8]]>] start stop
              replication <factor = 2, partition_stride = 32, shift = 1>
    : !bir.psum<8x8xf32>, !bir.sbuf<64x8xbf16>, !bir.sbuf<32x8xbf16>
}

// -----

bir.func @main {
  // expected-error @+1 {{cannot replicate 'x': its 48 partitions exceed the replica stride of 32}}
  %x = bir.memloc "x" internal : !bir.sbuf<48x8xbf16>
  %w = bir.memloc "w" internal : !bir.sbuf<64x8xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<8x8xf32>
  bir.matmult %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 64], [1, 8]]>],
              %x[#bir.ap<0, [[8, 32], [1, 8]]>] start stop
              replication <factor = 2, partition_stride = 32, shift = 1>
    : !bir.psum<8x8xf32>, !bir.sbuf<64x8xbf16>, !bir.sbuf<48x8xbf16>
}

// -----

bir.func @main {
  // expected-error @+1 {{cannot replicate 'x': 4 replicas need 160 partitions, the target has 128}}
  %x = bir.memloc "x" internal : !bir.sbuf<40x8xbf16>
  %w = bir.memloc "w" internal : !bir.sbuf<128x8xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<8x8xf32>
  bir.matmult %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 128], [1, 8]]>],
              %x[#bir.ap<0, [[8, 8], [1, 8]]>] start stop
              replication <factor = 4, partition_stride = 40, shift = 1>
    : !bir.psum<8x8xf32>, !bir.sbuf<128x8xbf16>, !bir.sbuf<40x8xbf16>
}

// -----

bir.func @main {
  %x = bir.memloc "x" internal : !bir.sbuf<32x8xbf16>
  %w = bir.memloc "w" internal : !bir.sbuf<64x8xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<8x4xf32>
  // expected-error @+1 {{a replicated read must walk consecutive partitions of 'x' (partition step 8), not step 16}}
  bir.matmult %acc[#bir.ap<0, [[4, 8], [1, 4]]>], %w[#bir.ap<0, [[8, 48], [1, 8]]>],
              %x[#bir.ap<0, [[16, 16], [1, 4]]>] start stop
              replication <factor = 2, partition_stride = 32, shift = 1>
    : !bir.psum<8x4xf32>, !bir.sbuf<64x8xbf16>, !bir.sbuf<32x8xbf16>
}
