//===- TestPasses.td - Walrus test-only passes --------------*- tablegen -*-===//
//
// Passes for FileCheck and the benchmarks: registered by walrus-opt only,
// never part of the libraries embedders link.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_TEST_LIB_TESTPASSES_TD
#define WALRUS_TEST_LIB_TESTPASSES_TD

include "mlir/Pass/PassBase.td"

def TestPrintLiveness : Pass<"test-walrus-print-liveness", "mlir::ModuleOp"> {
  let summary = "Print the program points and live ranges of every function";
  let description = [{
    For FileCheck: per function, each memory location's live range
    `[start, end]` in program points (and whether it is loop-carried), from
    the liveness analysis the allocator and its verifier use.
  }];
}

def TestPrintInterference : Pass<"test-walrus-print-interference", "mlir::ModuleOp"> {
  let summary = "Print the allocator's nodes, edges, impact table and bound";
  let description = [{
    For FileCheck: per function, the 9 x 9 band impact table, then each
    allocation node (tensors, partitions x bytes, band class, number of
    placements k, live range, neighbours) and the lower bound on the peak
    bytes per partition, as the -sb-alloc analyses compute them.
  }];
  let options = [
    Option<"sbufBytes", "sbuf-bytes", "int64_t", /*default=*/"0",
           "Bytes per partition for k; 0 takes the target's">,
  ];
}

def TestPrintEffects : Pass<"test-walrus-print-effects", "mlir::ModuleOp"> {
  let summary = "Print each instruction's memory effects and tensor accesses";
  let description = [{
    For FileCheck: per instruction of every kernel function, the memory
    effects MLIR sees (from the operands' read/write markings in ODS) and
    the accesses the layout passes see (InstructionOpInterface).
  }];
}

def TestCloneModule : Pass<"test-walrus-clone-module", "mlir::ModuleOp"> {
  let summary = "Clone every module holding bir.funcs N times (benchmark baseline)";
  let description = [{
    Clones each module that holds `bir.func`s `copies` times with
    `Operation::clone()` and inserts the clones into the top-level module:
    the baseline that `bench/lnc_split.py` compares `-lnc-split` against.
  }];
  let options = [
    Option<"copies", "copies", "int64_t", /*default=*/"1",
           "How many clones to make">,
  ];
}

def TestFreeGaps : Pass<"test-walrus-free-gaps", "mlir::ModuleOp"> {
  let summary = "Check the dense sweep's free gaps against a plain model";
  let description = [{
    Runs seeded random sequences of takes, releases and lowest-fit queries
    on the dense sweep's `FreeGaps` (lib/Analysis/FreeGaps.h) and on a
    `std::map` of gaps searched one by one, and prints how many operations
    ran, how many gaps were free at most at once, and how many answers
    differed (each operation is followed by a query). The module is not
    looked at.
  }];
  let options = [
    Option<"sequences", "sequences", "unsigned", /*default=*/"50",
           "How many random sequences (seeds 0 to sequences - 1)">,
  ];
}

#endif // WALRUS_TEST_LIB_TESTPASSES_TD
