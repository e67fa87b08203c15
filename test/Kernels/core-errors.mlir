// Errors on the per-core copies of one source line say which core they
// are about.
// RUN: not walrus-opt %s -lnc-split -sb-alloc=sbuf-bytes=64 -o /dev/null 2>&1 | FileCheck %s
// RUN: not walrus-opt %s -lnc-split -sb-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// CHECK: 13:12: error: 't' is too big for SB, requires 128 bytes with SB size 64 on core 0
// CHECK: 13:12: error: 't' is too big for SB, requires 128 bytes with SB size 64 on core 1
// VERIFY: 13:12: error: sb-alloc-verify: 't' is not placed on core 0
// VERIFY: 13:12: error: sb-alloc-verify: 't' is not placed on core 1
bir.kernel @k {
  module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x32xf32>
      bir.memset %t[#bir.ap<0, [[32, 128], [1, 32]]>], 1.0 : !bir.sbuf<128x32xf32>
    }
  }
}
