// RUN: walrus-opt %s -split-input-file -verify-diagnostics -bir-schedule="max-instructions=3"
// RUN: not walrus-opt %s -split-input-file -bir-schedule="heuristic=fastest" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION

// RUN: not walrus-opt %s -split-input-file -bir-schedule="sbuf-limit=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not walrus-opt %s -split-input-file -bir-schedule="max-instructions=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT

// OPTION: for the --heuristic option: Cannot find option named 'fastest'!
// LIMIT: error: bir-schedule: sbuf-limit must be 0 or more and max-instructions positive

// The estimate counts each executed instruction (loops unrolled) before
// it starts: past max-instructions the pass fails at the instruction run
// most often, leaving the order.
module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x100xf32>
    %u = bir.memloc "u" internal : !bir.sbuf<128x100xf32>
    bir.memset %u[#bir.ap<0, [[100, 128], [1, 100]]>], 0.0 : !bir.sbuf<128x100xf32>
    bir.loop 0 to 4 step 1 {
      // expected-error @below {{timing model: the kernel executes 5 instructions on 1 core(s), more than max-instructions (3): core 0 runs 5, this one 4 times}}
      bir.tensor_scalar multiply %t[#bir.ap<0, [[100, 128], [1, 100]]>], %t[#bir.ap<0, [[100, 128], [1, 100]]>], 2.0 : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    }
  }
}

// -----

// A masked barrier some cores skip: the estimate cannot place it.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x100xf32>
    bir.memset %t[#bir.ap<0, [[100, 128], [1, 100]]>], 0.0 : !bir.sbuf<128x100xf32>
    // expected-error @below {{timing model: not every core reaches this barrier or collective}}
    bir.core_barrier "half" {mask = affine_set<()[s0] : (-s0 == 0)>}
  }
}
