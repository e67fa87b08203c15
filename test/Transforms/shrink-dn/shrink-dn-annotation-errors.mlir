// RUN: walrus-opt %s -split-input-file -verify-diagnostics

bir.func @f {
  // expected-error @+1 {{'bir.live_n' (2) must be the extent of dimension 1 (4)}}
  %t = bir.memloc "t" internal {bir.shrink_dim = 1 : i64, bir.live_n = 2 : i64} : !bir.sbuf<8x4x4xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{'bir.shrink_dim' must name a free dimension of the memory location}}
  %t = bir.memloc "t" internal {bir.shrink_dim = 0 : i64} : !bir.sbuf<8x4x4xf32>
}

// -----

// expected-error @+1 {{'bir.live_n' belongs on a bir.memloc}}
bir.func @f attributes {bir.live_n = 1 : i64} {
}

// -----

bir.func @spill_home_on_sbuf {
  // expected-error @+1 {{'bir.spill_home' is a unit attribute of a DRAM bir.memloc}}
  %t = bir.memloc "t" internal {bir.spill_home} : !bir.sbuf<8x4xf32>
}

// -----

bir.func @spill_home_not_unit {
  // expected-error @+1 {{'bir.spill_home' is a unit attribute of a DRAM bir.memloc}}
  %t = bir.memloc "t" internal {bir.spill_home = 1 : i64} : !bir.dram<8x4xf32>
}
