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
    on the dense sweep's `FreeGaps` (lib/Placement/Dense/FreeGaps.h) and on a
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

def TestSweepFirstFit : Pass<"test-walrus-sweep-first-fit", "mlir::ModuleOp"> {
  let summary = "Check the dense sweep's first fit against first fit in order";
  let description = [{
    On each kernel function's tensors (edges not stored), seeded random
    problems in the shape the window placement hands to `placeSweeping`
    (lib/Placement/Dense/SweepFirstFit.h): the tensors live at a random point
    fixed, a share of the others placed beforehand anywhere in time
    (the head), a few placed first by first fit, and the rest swept
    outwards from the point. Each must place as `placeInOrder` does in the
    order the header names. Prints how many problems ran, how many looked
    their head up in an index, and how many differed.
  }];
  let options = [
    Option<"problems", "problems", "unsigned", /*default=*/"20",
           "How many random problems per function (seeds 0 to problems - 1)">,
    Option<"headPercent", "head-percent", "unsigned", /*default=*/"30",
           "The share of the swept tensors placed beforehand">,
  ];
}

def TestSearchFixed : Pass<"test-walrus-search-fixed", "mlir::ModuleOp"> {
  let summary = "Check the searches around fixed buffers on random solutions";
  let description = [{
    Makes seeded random placements (buffers dropped at random places in a
    small capacity x time rectangle, kept where they meet no other), fixes
    a share of the buffers where they are, and runs `searchPlacement`
    (Walrus/Placement/Search.h) or, with `lanes`, `searchBandPlacement`
    (BandSearch.h) at that capacity. Each problem has a
    solution, so each should be placed; prints how many were, and how
    many placements broke a rule (outside the capacity, a fixed buffer
    moved, two co-live buffers on a common byte). The module is not
    looked at.
  }];
  let options = [
    Option<"instances", "instances", "unsigned", /*default=*/"300",
           "How many random problems (seeds 0 to instances - 1)">,
    Option<"fixedPercent", "fixed-percent", "unsigned", /*default=*/"50",
           "The share of buffers fixed where the random placement put them">,
    Option<"maxWork", "max-work", "uint64_t", /*default=*/"10000000",
           "The search's work budget per problem">,
    Option<"scale", "scale", "int64_t", /*default=*/"1",
           "1: a few buffers over a few points; 2: tens, longer lived">,
    Option<"stacked", "stacked", "int64_t", /*default=*/"0",
           "Also place one buffer over this many fixed ones stacked">,
    Option<"perfect", "perfect", "bool", /*default=*/"false",
           "Perfect packings (guillotine cuts of a full box) instead">,
    Option<"lanes", "lanes", "unsigned", /*default=*/"1",
           "1: the 1-D search; 2 to 32 (a power of two): the search over "
           "partition bands, with buffers a quarter, a half or all lanes "
           "wide">,
  ];
}

def TestPlace : Pass<"test-walrus-place", "mlir::ModuleOp"> {
  let summary = "Run one placement strategy on each function's SBUF tensors";
  let description = [{
    For FileCheck, in the style of CIRCT's `-ssp-schedule=scheduler=...`:
    builds each function's placement problem (lib/Analysis,
    buildSbufProblem) and runs the placement library's strategy `strategy`
    on it alone, at `capacity` bytes per partition (0: the target's), then
    checks the result itself: every placed node inside the capacity and
    its band, and no two nodes live at a common point on a common byte of
    a common partition. Prints, per function, the nodes, how many were
    placed and spilled, the peak, the lower bound and whether the
    placement is valid. The IR is left unchanged.

    Strategies: `coloring` (colorGraph), `first-fit` (placeInOrder,
    largest first), `dense` (placeDense: the chains of first fit orders),
    `window` (placeByWindowSearch), `search` (searchPlacement, the 1-D
    search; every node must span all partitions), `ladder` (Placer::place:
    colouring, then the 1-D or band search of the contended region, then
    the window search, as one round of -sb-alloc places).
  }];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"coloring\"",
           "coloring, first-fit, dense, window, search or ladder">,
    Option<"capacity", "capacity", "int64_t", /*default=*/"0",
           "Bytes per partition to place in (0: the target's)">,
    Option<"workLimit", "work-limit", "uint64_t", /*default=*/"100000000",
           "Work the searching strategies may do">,
  ];
}

#endif // WALRUS_TEST_LIB_TESTPASSES_TD
