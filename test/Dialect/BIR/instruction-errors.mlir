// RUN: walrus-opt %s -split-input-file -verify-diagnostics

bir.func @f {
  %a = bir.memloc "a" internal : !bir.psum<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{between on-chip tensors needs SBUF on both sides}}
  bir.dma %a[#bir.ap<0, [[4, 128], [1, 4]]>], %b[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.psum<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<128x4xf32>
  %b = bir.memloc "b" output : !bir.dram<128x4xf32>
  // expected-error @+1 {{needs exactly one DRAM side}}
  bir.dma %b[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.dram<128x4xf32>, !bir.dram<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<128x4xbf16>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{element types of 'dst' ('f32') and 'src' ('bf16') must match}}
  bir.dma %t[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<128x4xbf16>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<128x4xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' touches 512 elements but 'src' touches 256}}
  bir.dma %t[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 2]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<128x4xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'src' must be an on-chip tensor}}
  bir.tensor_copy %t[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xbf16>
  // expected-error @+1 {{'dst' touches 512 elements but 'src' touches 128}}
  bir.tensor_copy %t[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 1]]>]
    : !bir.sbuf<128x4xbf16>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" output : !bir.dram<128x4xf32>
  // expected-error @+1 {{'dst' must be an on-chip tensor}}
  bir.memset %a[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 : !bir.dram<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x64xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<64x128xbf16>
  // expected-error @+1 {{element types of 'dst' ('bf16') and 'src' ('f32') must match}}
  bir.transpose %b[#bir.ap<0, [[128, 64], [1, 128]]>], %a[#bir.ap<0, [[64, 128], [1, 64]]>]
    : !bir.sbuf<64x128xbf16>, !bir.sbuf<128x64xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x64xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<64x128xf32>
  // expected-error @+1 {{'dst' must be 64x128 (partitions x free) to transpose a 128x64 'src', got 64x64}}
  bir.transpose %b[#bir.ap<0, [[128, 64], [1, 64]]>], %a[#bir.ap<0, [[64, 128], [1, 64]]>]
    : !bir.sbuf<64x128xf32>, !bir.sbuf<128x64xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<128x64xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<64x128xf32>
  // expected-error @+1 {{'src' must be an on-chip tensor}}
  bir.transpose %b[#bir.ap<0, [[128, 64], [1, 128]]>], %a[#bir.ap<0, [[64, 128], [1, 64]]>]
    : !bir.sbuf<64x128xf32>, !bir.dram<128x64xf32>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.sbuf<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{must write its result to PSUM}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 128], [1, 512]]>]
    : !bir.sbuf<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.psum<128x128xf32>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xf32>
  // expected-error @+1 {{'stationary' must be in SBUF}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 128], [1, 512]]>]
    : !bir.psum<128x512xf32>, !bir.psum<128x128xf32>, !bir.sbuf<128x512xf32>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xf32>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{element types of 'stationary' ('f32') and 'moving' ('bf16') must match}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 128], [1, 512]]>]
    : !bir.psum<128x512xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xbf16>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{accumulates in f32 or i32, not 'bf16'}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 128], [1, 512]]>]
    : !bir.psum<128x512xbf16>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{'stationary' must walk the 64 partitions of the contraction, got 128}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 64], [1, 512]]>]
    : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{'dst' must be 64x512 (stationary free x moving free), got 128x512}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 64]]>],
              %x[#bir.ap<0, [[512, 128], [1, 512]]>]
    : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x1024xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x1024xbf16>
  // expected-error @+1 {{'moving' has 1024 columns but the tensor engine takes at most 512}}
  bir.matmult %acc[#bir.ap<0, [[1024, 128], [1, 1024]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[1024, 128], [1, 1024]]>]
    : !bir.psum<128x1024xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x1024xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x256xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{'stationary' has 256 columns but the tensor engine takes at most 128}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[256, 128], [1, 256]]>],
              %x[#bir.ap<0, [[512, 128], [1, 512]]>]
    : !bir.psum<128x512xf32>, !bir.sbuf<128x256xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{replicas every 32 partitions overlap a 64-partition 'moving' operand}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 64], [1, 512]]>]
              replication <factor = 4, partition_stride = 32, shift = 1>
    : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" input : !bir.dram<128x4xf32>
  // expected-error @+1 {{'src' must be an on-chip tensor}}
  bir.activation exp %a[#bir.ap<0, [[4, 128], [1, 4]]>], %b[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<128x4xf32>
}

