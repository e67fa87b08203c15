// RUN: walrus-opt %s -split-input-file -verify-diagnostics
// RUN: echo 'module {}' | not walrus-opt -lnc-split=lnc-size=4294967296 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: echo 'module {}' | not walrus-opt -lnc-verify=lnc-size=129 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: echo 'module {}' | not walrus-opt -convert-linalg-to-bir=lnc-size=4294967296 2>&1 | FileCheck %s --check-prefix=LINALG

// Sizes that would make every core-wise check loop for ever or allocate
// without bound are refused up front: lnc_size (attribute or option) is 1
// to 128.

// SPLIT: error: lnc-split: lnc-size must be 0 (bir.lnc_size) to 128, got 4294967296
// VERIFY: error: lnc-verify: lnc-size must be 0 (bir.lnc_size) to 128, got 129
// LINALG: error: convert-linalg-to-bir: lnc-size must be in [1, 128], not 4294967296

// expected-error @+1 {{'bir.lnc_size' must be 1 to 128, got 4294967296}}
module attributes {bir.lnc_size = 4294967296 : i64} {
  bir.func @main {
  }
}

// -----

// expected-error @+1 {{'bir.lnc_size' must be 1 to 128, got 129}}
module attributes {bir.lnc_size = 129 : i64} {
  bir.func @main {
  }
}
