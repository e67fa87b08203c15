// RUN: walrus-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'bir.lnc_size' must be 1 to 128, got 0}}
module attributes {bir.lnc_size = 0 : i64} {}

// -----

// expected-error @+1 {{'bir.lnc_size' must be an i64 integer}}
module attributes {bir.lnc_size = "two"} {}

// -----

// expected-error @+1 {{'bir.neuron_core_id' 2 is outside [0, lnc_size = 2)}}
module attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 2 : i64} {}

// -----

// A module without bir.lnc_size is a single-core program.
// expected-error @+1 {{'bir.neuron_core_id' 1 is outside [0, lnc_size = 1)}}
module attributes {bir.neuron_core_id = 1 : i64} {}

// -----

// expected-error @+1 {{'bir.target' must be a #bir.target attribute}}
module attributes {bir.target = "trn2"} {}

// -----

// expected-error @+1 {{unknown bir attribute 'bir.lnc'}}
module attributes {bir.lnc = 2 : i64} {}

// -----

// expected-error @+1 {{'bir.lnc_size' belongs on a builtin.module}}
bir.func @f attributes {bir.lnc_size = 2 : i64} {
}

// -----

// bir.rotating marks a multi-buffered SBUF or PSUM tile with its index.
bir.func @rotating_on_dram {
  // expected-error @+1 {{'bir.rotating' is the non-negative i64 buffer index of an SBUF or PSUM bir.memloc}}
  %t = bir.memloc "t" internal {bir.rotating = 1 : i64} : !bir.dram<8x4xf32>
}

// -----

bir.func @rotating_negative {
  // expected-error @+1 {{'bir.rotating' is the non-negative i64 buffer index of an SBUF or PSUM bir.memloc}}
  %t = bir.memloc "t" internal {bir.rotating = -1 : i64} : !bir.sbuf<8x4xf32>
}

// -----

bir.func @rotating_not_integer {
  // expected-error @+1 {{'bir.rotating' is the non-negative i64 buffer index of an SBUF or PSUM bir.memloc}}
  %t = bir.memloc "t" internal {bir.rotating} : !bir.psum<8x4xf32>
}

// -----

// expected-error @+1 {{'bir.rotating' is the non-negative i64 buffer index of an SBUF or PSUM bir.memloc}}
bir.func @rotating_on_func attributes {bir.rotating = 0 : i64} {
}
