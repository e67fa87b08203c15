// Bad programs fail with a located error and exit code 1, never a crash.
//
// RUN: split-file %s %t
// RUN: not walrus-run %t/barrier.mlir 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: not walrus-run %t/names.mlir 2>&1 | FileCheck %s --check-prefix=NAMES
// RUN: not walrus-run %t/collective-sizes.mlir 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: not walrus-run %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=NO-MAIN
// RUN: not walrus-run %t/dram-types.mlir 2>&1 | FileCheck %s --check-prefix=DRAM-TYPES
// RUN: printf '\001\002' > %t/short.bin
// RUN: not walrus-run %t/input.mlir --input x=%t/short.bin 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: not walrus-run %t/input.mlir --input nothere=%t/short.bin 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not walrus-run %t/input.mlir --input x=%t/missing.bin 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not walrus-run %t/input.mlir --after='no-such-pass' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not walrus-run %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=NO-FILE

// BARRIER: barrier.mlir:4:5: error: walrus-run: core 0 waits here but core 1 has finished
// NAMES: names.mlir:9:5: error: walrus-run: core 1 waits here while core 0 waits at another barrier or collective
// SIZES: collective-sizes.mlir:13:7: error: walrus-run: core 1 gives 4 source elements to the collective, core 0 2
// NO-MAIN: no-main.mlir:{{[0-9]+}}:{{[0-9]+}}: error: walrus-run: the module has no bir.func @main
// DRAM-TYPES: dram-types.mlir:9:12: error: walrus-run: DRAM tensor 'x' is '!bir.dram<8xf32>' here but '!bir.dram<4xf32>' elsewhere
// SHORT: input.mlir:2:8: error: walrus-run: '{{.*}}short.bin' has 2 bytes, the tensor 16
// UNKNOWN: error: walrus-run: the program has no DRAM input 'nothere'
// MISSING: input.mlir:2:8: error: walrus-run: cannot open input file '{{.*}}missing.bin': No such file or directory
// PIPELINE: error: walrus-run: bad pipeline:
// NO-FILE: walrus-run: error: cannot open input file '{{.*}}missing.mlir'

//--- barrier.mlir
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    // Masked off on core 1: core 0 waits forever.
    bir.core_barrier "half" {mask = affine_set<()[s0] : (s0 == 0)>}
  }
}
//--- names.mlir
module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      bir.core_barrier "a"
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
    bir.core_barrier "b"
    }
  }
}
//--- collective-sizes.mlir
module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<1x4xf32>
      bir.collective all_reduce %t[#bir.ap<0, [[4, 1], [1, 2]]>], %t[#bir.ap<0, [[4, 1], [1, 2]]>] reduce add : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<1x4xf32>
      // A core whose collective reads more than the others' would read
      // past them.
      bir.collective all_reduce %t[#bir.ap<0, [[4, 1], [1, 4]]>], %t[#bir.ap<0, [[4, 1], [1, 4]]>] reduce add : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
    }
  }
}
//--- no-main.mlir
bir.func @entry {
}
//--- dram-types.mlir
module {
  module @a {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<4xf32>
    }
  }
  module @b {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<8xf32>
    }
  }
}
//--- input.mlir
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<4xf32>
}
