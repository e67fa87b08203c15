// RUN: walrus-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

bir.func @f {
  // expected-note @+1 {{first defined here}}
  %a = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{name 't' is already used in this function}}
  %b = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
}

// -----

// expected-error @+1 {{region #0 ('body') failed to verify constraint: region with 1 blocks}}
"bir.func"() ({}) {sym_name = "f"} : () -> ()

// -----

bir.func @f {
  // expected-error @+1 {{step must be positive, got 0}}
  bir.loop 0 to 4 step 0 {
  }
}

// -----

bir.func @f {
  // expected-error @+1 {{must run at least once, but 4 to 4 is empty}}
  bir.loop 4 to 4 step 1 {
  }
}

// -----

// A mask belongs on the instructions: on a loop it would be ignored.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @f {
    // expected-error @+1 {{'bir.loop' op takes no mask: mask the instructions in its body}}
    bir.loop 0 to 4 step 1 attributes {mask = affine_set<()[s0] : (s0 == 0)>} {
    }
  }
}

// -----

// expected-error @+1 {{expects parent op to be one of 'bir.func, bir.loop'}}
bir.loop 0 to 4 step 1 {
}

// -----

bir.func @f {
  // expected-error @+1 {{name must not be empty}}
  %t = bir.memloc "" internal : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{has 129 partitions but the target's SBUF has 128}}
  %t = bir.memloc "t" internal : !bir.sbuf<129x4xf32>
}

// -----

module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 64, sbuf_bytes_per_partition = 4096, psum_partitions = 32, psum_bytes_per_partition = 2048, psum_banks = 1, max_stationary_free = 128, max_moving_free = 512>} {
  bir.func @f {
    // expected-error @+1 {{has 64 partitions but the target's PSUM has 32}}
    %t = bir.memloc "t" internal : !bir.psum<64x4xf32>
  }
}

// -----

bir.func @f {
  // expected-error @+1 {{needs 32768 bytes per partition but the target's PSUM has 16384}}
  %t = bir.memloc "t" internal : !bir.psum<128x8192xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{needs both 'address' and 'base_partition' or neither}}
  %t = bir.memloc "t" internal address 0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{a DRAM tensor has no on-chip address}}
  %t = bir.memloc "t" input address 0 base_partition 0 : !bir.dram<128x4xf32>
}

// -----

// The last bytes of a trn1 partition, and one byte too many.
module attributes {bir.target = #bir.target<"trn1">} {
  bir.func @f {
    %fits = bir.memloc "fits" internal address 195584 base_partition 64 : !bir.sbuf<64x256xf32>
    // expected-error @+1 {{bytes [195585, 196609) do not fit the target's 196608 bytes per partition}}
    %t = bir.memloc "t" internal address 195585 base_partition 0 : !bir.sbuf<128x256xf32>
  }
}

// -----

bir.func @f {
  // expected-error @+1 {{partitions [65, 129) do not fit the target's 128}}
  %t = bir.memloc "t" internal address 0 base_partition 65 : !bir.sbuf<64x4xf32>
}

// -----

// expected-error @+1 {{expects parent op 'bir.func'}}
%t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{must stay in the memory of its source}}
  %v = bir.view %t : !bir.sbuf<128x4xf32> to !bir.psum<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{must keep the 128 partitions of its source}}
  %v = bir.view %t : !bir.sbuf<128x4xf32> to !bir.sbuf<64x8xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{covers 4096 bytes but its source has only 2048}}
  %v = bir.view %t : !bir.sbuf<128x4xf32> to !bir.sbuf<128x8xf32>
}

// -----

bir.func @f {
  // expected-note @+1 {{first member of the set}}
  %a = bir.memloc "a" internal set "s" : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal set "other" : !bir.psum<128x4xf32>
  // expected-error @+1 {{is in set 's' but not in the memory of its other members}}
  %c = bir.memloc "c" internal set "s" : !bir.psum<128x4xf32>
}

// -----

// Memory locations and views come first, then the instructions.
bir.func @late_memloc {
  %t = bir.memloc "t" internal : !bir.sbuf<8x8xf32>
  // expected-note @+1 {{the first instruction}}
  bir.memset %t[#bir.ap<0, [[8, 8], [1, 8]]>], 0.0 : !bir.sbuf<8x8xf32>
  // expected-error @+1 {{'bir.memloc' op must come before the function's first instruction}}
  %u = bir.memloc "u" internal : !bir.sbuf<8x8xf32>
}

// -----

bir.func @late_view {
  %t = bir.memloc "t" internal : !bir.sbuf<8x8xf32>
  // expected-note @+1 {{the first instruction}}
  bir.memset %t[#bir.ap<0, [[8, 8], [1, 8]]>], 0.0 : !bir.sbuf<8x8xf32>
  // expected-error @+1 {{'bir.view' op must come before the function's first instruction}}
  %v = bir.view %t : !bir.sbuf<8x8xf32> to !bir.sbuf<8x16xbf16>
}
