// RUN: walrus-opt %s -split-input-file -sb-alloc=sbuf-bytes=1024 -verify-diagnostics -o /dev/null
// RUN: not walrus-opt %s -sb-alloc=sbuf-bytes=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not walrus-opt %s -sb-alloc=dense-edges-per-node=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not walrus-opt %s -sb-alloc=dense-budget=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// RUN: not walrus-opt %s -split-input-file -sb-alloc=sbuf-bytes=100000000 -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAST-TARGET

// PAST-TARGET: error: sb-alloc: sbuf-bytes=100000000 exceeds the target's {{[0-9]+}} bytes per partition
// OPTION: error: sb-alloc: sbuf-bytes, search-budget and the dense- options must not be negative and max-iterations must be at least 1

bir.func @too_big {
  // expected-error @+1 {{'big' is too big for SB, requires 2048 bytes with SB size 1024}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x512xf32>
}

// -----

// The first tensor too big is the one named: not the clone memloc_split
// cuts from it for its second value, nor a later one.
bir.func @too_big_first {
  %small = bir.memloc "small" internal : !bir.sbuf<128x128xf32>
  // expected-error @+1 {{'reused' is too big for SB, requires 2048 bytes with SB size 1024}}
  %reused = bir.memloc "reused" internal : !bir.sbuf<128x512xf32>
  %later = bir.memloc "later" internal : !bir.sbuf<128x1024xf32>
  bir.memset %reused[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 : !bir.sbuf<128x512xf32>
  bir.memset %small[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xf32>
  bir.memset %reused[#bir.ap<0, [[512, 128], [1, 512]]>], 2.0 : !bir.sbuf<128x512xf32>
  bir.memset %later[#bir.ap<0, [[1024, 128], [1, 1024]]>], 1.0 : !bir.sbuf<128x1024xf32>
}

// -----

// One instruction's operands need 1536 bytes per partition at once.
bir.func @operands {
  %a = bir.memloc "a" internal : !bir.sbuf<128x128xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x128xf32>
  %c = bir.memloc "c" internal : !bir.sbuf<128x128xf32>
  bir.memset %a[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xf32>
  bir.memset %b[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xf32>
  // expected-error @+1 {{sb-alloc: the SBUF operands of this instruction do not fit in 1024 bytes per partition together}}
  bir.tensor_tensor add %c[#bir.ap<0, [[128, 128], [1, 128]]>], %a[#bir.ap<0, [[128, 128], [1, 128]]>], %b[#bir.ap<0, [[128, 128], [1, 128]]>]
    : !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
}

// -----

// Program inputs and outputs in SBUF cannot go to DRAM.
bir.func @boundary {
  // expected-error @+1 {{sb-alloc: cannot spill program input 'in': its contents cross the program boundary}}
  %in = bir.memloc "in" input : !bir.sbuf<128x192xf32>
  %out = bir.memloc "out" output : !bir.sbuf<128x192xf32>
  bir.tensor_scalar add %out[#bir.ap<0, [[192, 128], [1, 192]]>], %in[#bir.ap<0, [[192, 128], [1, 192]]>], 1.0
    : !bir.sbuf<128x192xf32>, !bir.sbuf<128x192xf32>
}