// -----

// The generic form can give a bias without its pattern, or the other way.
bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'bias' and 'bias_ap' go together}}
  "bir.activation"(%a, %a) <{bias_ap = #bir.ap<0, [[4, 128], [0, 4]]>, dst_ap = #bir.ap<0, [[4, 128], [1, 4]]>, function = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 0>, scale = 1.000000e+00 : f64, src_ap = #bir.ap<0, [[4, 128], [1, 4]]>}> : (!bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>) -> ()
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'bias' and 'bias_ap' go together}}
  "bir.activation"(%a, %a, %a) <{dst_ap = #bir.ap<0, [[4, 128], [1, 4]]>, function = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.000000e+00 : f64, src_ap = #bir.ap<0, [[4, 128], [1, 4]]>}> : (!bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>) -> ()
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x1xbf16>
  // expected-error @+1 {{'bias' must hold f32}}
  bir.activation exp %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] bias %b[#bir.ap<0, [[1, 128], [0, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x1xbf16>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'bias' must be one value per partition (its pattern steps 0 along the free dimensions)}}
  bir.activation exp %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] bias %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x1xf32>
  // expected-error @+1 {{'dst' touches 512 elements but 'bias' touches 256}}
  bir.activation exp %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] bias %b[#bir.ap<0, [[1, 64], [0, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x1xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" input : !bir.dram<128x1xf32>
  // expected-error @+1 {{'bias' must be an on-chip tensor}}
  bir.activation exp %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] bias %b[#bir.ap<0, [[1, 128], [0, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.dram<128x1xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'scales' and 'scales_ap' go together}}
  "bir.activation"(%a, %a, %a) <{dst_ap = #bir.ap<0, [[4, 128], [1, 4]]>, function = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 0, 1>, scale = 1.000000e+00 : f64, src_ap = #bir.ap<0, [[4, 128], [1, 4]]>}> : (!bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>) -> ()
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x1xbf16>
  // expected-error @+1 {{'scales' must hold f32}}
  bir.activation identity %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] scales %b[#bir.ap<0, [[1, 128], [0, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x1xbf16>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'scales' must be one value per partition (its pattern steps 0 along the free dimensions)}}
  bir.activation identity %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] scales %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x1xf32>
  // expected-error @+1 {{'scales' and a 'scale' other than 1 exclude each other}}
  bir.activation identity %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] scales %b[#bir.ap<0, [[1, 128], [0, 4]]>] scale 2.0
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x1xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x1xf32>
  // expected-error @+1 {{'dst' touches 512 elements but 'scales' touches 256}}
  bir.activation identity %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] bias %b[#bir.ap<0, [[1, 128], [0, 4]]>] scales %b[#bir.ap<0, [[1, 64], [0, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' touches 512 elements but 'src' touches 384}}
  bir.activation exp %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 3]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" output : !bir.dram<128x4xf32>
  // expected-error @+1 {{'dst' must be an on-chip tensor}}
  bir.tensor_tensor add %b[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>],
                        %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.dram<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' touches 512 elements but 'rhs' touches 128}}
  bir.tensor_tensor add %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>],
                        %a[#bir.ap<0, [[4, 128], [1, 1]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' touches 128 elements but 'src' touches 512}}
  bir.tensor_scalar add %a[#bir.ap<0, [[4, 128], [1, 1]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], 1.0
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' must touch 128 elements (the 'src' pattern without its last dimension), got 256}}
  bir.tensor_reduce add %a[#bir.ap<0, [[4, 128], [1, 2]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" input : !bir.dram<128x4xf32>
  // expected-error @+1 {{'src' must be an on-chip tensor}}
  bir.tensor_reduce add %a[#bir.ap<0, [[4, 128], [1, 1]]>], %b[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'all_reduce' needs 'reduce' operation}}
  bir.collective all_reduce %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'all_gather' takes no 'reduce' operation}}
  bir.collective all_gather %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 2]]>]
    reduce add shard_offset affine_map<()[s0] -> (s0 * 2)>
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'all_gather' needs 'shard_offset'}}
  bir.collective all_gather %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 2]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'all_reduce' takes no 'shard_offset'}}
  bir.collective all_reduce %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    reduce add shard_offset affine_map<()[s0] -> (s0)>
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'shard_offset' must be a single-result map of the shard id alone, like ()[s0] -> (s0)}}
  bir.collective all_gather %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 2]]>]
    shard_offset affine_map<(d0)[s0] -> (d0 + s0)>
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x4xbf16>
  // expected-error @+1 {{element types of 'dst' ('f32') and 'src' ('bf16') must match}}
  bir.collective all_reduce %a[#bir.ap<0, [[4, 128], [1, 4]]>], %b[#bir.ap<0, [[4, 128], [1, 4]]>]
    reduce max : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xbf16>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' touches 512 elements but 'src' touches 256}}
  bir.collective all_reduce %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 2]]>]
    reduce max : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  // expected-error @+1 {{needs a name}}
  bir.core_barrier ""
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %p = bir.memloc "p" internal : !bir.psum<128x4xf32>
  // expected-error @+1 {{'dst' must be in SBUF}}
  bir.sb2sb %p[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    peer affine_map<()[s0] -> (0)> : !bir.psum<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'peer' must be a single-result map of the shard id alone, like ()[s0] -> (s0)}}
  bir.sb2sb %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    peer affine_map<()[s0] -> (s0, 0)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @f {
    %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{peer of shard 1 is core 2, outside [0, 2)}}
    bir.sb2sb %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
      peer affine_map<()[s0] -> (s0 + 1)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
  }
}

