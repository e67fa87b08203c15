// RUN: walrus-opt %s -split-input-file -verify-diagnostics

// Numbers near 2^63 that used to wrap in the verifiers (address + bytes,
// step x (num - 1), start + extent, products of shapes, iv += step) are
// refused with the attribute and the value, before any sum is formed.

bir.func @address {
  // expected-error @+1 {{bytes [9223372036854775800, past 2^63) do not fit the target's 229376 bytes per partition}}
  %t = bir.memloc "t" internal address 9223372036854775800 base_partition 0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @base_partition {
  // expected-error @+1 {{partitions [9223372036854775800, past 2^63) do not fit the target's 128}}
  %t = bir.memloc "t" internal address 0 base_partition 9223372036854775800 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @shape {
  // expected-error @+1 {{!bir.dram has more than 2^48 bytes}}
  %t = bir.memloc "t" input : !bir.dram<128x4611686018427387904xf32>
}

// -----

bir.func @wide_element {
  // expected-error @+1 {{!bir.sbuf element type must be a whole-byte integer or float of at most 64 bits, got 'f128'}}
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf128>
}

// -----

bir.func @step {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{access pattern [4611686018427387904, 3] reaches past 2^48 elements}}
  bir.memset %t[#bir.ap<0, [[4, 128], [4611686018427387904, 3]]>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

bir.func @offset {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{access pattern offset 9223372036854775000 is past 2^48}}
  bir.memset %t[#bir.ap<9223372036854775000, [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @coefficient {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.loop 0 to 4 step 1 {
      // expected-error @+1 {{'dst_ap' start may leave +-2^62 for some iteration or core}}
      bir.memset %t[#bir.sap<(d0)[s0] -> (d0 * 4611686018427387904 + s0 * 4611686018427387904), [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
    }
  }
}

// -----

bir.func @induction {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{bound or step 9223372036854775800 is past 2^48}}
  bir.loop 9223372036854775800 to 9223372036854775806 step 4 {
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
  }
}

// -----

// A semi-affine pattern in a loop of 2^48 iterations: the points are
// counted before any is listed (found by utils/mutate_check.py; the
// verifier used to list every induction value first).
module attributes {bir.lnc_size = 4 : i64} {
  bir.func @semi_affine {
    %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
    bir.loop 0 to 281474976710656 step 1 {
      // expected-error @+1 {{cannot check the bounds of a semi-affine access pattern over more than 1048576 loop iterations}}
      bir.memset %t[#bir.sap<(d0)[s0] -> (s0), [[8, 127], [1, 2]], tile = (d0)[s0] -> ((s0 floordiv 2) * 2), block = (d0)[s0] -> (d0 * 4)>], 0.0 : !bir.sbuf<128x8xf32>
    }
  }
}

// -----

// A semi-affine pattern over 2^17 iterations on 4 cores (a mutation of the
// case above, found by utils/mutate_check.py): the verifier evaluates the
// start at each of the 524288 points without building expressions (it
// took minutes with AffineMap::compose) and names the first point out of
// bounds.
module attributes {bir.lnc_size = 4 : i64} {
  bir.func @semi_affine_many_points {
    %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
    bir.loop 0 to 281474976710656 step 2147483648 {
      // expected-error @+1 {{'bir.memset' op 'dst_ap' touches element 1125891316909046, outside the 1024 elements of 't' at d0 = 281472829227008, s0 = 3}}
      bir.memset %t[#bir.sap<(d0)[s0] -> (s0), [[8, 127], [1, 2]], tile = (d0)[s0] -> ((s0 floordiv 2) * 2), block = (d0)[s0] -> (d0 * 4)>], 0.0 : !bir.sbuf<128x8xf32>
    }
  }
}
