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
