// RUN: walrus-opt %s -split-input-file -verify-diagnostics

bir.func @f {
  // expected-error @+1 {{!bir.sbuf needs a partition dimension and a free shape}}
  %t = bir.memloc "t" internal : !bir.sbuf<128xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{!bir.psum needs a partition dimension and a free shape}}
  %t = bir.memloc "t" internal : !bir.psum<128xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{!bir.dram needs at least one dimension}}
  %t = bir.memloc "t" input : !bir.dram<f32>
}

// -----

bir.func @f {
  // expected-error @+1 {{!bir.sbuf dimensions must be positive, got 0}}
  %t = bir.memloc "t" internal : !bir.sbuf<128x0xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{!bir.sbuf element type must be a whole-byte integer or float of at most 64 bits, got 'i1'}}
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xi1>
}

// -----

bir.func @f {
  // expected-error @+1 {{!bir.dram element type must be a whole-byte integer or float of at most 64 bits, got 'index'}}
  %t = bir.memloc "t" input : !bir.dram<128x4xindex>
}

// -----

bir.func @f {
  // expected-error @+1 {{expected static shape}}
  %t = bir.memloc "t" input : !bir.dram<?x4xf32>
}
