// RUN: walrus-opt %s -split-input-file -verify-diagnostics -psum-alloc

// A tensor larger than every usable bank together (2 of 2048 bytes: the
// target reserves the other 2).
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128,
    sbuf_bytes_per_partition = 4096, psum_partitions = 128,
    psum_bytes_per_partition = 8192, psum_banks = 4,
    max_stationary_free = 128, max_moving_free = 512, psum_reserved_banks = 2>} {
  bir.func @too_wide {
    // expected-error @below {{psum-alloc: 'wide' takes 6144 bytes per partition, more than the target's usable PSUM banks hold (2 of 2048 bytes)}}
    %wide = bir.memloc "wide" internal : !bir.psum<128x1536xf32>
    bir.memset %wide[#bir.ap<0, [[1536, 128], [1, 1536]]>], 0.0 : !bir.psum<128x1536xf32>
  }
}

// -----

// Three full-bank tiles live at once on a target of 4 banks, 2 of them
// reserved: the error is at the access that found no room.
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128,
    sbuf_bytes_per_partition = 4096, psum_partitions = 128,
    psum_bytes_per_partition = 8192, psum_banks = 4,
    max_stationary_free = 128, max_moving_free = 512, psum_reserved_banks = 2>} {
  bir.func @too_many {
    %y = bir.memloc "y" internal : !bir.sbuf<128x512xf32>
    %a = bir.memloc "a" internal : !bir.psum<128x512xf32>
    %b = bir.memloc "b" internal : !bir.psum<128x512xf32>
    // expected-note @below {{the tensor}}
    %c = bir.memloc "c" internal : !bir.psum<128x512xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
    bir.memset %b[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
    // expected-error @below {{psum-alloc: no PSUM bank has room for 'c' (2048 bytes per partition): the 3 PSUM tensors live here need at least 3 bank(s) of 2048 bytes at once, and the target has 2 usable (4 banks, 2 reserved)}}
    bir.memset %c[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %b[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %c[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
  }
}
