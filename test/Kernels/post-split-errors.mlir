// A symbolic kernel given to a pass that works on per-core programs.
// RUN: walrus-opt %s -split-input-file -sb-alloc -verify-diagnostics -o /dev/null
// RUN: not walrus-opt %s -split-input-file -sb-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not walrus-opt %s -split-input-file -psum-alloc -o /dev/null 2>&1 | FileCheck %s --check-prefix=PSUM
// RUN: not walrus-opt %s -split-input-file -psum-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=PSUM-VERIFY
// Nested on each bir.func, sb-alloc has no single place for its report file.
// RUN: not walrus-opt %s -split-input-file --pass-pipeline='builtin.module(builtin.module(bir.func(sb-alloc{report-file=%t.json})))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// VERIFY: error: sb-alloc-verify works on per-core programs, but this kernel is still symbolic over 2 cores: run -lnc-split first
// PSUM: error: psum-alloc works on per-core programs, but this kernel is still symbolic over 2 cores: run -lnc-split first
// PSUM-VERIFY: error: psum-alloc-verify works on per-core programs, but this kernel is still symbolic over 2 cores: run -lnc-split first
// REPORT: error: sb-alloc: report-file gathers every function into one file: schedule sb-alloc on the module or bir.kernel holding them, not on each bir.func

module {
  bir.kernel @k {
    // expected-error @+1 {{sb-alloc works on per-core programs, but this kernel is still symbolic over 2 cores: run -lnc-split first}}
    module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
      bir.func @main {
        %t = bir.memloc "t" internal : !bir.sbuf<4x8xf32>
      }
    }
  }
}

// -----

// Nested on the function, the pass checks the same.
module {
  // expected-error @+1 {{sb-alloc works on per-core programs, but this kernel is still symbolic over 4 cores: run -lnc-split first}}
  module @nc_symbolic attributes {bir.lnc_size = 4 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<4x8xf32>
    }
  }
}
