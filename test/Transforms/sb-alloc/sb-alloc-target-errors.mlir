// RUN: walrus-opt %s -sb-alloc=sbuf-bytes=2048 -verify-diagnostics -o /dev/null

// Placements past the target's 1024 bytes per partition would be invalid
// IR: the budget may only lower the target's SBUF, never raise it.
module attributes {bir.target = #bir.target<name = "tiny", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
  // expected-error @+1 {{sb-alloc: sbuf-bytes=2048 exceeds the target's 1024 bytes per partition}}
  bir.func @main {
    %a = bir.memloc "a" internal : !bir.sbuf<128x128xf32>
    bir.memset %a[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xf32>
  }
}
