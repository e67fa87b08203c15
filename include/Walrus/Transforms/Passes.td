//===- Passes.td - Walrus passes ---------------------------*- tablegen -*-===//

#ifndef WALRUS_TRANSFORMS_PASSES_TD
#define WALRUS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrintBirSummary : Pass<"print-bir-summary"> {
  let summary = "Print a summary of every BIR module and function";
  let description = [{
    For each kernel module, wherever it sits (the symbolic module, or each
    per-core module after `-lnc-split`), prints its `bir.kernel` if any,
    its core and target, then
    per function the memory locations by memory with their declared
    footprint, and the instructions by kind, with loops and masked
    instructions counted. The IR is left unchanged. Each function is
    summarised on its own thread; scheduled on a module or `bir.kernel` the
    pass prints them in program order under their modules, nested by hand
    on `bir.func` each function prints its module's line with its own.

    ```
    $ walrus-opt -print-bir-summary examples/tiled-matmul.mlir -o /dev/null
    module @nc_symbolic: symbolic over 2 cores, target trn2 (128 x 229376 B SBUF)
      func @main: 5 memlocs, 9 instructions (2 loops, 2 masked)
      ...
    ```
  }];
}

def PrintBirTimeline : Pass<"print-bir-timeline", "mlir::ModuleOp"> {
  let summary = "Estimate each kernel's time on the engine timing model";
  let description = [{
    Places every executed instruction of each core (loops unrolled, masks
    applied) on its engine (PE, ACT, DVE, Pool, or the 16 DMA engines), in
    program order per engine, after the instructions it depends on through
    the bytes they touch (placed addresses after `-sb-alloc`, memory
    locations before), the cores meeting at barriers and collectives. A
    remark per core gives its time, each engine's busy time and share, the
    bound, DMA bytes and bandwidth, FLOPs and the roofline; one per kernel
    the slowest core. `report-file` writes the same as JSON, `trace-file`
    a Chrome trace (Perfetto, chrome://tracing). Every number of the model
    comes from the target's generation and may be overridden
    (docs/TimingModel.md). The IR is left unchanged.
  }];
  let options = [
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"\"",
           "Write the estimate as JSON to this file">,
    Option<"traceFile", "trace-file", "std::string", /*default=*/"\"\"",
           "Write a Chrome trace-event JSON timeline to this file">,
    Option<"maxInstructions", "max-instructions", "int64_t",
           /*default=*/"10000000",
           "Executed instructions the estimate may place, every core of "
           "every kernel together; checked before any is placed">,
    Option<"peGhz", "pe-ghz", "double", /*default=*/"0",
           "Tensor engine clock, GHz, 0.001 to 1000 (0: the target's)">,
    Option<"actGhz", "act-ghz", "double", /*default=*/"0",
           "Scalar engine clock, GHz, 0.001 to 1000 (0: the target's)">,
    Option<"dveGhz", "dve-ghz", "double", /*default=*/"0",
           "Vector engine clock, GHz, 0.001 to 1000 (0: the target's)">,
    Option<"poolGhz", "pool-ghz", "double", /*default=*/"0",
           "GpSimd engine clock, GHz, 0.001 to 1000 (0: the target's)">,
    Option<"dmaBytesPerNs", "dma-bytes-per-ns", "double", /*default=*/"0",
           "Bandwidth of one DMA engine, bytes per ns, 0.001 to 1e6 (0: the "
           "target's)">,
    Option<"dmaFixedNs", "dma-fixed-ns", "double", /*default=*/"0",
           "Fixed cost of a DMA transfer, ns, 1e-6 to 1e9 (0: the target's)">,
    Option<"dmaPacketBytes", "dma-packet-bytes", "double", /*default=*/"0",
           "Cost of one DMA packet (a partition's contiguous run), as the "
           "bytes an engine moves in that time, 1e-6 to 1e9 (0: the target's)">,
    Option<"overheadCycles", "overhead-cycles", "double", /*default=*/"0",
           "Static cost of an ACT, DVE or Pool instruction, cycles, 1e-6 to "
           "1e9 (0: the target's)">,
    Option<"twoInputCycles", "two-input-cycles", "double", /*default=*/"0",
           "Cycles per element of an elementwise operation of two streamed "
           "inputs, 1e-6 to 1e9 (0: the target's)">,
    Option<"divideCycles", "divide-cycles", "double", /*default=*/"0",
           "Cycles per element of an elementwise division, 1e-6 to 1e9 (0: "
           "the target's)">,
    Option<"matmulMinCycles", "matmul-min-cycles", "double",
           /*default=*/"0",
           "Shortest initiation interval of a matmul, PE cycles, 1e-6 to 1e9 "
           "(0: the target's)">,
    Option<"fp32Factor", "fp32-factor", "double", /*default=*/"0",
           "Cost of an fp32 matmul over a bf16 one, 0.001 to 1000 (0: the "
           "target's)">,
    Option<"stationaryLoadSpeedup", "stationary-load-speedup", "double",
           /*default=*/"0",
           "How much faster loading the stationary operand is than a matmul "
           "of its size, 0.001 to 1e6 (0: the target's)">,
    Option<"dmaEngines", "dma-engines", "unsigned", /*default=*/"0",
           "DMA engines per core, at most 64 (0: the target's)">,
    Option<"dmaPartitionsPerEngine", "dma-partitions-per-engine", "double",
           /*default=*/"0",
           "Partitions one DMA engine serves in a transfer, 0.001 to 1e6 (0: "
           "the target's)">,
    Option<"peBf16Tflops", "pe-bf16-tflops", "double", /*default=*/"0",
           "Tensor engine bf16 peak for the roofline, TFLOPS, 0.001 to 1e6 "
           "(0: the target's)">,
    Option<"peFp32Tflops", "pe-fp32-tflops", "double", /*default=*/"0",
           "Tensor engine fp32 peak for the roofline, TFLOPS, 0.001 to 1e6 "
           "(0: the target's)">,
  ];
}

def ExpandReplication : Pass<"expand-replication", "mlir::ModuleOp"> {
  let summary = "Make IFMAP replication of matmults explicit";
  let description = [{
    A matmult with `replication <factor = R, partition_stride = S,
    shift = H>` reads its moving operand as R stacked replicas: replica `r`
    at partitions `[r * S, r * S + C)` holding the operand shifted by
    `r * H` columns (conv1d filter-tap stacking). For every SBUF memory
    location read that way, this pass

    1. grows its partition count from `C` to `(R - 1) * S + C`;
    2. after every instruction that writes it, inserts one `bir.tensor_copy`
       per replica `r >= 1` copying columns `[r * H, F)` of partitions
       `[0, C)` to columns `[0, F - r * H)` of partitions `[r * S, r * S + C)`,
       and, when `C < S`, a `bir.memset` zeroing the gap partitions between
       replicas;
    3. widens each replicated read to all `(R - 1) * S + C` partitions and
       drops its `replication` attribute.

    It runs on the symbolic module before `-lnc-split`, so every core's
    program gets the same grown buffers and copies; it refuses a module that
    already has `bir.neuron_core_id`. `main` is processed first, then the
    other functions. See docs/ExpandReplication.md for the worked conv1d
    example.

    Before:
    ```mlir
    %x = bir.memloc "x" internal : !bir.sbuf<32x515xbf16>
    bir.dma %x[#bir.ap<0, [[515, 32], [1, 515]]>], %in[...] : ...
    bir.matmult %acc[...], %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                %x[#bir.ap<0, [[515, 32], [1, 512]]>] start stop
                replication <factor = 4, partition_stride = 32, shift = 1> : ...
    ```
    After:
    ```mlir
    %x = bir.memloc "x" internal : !bir.sbuf<128x515xbf16>
    bir.dma %x[#bir.ap<0, [[515, 32], [1, 515]]>], %in[...] : ...
    bir.tensor_copy %x[#bir.ap<16480, [[515, 32], [1, 514]]>],
                    %x[#bir.ap<1, [[515, 32], [1, 514]]>] : ...
    bir.tensor_copy %x[#bir.ap<32960, [[515, 32], [1, 513]]>],
                    %x[#bir.ap<2, [[515, 32], [1, 513]]>] : ...
    bir.tensor_copy %x[#bir.ap<49440, [[515, 32], [1, 512]]>],
                    %x[#bir.ap<3, [[515, 32], [1, 512]]>] : ...
    bir.matmult %acc[...], %w[...], %x[#bir.ap<0, [[515, 128], [1, 512]]>]
                start stop : ...
    ```
  }];
  let statistics = [
    Statistic<"numReplicatedMemlocs", "replicated-memlocs",
              "Memory locations grown to hold their replicas">,
    Statistic<"numInsertedCopies", "inserted-copies",
              "Replica copies and gap memsets inserted">,
  ];
}

def LncSplit : Pass<"lnc-split", "mlir::ModuleOp"> {
  let summary = "Split each symbolic module into one concrete module per core";
  let description = [{
    For a symbolic module (one that holds `bir.func`s and has no
    `bir.neuron_core_id`) with `lnc_size = N > 1`, makes N modules, one per
    logical core `c`: cores `0 .. N-2` get clones, core `N-1` reuses the
    original. Each is then concretized:

    - `bir.neuron_core_id = c` and `bir.lnc_size = N` are stamped on it;
    - it is renamed: `nc_symbolic` in its name becomes `nc00`, `nc01`, ...
      (a name without `nc_symbolic` gets `_ncNN` appended; no name gives
      `ncNN`);
    - every instruction whose mask is false for `s0 = c` is deleted; a kept
      instruction's mask holds, so it is dropped;
    - a `bir.loop` left without instructions is deleted;
    - the shard id is bound to `c` in every symbolic access pattern (offset,
      tile and block maps), in `bir.collective`'s `shard_offset` and in
      `bir.sb2sb`'s `peer`; a pattern whose start becomes constant turns
      into a physical `#bir.ap`.

    No shard symbol is left anywhere. Kernels are found wherever they sit
    (docs/Rationale.md, "Where kernels are"): the per-core modules replace
    the symbolic one in its place, in [module][core] order, inside its
    `bir.kernel` (whose symbol the host keeps using) or its host module;
    when the top-level module is itself the symbolic module, its contents
    move into the per-core modules nested in it. A host reference to a bare
    symbolic module is an error (it would dangle). With `lnc_size == 1`
    the module is left untouched and gets no core id. The clones are made,
    and the cores concretized, on MLIR's thread pool.

    ```mlir
    // Before
    module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
      bir.func @main { ... }
    }
    // After
    module {
      module @nc00 attributes {bir.lnc_size = 2 : i64,
                               bir.neuron_core_id = 0 : i64} { ... }
      module @nc01 attributes {bir.lnc_size = 2 : i64,
                               bir.neuron_core_id = 1 : i64} { ... }
    }
    ```
  }];
  let options = [
    Option<"lncSizeOverride", "lnc-size", "int64_t", /*default=*/"0",
           "Number of logical cores; 0 reads bir.lnc_size of each module">,
    Option<"roundtripClones", "roundtrip-clones", "bool", /*default=*/"false",
           "Pass every clone through a bytecode write / parse round trip and "
           "check that it comes back unchanged (the reference splitter "
           "clones through JSON: docs/Reference.md, the split page, "
           "section 3)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark per core module with what was pruned, and one on "
           "the top module with the totals">,
  ];
  let statistics = [
    Statistic<"numClones", "clones", "Modules cloned">,
    Statistic<"numPrunedInstructions", "pruned-instructions",
              "Instructions deleted because their mask is false on a core">,
    Statistic<"numPrunedLoops", "pruned-loops",
              "Loops deleted because no instruction was left in them">,
  ];
}

def LncVerify : Pass<"lnc-verify", "mlir::ModuleOp"> {
  let summary = "Check that a program splits, or was split, into SPMD cores";
  let description = [{
    Symbolic modules (no `bir.neuron_core_id`) are checked for being
    splittable: every access is in bounds for every core
    `0 .. lnc_size - 1` (the `lnc-size` option may ask for another count),
    cross-core instructions (`bir.core_barrier`, `bir.collective`,
    `bir.sb2sb`) run on every core, and a mask that holds on no core is
    reported as a warning.

    Concretized modules are checked as groups: the runs of modules with
    core ids `0 .. N-1` that `-lnc-split` emits. Within a group every core
    has the functions of core 0, in the same order; the same memory
    locations in each function; the same sequence of named barriers; the
    same cross-core instructions; and every `bir.sb2sb` targets a memory
    location that exists on its peer core. No shard symbol may be left.
    Each error names the core and points at the op.

    `mode=symbolic` or `mode=concretized` requires every module to be in
    that state.
  }];
  let options = [
    Option<"mode", "mode", "::walrus::LncVerifyMode",
           /*default=*/"::walrus::LncVerifyMode::Auto",
           "What the modules must be", [{::llvm::cl::values(
             clEnumValN(::walrus::LncVerifyMode::Auto, "auto",
                        "each checked in the state it is in"),
             clEnumValN(::walrus::LncVerifyMode::Symbolic, "symbolic",
                        "every module symbolic"),
             clEnumValN(::walrus::LncVerifyMode::Concretized, "concretized",
                        "every module concretized"))}]>,
    Option<"lncSizeOverride", "lnc-size", "int64_t", /*default=*/"0",
           "Number of logical cores for symbolic modules; 0 reads "
           "bir.lnc_size">,
  ];
}

def VnSplit : Pass<"vn-split"> {
  let summary = "Split tensors into access-disjoint pieces, then fold copies";
  let description = [{
    Split, then fold, in every `bir.func` (symbolic or per-core).

    **Split.** For each internal SBUF tensor (and internal DRAM tensor
    unless `no-split-dram`), every access must cover whole rows of
    partitions: its partition dimension steps one partition and its free
    dimensions stay inside a partition, on every loop iteration and shard.
    Accesses whose rectangles (partitions x columns) overlap, directly or
    through others, form a group; with two or more groups the tensor is
    replaced by one piece `<name>_VN_<k>` per group, shaped to the group's
    rectangle, every access re-pointed and its offset rebased
    (`(offset - base) / stride`, as the reference's
    normalizeOffsetToNewNode: docs/Reference.md, the VN and shrink page,
    section 2.5). A piece nothing reads is removed with its writers. Limits: `per-split-limit` pieces per tensor, `vn-limit`
    tensors per function, `ratio` the elements pieces may duplicate (their
    rectangles overlapping), and every piece must fit the target's SBUF.

    **DRAM to SB** (`dram-to-sb-bytes`, off by default). An internal DRAM
    tensor of a one-core program that only DMAs to or from SBUF touch, or
    each such piece of one, moves into SBUF when it fits one SBUF tile,
    while the moved tensors take at most that many bytes per partition
    together; its DMAs then copy within SBUF. A tensor whose accesses form
    one group moves whole and keeps its name.

    **Loop cuts** (`cut-loops`, on by default). An SBUF tensor with more
    bytes per partition than SB holds, whose accesses form one group
    because loops walk it, gets those loops cut into parts of consecutive
    iterations (the program runs the same iterations in the same order)
    until its accesses split into pieces that each fit SB.

    **Fold** (`fold-into-predecessor`). A tensor written once and read
    only by a `bir.tensor_copy` of exactly what was written, into a tensor
    of the same element type, with nothing touching the destination in
    between, is removed: its writer writes the copy's destination directly.
    docs/VnSplit.md lists every rule.

    `explain` makes every decision a remark on the tensor; `report` adds a
    summary remark per function.

    Works on one `bir.func` at a time: nest it on `bir.func` in
    `--pass-pipeline`, or schedule it on a module or `bir.kernel` and it
    runs itself on every kernel function below, in parallel
    (docs/Rationale.md, "Function passes").
  }];
  let options = [
    Option<"vnLimit", "vn-limit", "int64_t", /*default=*/"1048576",
           "Most memory locations a function may hold after a split">,
    Option<"ratio", "ratio", "double", /*default=*/"1.0",
           "Most elements the pieces of one tensor may hold per element "
           "they cover (above 1 when piece rectangles overlap)">,
    Option<"perSplitLimit", "per-split-limit", "int64_t", /*default=*/"64",
           "Most pieces one tensor may be split into">,
    Option<"noSplitDram", "no-split-dram", "bool", /*default=*/"false",
           "Leave DRAM tensors whole">,
    Option<"dramToSbBytes", "dram-to-sb-bytes", "int64_t", /*default=*/"0",
           "Bytes per partition that internal DRAM tensors (or their "
           "pieces) moved into SBUF may take together in a function; 0 "
           "moves none">,
    Option<"cutLoops", "cut-loops", "bool", /*default=*/"true",
           "Cut the loops walking an SBUF tensor too large for SB into "
           "parts, when its accesses then split into pieces that fit">,
    Option<"foldIntoPredecessor", "fold-into-predecessor", "bool",
           /*default=*/"true",
           "Fold a copied temporary into its producer after the split">,
    ListOption<"skip", "skip", "std::string",
               "Names of memory locations to leave alone">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark for every split, fold and rejection">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a summary remark per function">,
  ];
  let statistics = [
    Statistic<"numDeadNodes", "VNSplitterDeadNodesCount",
              "Memory locations removed (split originals and unread pieces)">,
    Statistic<"numSplitNodes", "split-nodes", "Memory locations split">,
    Statistic<"numPieces", "pieces", "Pieces created">,
    Statistic<"numFolds", "folds", "Copies folded into their producer">,
    Statistic<"numMovedToSb", "moved-to-sb",
              "DRAM tensors or pieces moved into SBUF">,
    Statistic<"numDeadInstructions", "dead-instructions",
              "Instructions removed with the unread pieces they wrote">,
    Statistic<"numLoopsAdded", "loops-added",
              "Loops added by cutting loops that walk oversized tensors">,
  ];
}

def ShrinkDn : Pass<"shrink-dn"> {
  let summary = "Trim every tensor to the partitions and bytes it touches";
  let description = [{
    Two rewrites of internal on-chip tensors, in every `bir.func`:

    **shrinkTensor (block collapse).** A tensor `P x B x ...` whose
    accesses all sit in one loop, each selecting its block with the same
    `block` map of the loop's induction variable, and whose value stays
    inside an iteration (the body first writes what it later reads), needs
    only the blocks one iteration touches: `liveN`. Its block dimension
    becomes `liveN`, the `block` parts are dropped, and the tensor is
    annotated `bir.shrink_dim = 1`, `bir.live_n = liveN`. `B` must be a
    multiple of the shrink factor `B / liveN`.

    **ShrinkDN (window trim).** The rectangle every access touches
    (partitions x columns, over all iterations) becomes the whole tensor:
    the partition step is re-packed to the new row length and every offset
    rebased (the reference's updateChannelStep and shrinkPAP:
    docs/Reference.md, the VN and shrink page, section 3.3).

    Left alone, with a remark under `explain`: program inputs and outputs
    (their contents cross the program boundary), DRAM and placed tensors,
    memory-location set members, tensors with views (reinterpret casts),
    and tensors with a shifted or non-partition-contiguous access. Readers
    are part of the window, so nothing read is ever trimmed away.

    Works on one `bir.func` at a time: nest it on `bir.func` in
    `--pass-pipeline`, or schedule it on a module or `bir.kernel` and it
    runs itself on every kernel function below, in parallel
    (docs/Rationale.md, "Function passes").
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark for every shrink and every tensor left alone">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a summary remark per function">,
  ];
  let statistics = [
    Statistic<"numShrunk", "shrunk-memlocs", "Memory locations shrunk">,
    Statistic<"numCollapsed", "collapsed-memlocs",
              "Memory locations whose block dimension was collapsed">,
    Statistic<"bytesSaved", "bytes-per-partition-saved",
              "Bytes per partition saved over all memory locations">,
  ];
}

def SbAlloc : Pass<"sb-alloc"> {
  let summary = "Place every SBUF tensor: 2-D Chaitin-Briggs with spilling";
  let description = [{
    In every `bir.func`, gives each SBUF memory location an `address` and a
    `base_partition` such that no two tensors live at the same time share a
    byte, using as little SBUF as possible:

        memloc_split
        fixpoint {
          renumber, find_partners, liveness, build, costs, simplify, select
          stop when nothing spills; else insert spill code
        }

    Nodes are tensors (or partner groups sharing one place) with a 2-D
    footprint (partitions x bytes per partition), a band class (a quarter,
    a half or all of the partitions) and a loop-aware live range; edges join
    nodes live at the same time. A matmult's two operands must meet on the
    tensor engine's rows, so find_partners fixes the band of each tensor
    a matmult reads from the partition its rows must start at (an error
    when no placement aligns them). Simplify removes nodes whose impact-weighted
    degree is below their number of placements, pushing the cheapest
    (cost / degree^2) optimistically when blocked; select gives each node
    the lowest byte offset free in one of its bands. When that overflows,
    a bounded search over offsets (after MiniMalloc; over partition bands
    when tensors do not all span every partition; `search-budget`) runs
    before anything spills, over the independent parts of the function
    where colouring left a node out, and colouring completes what it
    placed when it cannot place everything. Dense functions (more than
    `dense-edges` pairs of tensors live at once, and more than
    `dense-edges-per-node` per tensor) are placed without storing the
    pairs: when all span every partition, the search places the tensors
    live in a window of time around the fullest points and first fit the
    others around them; where that does not reach the bound, first fit
    through an index over time, then a squeaky-wheel improvement within
    `dense-budget`. A node that finds no place is spilled: it gets a DRAM
    home, and every instruction that uses it a short tensor of
    its own, reloaded before and stored after; the next round places
    everything again. Tensors that come with an address keep it.
    docs/SbAlloc.md has the details; run -sb-alloc-verify after it.

    Works on one `bir.func` at a time: nest it on `bir.func` in
    `--pass-pipeline`, or schedule it on a module or `bir.kernel` and it
    runs itself on every kernel function below, in parallel
    (docs/Rationale.md, "Function passes").
    A kernel still symbolic over several cores is an error; `report-file`
    gathers every function into one file when the pass is scheduled on a
    module or kernel.
  }];
  let options = [
    Option<"sbufBytes", "sbuf-bytes", "int64_t", /*default=*/"0",
           "Bytes per partition to allocate in; 0 takes the target's">,
    Option<"maxIterations", "max-iterations", "int64_t", /*default=*/"64",
           "Spill rounds before giving up (rounds after the first keep the "
           "last round's places, but the last 4 place everything anew)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a summary remark per function">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"\"",
           "Write every node's rectangle and live range as JSON to this file">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark for every segment split, partner group and spill">,
    Option<"searchBudget", "search-budget", "int64_t", /*default=*/"500000000",
           "Work (time sections and candidates examined) the placement "
           "search may do before spilling when colouring overflows, over "
           "all spill rounds of a function (the default is about 0.5 s of "
           "1-D search, 1-2 s over partition bands), and on the windows of "
           "a dense function; 0 disables">,
    Option<"denseEdges", "dense-edges", "int64_t", /*default=*/"500000",
           "Functions with more pairs of tensors live at once, and more "
           "than dense-edges-per-node per tensor, are placed without "
           "storing the pairs (docs/placement/Dense.md); "
           "so are those with more than 2^28 pairs, whatever the limits">,
    Option<"denseEdgesPerNode", "dense-edges-per-node", "int64_t",
           /*default=*/"64", "See dense-edges">,
    Option<"denseBudget", "dense-budget", "int64_t", /*default=*/"450",
           "Work (index probes and insertions) per node that each of a "
           "dense function's two chains of orders may do per round, less "
           "the window search's first fit (largest first, placed beside "
           "them, stops at half of it)">,
    Option<"rowBlocks", "row-blocks", "bool", /*default=*/"true",
           "Follow each quarter of a tensor's partitions on its own: rows "
           "that die before the rest free their bytes (docs/placement/Problem.md, "
           "\"Row blocks\")">,
  ];
  let statistics = [
    Statistic<"numSearchWork", "search-work",
              "Work the placement search did (time sections and candidates "
              "examined)">,
    Statistic<"numDenseWork", "dense-work",
              "Work the dense path did (index probes and insertions)">,
    Statistic<"numNodes", "SbRenumberLocationsCount",
              "Allocation nodes in the last round">,
    Statistic<"numEdges", "edges", "Interference edges in the last round">,
    Statistic<"numIterations", "iterations", "Fixpoint rounds">,
    Statistic<"numSpills", "spills", "Tensors spilled to DRAM">,
    Statistic<"numSplitNodes", "TotalSplitSbNodesCount",
              "Clones made by memloc_split">,
    Statistic<"peakBytes", "peak-bytes", "Highest byte placed, per partition">,
    Statistic<"lowerBound", "lower-bound",
              "Largest live bytes per partition at one point">,
  ];
}

def SbAllocVerify : Pass<"sb-alloc-verify"> {
  let summary = "Check an SBUF allocation: placed, inside the target, no overlap, matmult rows aligned";
  let description = [{
    An independent checker of SBUF allocations, sharing nothing with the
    allocator but the access interface and the liveness analysis. In every
    `bir.func`: every SBUF memory location has an `address` and a
    `base_partition`; its rectangle (partitions `[base, base + P)` x bytes
    `[address, address + bytes per partition)`) lies inside the target's
    SBUF; and no two memory locations whose live ranges overlap have
    overlapping rectangles, except two tensors at the very same place whose
    lives meet only at an identity `bir.tensor_copy` from one to the other
    (the copy moves nothing); and every `bir.matmult` reads its stationary
    and moving rows on the same partitions (the tensor engine multiplies
    them in one PE row). Errors name both tensors and where they meet, and
    the core.

    Works on one `bir.func` at a time: nest it on `bir.func` in
    `--pass-pipeline`, or schedule it on a module or `bir.kernel` and it
    runs itself on every kernel function below, in parallel
    (docs/Rationale.md, "Function passes").
    A kernel still symbolic over several cores is an error.
  }];
}

def BirSchedule : Pass<"bir-schedule"> {
  let summary = "Reorder instructions within their blocks to shorten the estimated time";
  let description = [{
    In every `bir.func`, reorders the instructions and loops of each block
    (function body and loop bodies) by list scheduling over the engines
    with the timing model's costs (docs/TimingModel.md): an op moves only
    where no dependence forbids it (read after write, write after read,
    write after write over the bytes two ops may share, a loop standing for
    everything inside it), and never across a barrier, a collective or an
    `sb2sb` (what other cores see depends on them). Each
    engine runs its queue in program order, so the order decides what each
    engine does next: a transfer the estimate needs early goes before one
    that waits on a result.

    The heuristic (`heuristic`) picks, among the ops whose dependences are
    issued, the one that can start first (`asap`); among those, the one
    with the longest path to the end (`critical-path`, the default); or
    loads from DRAM first, then as `critical-path` (`dma-prefetch`).
    Scheduling runs before allocation under an SBUF pressure limit: an op
    that would bring the bytes per partition of the tensors it keeps live
    past `sbuf-limit` (0: the target's SBUF per partition) waits while
    another can go; a block whose order still passes the limit keeps its
    order. A run keeps its order too unless the scheduler's own model of
    it (the run alone, loops as one op) finds the new order faster; then
    the function's estimate is taken before and after, and a function the
    new orders would make slower keeps its order: the pass never makes the
    estimate worse (`keep-slower` turns both checks off). `report` emits a remark per function
    with both estimates. docs/Schedule.md.

    Works on one `bir.func` at a time, as -sb-alloc does. Each core of a
    per-core module is estimated on its own (barriers without waits).
  }];
  let options = [
    Option<"heuristic", "heuristic", "::walrus::schedule::Heuristic",
           /*default=*/"::walrus::schedule::Heuristic::CriticalPath",
           "How the next op is chosen", [{::llvm::cl::values(
             clEnumValN(::walrus::schedule::Heuristic::Asap, "asap",
                        "the op that can start first"),
             clEnumValN(::walrus::schedule::Heuristic::CriticalPath,
                        "critical-path",
                        "among those, the longest path to the end"),
             clEnumValN(::walrus::schedule::Heuristic::DmaPrefetch,
                        "dma-prefetch",
                        "loads from DRAM first, then critical-path"))}]>,
    Option<"sbufLimit", "sbuf-limit", "int64_t", /*default=*/"0",
           "SBUF bytes per partition the live tensors may take; 0 is the "
           "target's SBUF">,
    Option<"maxInstructions", "max-instructions", "int64_t",
           /*default=*/"10000000",
           "Executed instructions the estimates may count, every core of "
           "every function together; checked before any function starts">,
    Option<"keepSlower", "keep-slower", "bool", /*default=*/"false",
           "Keep every new order, even one the estimate finds slower (for "
           "experiments and tests of the dependences)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark per function: the estimate before and after">,
  ];
}

def PsumAlloc : Pass<"psum-alloc"> {
  let summary = "Place every PSUM tensor in a bank: bank rotation, accumulation groups pinned";
  let description = [{
    In every `bir.func`, gives each PSUM memory location an `address` (its
    bank times the bank's bytes, plus its offset in the bank) and
    `base_partition` 0 such that the tensor lies inside one bank, in none
    of the last `psum_reserved_banks` of the target, and no two tensors
    live at the same time share a byte. A tensor is live from its first
    access to its last (the liveness -sb-alloc uses, extended across loops),
    so an accumulation group keeps its bank from its `start` matmult until
    its result is read, across a loop too. Tensors are placed in order of
    their first access, each at the lowest offset free in the first bank
    that has room, trying the banks from the one after the last bank used:
    consecutive groups land in different banks, and the copy-out of one
    overlaps the matmults of the next.

    A tensor larger than a bank is an error at its memory location; a
    point where the live tensors need more banks than the target has is an
    error at the first access of the tensor that found no room, saying how
    many banks the tensors live there need and how many exist. Tensors that
    come with an address keep it. docs/PsumAlloc.md; run
    -psum-alloc-verify after it.

    Works on one `bir.func` at a time, as -sb-alloc does.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark per function: tensors, banks used, peak">,
  ];
}

def PsumAllocVerify : Pass<"psum-alloc-verify"> {
  let summary = "Check a PSUM allocation: placed, each tensor within one usable bank, no overlap";
  let description = [{
    An independent checker of PSUM allocations, sharing nothing with the
    allocator but the liveness analysis. In every `bir.func`: every PSUM
    memory location has an `address` and `base_partition` 0; its bytes
    lie inside one bank, not one the target reserves; and no two memory
    locations whose live ranges overlap share a byte. Errors name both
    tensors and where they meet.

    Works on one `bir.func` at a time, as -sb-alloc-verify does.
  }];
}

#endif // WALRUS_TRANSFORMS_PASSES_TD
