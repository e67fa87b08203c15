// RUN: walrus-opt %s -split-input-file -verify-diagnostics -psum-alloc-verify

module attributes {bir.target = #bir.target<"trn2">} {
  bir.func @unplaced {
    // expected-error @below {{psum-alloc-verify: PSUM tensor 'a' has no address at base partition 0 (run -psum-alloc)}}
    %a = bir.memloc "a" internal : !bir.psum<128x512xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
  }
}

// -----

module attributes {bir.target = #bir.target<"trn2">} {
  bir.func @crosses {
    // expected-error @below {{psum-alloc-verify: PSUM tensor 'a' at bytes [1024, 3072) crosses the end of bank 0 (banks of 2048 bytes; a tensor of more than a bank starts at a bank's first byte)}}
    %a = bir.memloc "a" internal address 1024 base_partition 0 : !bir.psum<128x512xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
  }
}

// -----

module attributes {bir.target = #bir.target<name = "t", sbuf_partitions = 128,
    sbuf_bytes_per_partition = 4096, psum_partitions = 128,
    psum_bytes_per_partition = 16384, psum_banks = 8,
    max_stationary_free = 128, max_moving_free = 512, psum_reserved_banks = 1>} {
  bir.func @reserved {
    // expected-error @below {{psum-alloc-verify: PSUM tensor 'a' is in bank 7, which the target reserves (7 of 8 usable)}}
    %a = bir.memloc "a" internal address 14336 base_partition 0 : !bir.psum<128x512xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
  }
}

// -----

module attributes {bir.target = #bir.target<"trn2">} {
  bir.func @overlap {
    %y = bir.memloc "y" internal : !bir.sbuf<128x512xf32>
    %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.psum<128x512xf32>
    // expected-error @below {{psum-alloc-verify: PSUM tensors 'a' and 'b' are live at the same time and share bytes [1024, 2048)}}
    %b = bir.memloc "b" internal address 1024 base_partition 0 : !bir.psum<128x256xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
    bir.memset %b[#bir.ap<0, [[256, 128], [1, 256]]>], 0.0 : !bir.psum<128x256xf32>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 256]]>], %b[#bir.ap<0, [[256, 128], [1, 256]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x256xf32>
  }
}

// -----

// Not live at once: the same bytes are fine.
module attributes {bir.target = #bir.target<"trn2">} {
  bir.func @reuse {
    %y = bir.memloc "y" internal : !bir.sbuf<128x512xf32>
    %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.psum<128x512xf32>
    %b = bir.memloc "b" internal address 0 base_partition 0 : !bir.psum<128x512xf32>
    bir.memset %a[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    bir.memset %b[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 : !bir.psum<128x512xf32>
    bir.tensor_copy %y[#bir.ap<0, [[512, 128], [1, 512]]>], %b[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
  }
}
