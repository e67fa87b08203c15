// RUN: walrus-opt %s -split-input-file -verify-diagnostics

// Division or modulo by zero, by a negative constant or by the shard id
// (zero on core 0) in any map a core evaluates is a verifier error naming
// the map: evaluating it would divide by zero.

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{symbolic access pattern offset map divides by 0; a divisor must be a positive constant}}
    bir.memset %t[#bir.sap<()[s0] -> (s0 mod 0), [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
  }
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.loop 0 to 4 step 1 {
      // expected-error @+1 {{symbolic access pattern offset map divides by -2; a divisor must be a positive constant}}
      bir.memset %t[#bir.sap<(d0)[s0] -> (d0 floordiv -2), [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
    }
  }
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.loop 0 to 4 step 1 {
      // expected-error @+1 {{symbolic access pattern block map divides by s0; a divisor must be a positive constant}}
      bir.memset %t[#bir.sap<(d0)[s0] -> (0), [[4, 128], [1, 4]], block = (d0)[s0] -> (d0 ceildiv s0)>], 0.0 : !bir.sbuf<128x4xf32>
    }
  }
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{'bir.memset' op mask divides by 0; a divisor must be a positive constant}}
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 {mask = affine_set<()[s0] : (s0 mod 0 >= 0)>} : !bir.sbuf<128x4xf32>
  }
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{'bir.memset' op mask divides by -3; a divisor must be a positive constant}}
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 {mask = affine_set<()[s0] : (s0 floordiv -3 == 0)>} : !bir.sbuf<128x4xf32>
  }
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<2x4xf32>
    // expected-error @+1 {{'bir.sb2sb' op 'peer' divides by 0; a divisor must be a positive constant}}
    bir.sb2sb %t[#bir.ap<0, [[4, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>] peer affine_map<()[s0] -> (s0 mod 0)> : !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  }
}