// -----

// expected-error @+1 {{expects parent op to be one of 'bir.func, bir.loop'}}
bir.core_barrier "outside"

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // expected-error @+1 {{5 replicas span 160 partitions but the target has 128}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 32], [1, 512]]>]
              replication <factor = 5, partition_stride = 32, shift = 1>
    : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x128xbf16>
  %x = bir.memloc "x" internal : !bir.sbuf<128x512xbf16>
  // Four replicas of 20 channels every 32 partitions contract over 116.
  // expected-error @+1 {{'stationary' must walk the 116 partitions of the contraction, got 128}}
  bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
              %x[#bir.ap<0, [[512, 20], [1, 512]]>]
              replication <factor = 4, partition_stride = 32, shift = 1>
    : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xi64>
  // expected-error @below {{integer immediate does not fit in i64}}
  bir.memset %a[#bir.ap<0, [[4, 128], [1, 4]]>], 9223372036854775808 : !bir.sbuf<128x4xi64>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xi64>
  // expected-error @below {{integer immediate does not fit in i64}}
  bir.tensor_scalar add %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], -9223372036854775809 : !bir.sbuf<128x4xi64>, !bir.sbuf<128x4xi64>
}

// -----

// Every core's slice of a gather or scatter lies inside the whole, the
// shard offset evaluated without overflow (it used to pass every verifier,
// and only walrus-run noticed).
module attributes {bir.lnc_size = 2 : i64} {
bir.func @f {
  %f = bir.memloc "f" internal : !bir.sbuf<128x512xf32>
  // expected-error @+1 {{'shard_offset' of shard 1 is 9223372036854775807: its 32768 element(s) must lie in the 65536 of 'dst'}}
  bir.collective all_gather %f[#bir.ap<0, [[512, 128], [1, 512]]>], %f[#bir.ap<0, [[512, 128], [1, 256]]>]
    shard_offset affine_map<()[s0] -> (s0 * 9223372036854775807)>
    : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
}
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
bir.func @f {
  %f = bir.memloc "f" internal : !bir.sbuf<128x512xf32>
  // expected-error @+1 {{'shard_offset' of shard 0 overflows 64 bits: its 32768 element(s) must lie in the 65536 of 'src'}}
  bir.collective reduce_scatter %f[#bir.ap<0, [[512, 128], [1, 256]]>], %f[#bir.ap<0, [[512, 128], [1, 512]]>]
    reduce add shard_offset affine_map<()[s0] -> ((s0 + 9223372036854775807) * 2)>
    : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
}
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
bir.func @f {
  %f = bir.memloc "f" internal : !bir.sbuf<128x512xf32>
  // expected-error @+1 {{'shard_offset' of shard 0 is -1: its 32768 element(s) must lie in the 65536 of 'src'}}
  bir.collective reduce_scatter %f[#bir.ap<0, [[512, 128], [1, 256]]>], %f[#bir.ap<0, [[512, 128], [1, 512]]>]
    reduce add shard_offset affine_map<()[s0] -> (s0 * 32768 - 1)>
    : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
}
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xi64>
  // A doubled minus is no immediate (it once read as -15).
  // expected-error @below {{expected floating point literal}}
  bir.memset %a[#bir.ap<0, [[4, 128], [1, 4]]>], --1 : !bir.sbuf<128x4xi64>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %i = bir.memloc "i" internal : !bir.sbuf<128x1xi32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'src' must be a DRAM tensor (the table the rows are gathered from)}}
  bir.dma_gather %t[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 8], [1, 4]]>], %i[#bir.ap<0, [[1, 2], [1, 1]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x1xi32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<8x4xf32>
  %i = bir.memloc "i" input : !bir.dram<2x1xi32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' and 'indices' must be SBUF tensors}}
  bir.dma_gather %t[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 8], [1, 4]]>], %i[#bir.ap<0, [[1, 2], [1, 1]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<8x4xf32>, !bir.dram<2x1xi32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<8x4xf32>
  %i = bir.memloc "i" internal : !bir.sbuf<128x1xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'indices' must hold integers}}
  bir.dma_gather %t[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 8], [1, 4]]>], %i[#bir.ap<0, [[1, 2], [1, 1]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<8x4xf32>, !bir.sbuf<128x1xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<8x4xbf16>
  %i = bir.memloc "i" internal : !bir.sbuf<128x1xi32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{element types of 'dst' ('f32') and 'src' ('bf16') must match}}
  bir.dma_gather %t[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 8], [1, 4]]>], %i[#bir.ap<0, [[1, 2], [1, 1]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<8x4xbf16>, !bir.sbuf<128x1xi32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<8x4xf32>
  %i = bir.memloc "i" internal : !bir.sbuf<128x1xi32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'src' pattern must be [[row_step, rows], [step, width]]: the table's rows}}
  bir.dma_gather %t[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[32, 1], [4, 8], [1, 4]]>], %i[#bir.ap<0, [[1, 2], [1, 1]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<8x4xf32>, !bir.sbuf<128x1xi32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" input : !bir.dram<8x4xf32>
  %i = bir.memloc "i" internal : !bir.sbuf<128x1xi32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' must have one partition of 4 elements (a table row) per index: 3 indices, 'dst' 2 partitions of 4 elements}}
  bir.dma_gather %t[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 8], [1, 4]]>], %i[#bir.ap<0, [[1, 3], [1, 1]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<8x4xf32>, !bir.sbuf<128x1xi32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{reduces with 'is_gt', a comparison, not an operation that combines values}}
  bir.tensor_reduce is_gt %a[#bir.ap<0, [[4, 128], [1, 1]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{reduces with 'is_equal', a comparison, not an operation that combines values}}
  bir.collective all_reduce %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    reduce is_equal : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %p = bir.memloc "p" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'predicate' must hold integers, not 'f32'}}
  bir.tensor_copy_predicated %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    if %p[#bir.ap<0, [[4, 128], [1, 4]]>] : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x4xbf16>
  %p = bir.memloc "p" internal : !bir.sbuf<128x4xi8>
  // expected-error @+1 {{element types of 'dst' ('f32') and 'src' ('bf16') must match}}
  bir.tensor_copy_predicated %a[#bir.ap<0, [[4, 128], [1, 4]]>], %b[#bir.ap<0, [[4, 128], [1, 4]]>]
    if %p[#bir.ap<0, [[4, 128], [1, 4]]>] : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xbf16>, !bir.sbuf<128x4xi8>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %p = bir.memloc "p" internal : !bir.sbuf<128x4xi8>
  // expected-error @+1 {{'dst' touches 512 elements but 'predicate' touches 256}}
  bir.tensor_copy_predicated %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    if %p[#bir.ap<0, [[4, 128], [1, 2]]>] : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xi8>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %d = bir.memloc "d" input : !bir.dram<128x4xi8>
  // expected-error @+1 {{'predicate' must be an on-chip tensor}}
  bir.tensor_copy_predicated %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>]
    if %d[#bir.ap<0, [[4, 128], [1, 4]]>] : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.dram<128x4xi8>
}

// -----

// The engine an elementwise instruction names must run it: tensor_tensor
// runs on the vector or GpSimd engine.
bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{cannot run on the scalar engine; it runs on vector or gpsimd}}
  bir.tensor_tensor add %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>] on scalar
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{cannot run on the scalar engine; it runs on vector or gpsimd}}
  bir.memset %a[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 on scalar : !bir.sbuf<128x4xf32>
}

