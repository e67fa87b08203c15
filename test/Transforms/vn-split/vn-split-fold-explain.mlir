// RUN: walrus-opt %s -split-input-file -vn-split=explain -verify-diagnostics -o /dev/null

// Every rule that blocks a fold, as a remark on the temporary. The
// temporaries are whole (one group each): their split remark comes first.

bir.func @converts {
  // expected-remark @+1 {{vn-split: not splitting 'src': its accesses form one group}}
  %src = bir.memloc "src" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+2 {{vn-split: not splitting 'tmp': its accesses form one group}}
  // expected-remark @+1 {{vn-split: not folding 'tmp': the copy converts the element type}}
  %tmp = bir.memloc "tmp" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
  %dst = bir.memloc "dst" internal : !bir.sbuf<8x8xbf16>
  bir.activation exp %tmp[#bir.ap<0, [[8, 8], [1, 8]]>], %src[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 8]]>], %tmp[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xbf16>, !bir.sbuf<8x8xf32>
}

// -----

bir.func @partial {
  // expected-remark @+1 {{vn-split: not splitting 'src': its accesses form one group}}
  %src = bir.memloc "src" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+2 {{vn-split: not splitting 'tmp': its accesses form one group}}
  // expected-remark @+1 {{vn-split: not folding 'tmp': the copy does not read exactly what was written}}
  %tmp = bir.memloc "tmp" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
  %dst = bir.memloc "dst" internal : !bir.sbuf<8x8xf32>
  bir.activation exp %tmp[#bir.ap<0, [[8, 8], [1, 8]]>], %src[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 4]]>], %tmp[#bir.ap<0, [[8, 8], [1, 4]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
}

// -----

bir.func @between {
  // expected-remark @+1 {{vn-split: not splitting 'src': its accesses form one group}}
  %src = bir.memloc "src" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+2 {{vn-split: not splitting 'tmp': its accesses form one group}}
  // expected-remark @+1 {{vn-split: not folding 'tmp': 'dst' is accessed between the producer and the copy}}
  %tmp = bir.memloc "tmp" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
  %dst = bir.memloc "dst" internal : !bir.sbuf<8x8xf32>
  bir.activation exp %tmp[#bir.ap<0, [[8, 8], [1, 8]]>], %src[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.tensor_scalar add %src[#bir.ap<0, [[8, 8], [1, 8]]>], %dst[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 8]]>], %tmp[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
}

// -----

bir.func @blocks {
  // expected-remark @+1 {{vn-split: not splitting 'src': its accesses form one group}}
  %src = bir.memloc "src" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+2 {{vn-split: not splitting 'tmp': its accesses form one group}}
  // expected-remark @+1 {{vn-split: not folding 'tmp': the producer and the copy are not in one block, producer first}}
  %tmp = bir.memloc "tmp" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
  %dst = bir.memloc "dst" internal : !bir.sbuf<8x8xf32>
  bir.activation exp %tmp[#bir.ap<0, [[8, 8], [1, 8]]>], %src[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.loop 0 to 2 step 1 {
    bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 8]]>], %tmp[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  }
}

// -----

module attributes {bir.lnc_size = 2 : i64} {
  bir.func @masks {
    // expected-remark @+1 {{vn-split: not splitting 'src': its accesses form one group}}
    %src = bir.memloc "src" internal : !bir.sbuf<8x8xf32>
    // expected-remark @+2 {{vn-split: not splitting 'tmp': its accesses form one group}}
    // expected-remark @+1 {{vn-split: not folding 'tmp': the producer and the copy have different masks}}
    %tmp = bir.memloc "tmp" internal : !bir.sbuf<8x8xf32>
    // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
    %dst = bir.memloc "dst" internal : !bir.sbuf<8x8xf32>
    bir.activation exp %tmp[#bir.ap<0, [[8, 8], [1, 8]]>], %src[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
    bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 8]]>], %tmp[#bir.ap<0, [[8, 8], [1, 8]]>] {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  }
}

// -----

bir.func @more_uses {
  // expected-remark @+1 {{vn-split: not splitting 'src': its accesses form one group}}
  %src = bir.memloc "src" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+2 {{vn-split: not splitting 'tmp': its accesses form one group}}
  // expected-remark @+1 {{vn-split: not folding 'tmp': it has 3 accesses, not one write and one copy}}
  %tmp = bir.memloc "tmp" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
  %dst = bir.memloc "dst" internal : !bir.sbuf<8x8xf32>
  bir.activation exp %tmp[#bir.ap<0, [[8, 8], [1, 8]]>], %src[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 8]]>], %tmp[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.tensor_copy %src[#bir.ap<0, [[8, 8], [1, 8]]>], %tmp[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
}

// -----

bir.func @accumulates {
  // expected-remark @+1 {{vn-split: not splitting 'w': its accesses form one group}}
  %w = bir.memloc "w" internal : !bir.sbuf<8x8xbf16>
  // expected-remark @+2 {{vn-split: not splitting 'acc': its accesses form one group}}
  // expected-remark @+1 {{vn-split: not folding 'acc': its other access is not a plain write}}
  %acc = bir.memloc "acc" internal : !bir.psum<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
  %dst = bir.memloc "dst" internal : !bir.psum<8x8xf32>
  bir.matmult %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 8], [1, 8]]>], %w[#bir.ap<0, [[8, 8], [1, 8]]>] stop
    : !bir.psum<8x8xf32>, !bir.sbuf<8x8xbf16>, !bir.sbuf<8x8xbf16>
  bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 8]]>], %acc[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.psum<8x8xf32>, !bir.psum<8x8xf32>
}

// -----

bir.func @program_output_stays {
  // expected-remark @+1 {{vn-split: not splitting 'src': its accesses form one group}}
  %src = bir.memloc "src" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+2 {{vn-split: not splitting 'out': it is a program output}}
  // expected-remark @+1 {{vn-split: not folding 'out': it is not a plain internal tensor}}
  %out = bir.memloc "out" output : !bir.sbuf<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'dst': its accesses form one group}}
  %dst = bir.memloc "dst" internal : !bir.sbuf<8x8xf32>
  bir.activation exp %out[#bir.ap<0, [[8, 8], [1, 8]]>], %src[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.tensor_copy %dst[#bir.ap<0, [[8, 8], [1, 8]]>], %out[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
}
