// RUN: walrus-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

bir.func @f {
  %t = "test.tensor"() : () -> !bir.sbuf<128x4xf32>
  // expected-error @+1 {{operand of 'dst_ap' must be defined by bir.memloc or bir.view}}
  bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst_ap' touches element 512, outside the 512 elements of 't'}}
  bir.memset %t[#bir.ap<1, [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst_ap' touches element -1, outside the 512 elements of 't'}}
  bir.memset %t[#bir.ap<3, [[4, 128], [-1, 5]]>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<64x8xf32>
  // expected-error @+1 {{'dst_ap' walks 128 partitions but the tensor has 64}}
  bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<64x8xf32>
}

// -----

// Symbolic patterns are checked for every shard id of the module.
module attributes {bir.lnc_size = 4 : i64} {
  bir.func @f {
    %x = bir.memloc "x" input : !bir.dram<384x4xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{'src_ap' touches element 2047, outside the 1536 elements of 'x' at s0 = 3}}
    bir.dma %t[#bir.ap<0, [[4, 128], [1, 4]]>],
            %x[#bir.sap<()[s0] -> (s0 * 512), [[4, 128], [1, 4]]>]
      : !bir.sbuf<128x4xf32>, !bir.dram<384x4xf32>
  }
}

// -----

// ... and for every iteration of the enclosing loops.
bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4x8xf32>
  bir.loop 0 to 2 step 1 {
    bir.loop 1 to 10 step 4 {
      // expected-error @+1 {{'dst_ap' touches element 4103, outside the 4096 elements of 't' at d0 = 1, d1 = 9, s0 = 0}}
      bir.memset %t[#bir.sap<(d0, d1)[s0] -> (d0 * 8 + d1 * 3 - 3), [[32, 128], [1, 8]]>], 0.0
        : !bir.sbuf<128x4x8xf32>
    }
  }
}

// -----

// Semi-affine patterns are evaluated at every iteration, not only the corners.
bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
  bir.loop 0 to 8 step 1 {
    // expected-error @+1 {{'dst_ap' touches element 1026, outside the 1024 elements of 't' at d0 = 2, s0 = 0}}
    bir.memset %t[#bir.sap<(d0)[s0] -> ((d0 * 5) mod 11), [[8, 128], [1, 1]]>], 0.0
      : !bir.sbuf<128x8xf32>
  }
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
  bir.loop 0 to 2048 step 1 {
    bir.loop 0 to 1024 step 1 {
      // expected-error @+1 {{cannot check the bounds of a semi-affine access pattern over more than 1048576 loop iterations}}
      bir.memset %t[#bir.sap<(d0, d1)[s0] -> ((d0 + d1) mod 8), [[8, 128], [1, 1]]>], 0.0
        : !bir.sbuf<128x8xf32>
    }
  }
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
  bir.loop 0 to 2 step 1 {
    // expected-error @+1 {{'dst_ap' uses 2 loop dims but the instruction is nested in 1 bir.loop(s)}}
    bir.memset %t[#bir.sap<(d0, d1)[s0] -> (d1), [[8, 128], [1, 1]]>], 0.0
      : !bir.sbuf<128x8xf32>
  }
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
  bir.loop 0 to 2 step 1 {
    // expected-error @+1 {{mask may only mention the shard id (symbol s0), but it has 1 dim(s) and 1 symbol(s)}}
    bir.memset %t[#bir.ap<0, [[8, 128], [1, 8]]>], 0.0
      {mask = affine_set<(d0)[s0] : (d0 - s0 == 0)>} : !bir.sbuf<128x8xf32>
  }
}

// -----

bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
  // expected-error @+1 {{mask may only mention the shard id (symbol s0), but it has 0 dim(s) and 2 symbol(s)}}
  bir.memset %t[#bir.ap<0, [[8, 128], [1, 8]]>], 0.0
    {mask = affine_set<()[s0, n] : (n - s0 >= 0)>} : !bir.sbuf<128x8xf32>
}

// -----

// A concretized module checks shard-dependent patterns for its own core only.
module attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
  bir.func @f {
    %x = bir.memloc "x" input : !bir.dram<256x4xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{'src_ap' touches element 1535, outside the 1024 elements of 'x' at s0 = 1}}
    bir.dma %t[#bir.ap<0, [[4, 128], [1, 4]]>],
            %x[#bir.sap<()[s0] -> (s0 * 1024), [[4, 128], [1, 4]]>]
      : !bir.sbuf<128x4xf32>, !bir.dram<256x4xf32>
  }
}

// -----

// A mask that divides by zero is rejected: the verifier evaluates masks to
// know where an instruction runs.
module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{mask divides by 0; a divisor must be a positive constant}}
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 {mask = affine_set<()[s0] : (s0 mod 0 >= 0)>} : !bir.sbuf<128x4xf32>
  }
}

// -----

// A masked instruction is checked only on the cores it runs on: this tile
// is out of bounds on core 1, where the mask keeps it from running (no
// diagnostic).
module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %y = bir.memloc "y" output : !bir.dram<130x4xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.dma %y[#bir.sap<()[s0] -> (s0 * 512), [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>] {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.dram<130x4xf32>, !bir.sbuf<128x4xf32>
  }
}

// -----

// Without the mask, core 1 would write past the tensor.
module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %y = bir.memloc "y" output : !bir.dram<130x4xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{'dst_ap' touches element}}
    bir.dma %y[#bir.sap<()[s0] -> (s0 * 512), [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>] : !bir.dram<130x4xf32>, !bir.sbuf<128x4xf32>
  }
}