// -----

// The scalar engine multiplies and adds, nothing else.
bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'subtract' cannot run on the scalar engine, which only multiplies and adds}}
  bir.tensor_scalar subtract %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], 1.0 on scalar
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

// GpSimd cannot reach PSUM.
bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %p = bir.memloc "p" internal : !bir.psum<128x4xf32>
  // expected-error @+1 {{cannot run on the gpsimd engine: it reads or writes PSUM, which GpSimd cannot reach}}
  bir.tensor_copy %a[#bir.ap<0, [[4, 128], [1, 4]]>], %p[#bir.ap<0, [[4, 128], [1, 4]]>] on gpsimd
    : !bir.sbuf<128x4xf32>, !bir.psum<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'op1' is 'is_lt', a comparison, not an operation a recurrence combines values with}}
  bir.tensor_tensor_scan multiply, is_lt %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'data1' rows of 2 elements differ from 'dst' rows of 4}}
  bir.tensor_tensor_scan multiply, add %a[#bir.ap<0, [[4, 64], [1, 4]]>], %a[#bir.ap<0, [[4, 64], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 2]]>], 0.0
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %p = bir.memloc "p" internal : !bir.psum<128x4xf32>
  // expected-error @+1 {{'data0' and 'data1' cannot both be in PSUM}}
  bir.tensor_tensor_scan multiply, add %a[#bir.ap<0, [[4, 128], [1, 4]]>], %p[#bir.ap<0, [[4, 128], [1, 4]]>], %p[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0
    : !bir.sbuf<128x4xf32>, !bir.psum<128x4xf32>, !bir.psum<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  %d = bir.memloc "d" input : !bir.dram<128x4xf32>
  // expected-error @+1 {{'data0' must be an on-chip tensor}}
  bir.tensor_tensor_scan multiply, add %a[#bir.ap<0, [[4, 128], [1, 4]]>], %d[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0
    : !bir.sbuf<128x4xf32>, !bir.dram<128x4xf32>, !bir.sbuf<128x4xf32>
}

// -----

bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x4xf32>
  // expected-error @+1 {{'dst' touches 512 elements but 'data1' touches 256}}
  bir.tensor_tensor_scan multiply, add %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 128], [1, 4]]>], %a[#bir.ap<0, [[4, 64], [1, 4]]>], 0.0
    : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
}
