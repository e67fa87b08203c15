//===- SbAlloc.cpp - The -sb-alloc pass -----------------------------------===//
//
// The SBUF allocator driver, after the reference SB_Allocator::allocate:
// memloc_split once, then a spill fixpoint of renumber, find_partners,
// liveness, build, costs, simplify, select. docs/SbAlloc.md; the
// reference: docs/Reference.md, the allocator page, "Where the colorer sits".
//
//===----------------------------------------------------------------------===//

#include "../FunctionPass.h"
#include "Steps.h"

#include "Walrus/Analysis/Interference.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Placement/Coloring.h"
#include "Walrus/Placement/Placer.h"
#include "Walrus/Support/FileOutput.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace walrus {
#define GEN_PASS_DEF_SBALLOC
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::placement;

namespace {
/// The SBUF tiles the lowering rotates through after the first of each
/// rotation (`bir.rotating` > 0): how many, and their bytes per partition.
struct RotatingCost {
  int64_t tensors = 0, bytes = 0;
};
} // namespace

static RotatingCost getRotatingCost(FuncOp func) {
  RotatingCost cost;
  for (MemlocOp memloc : func.getMemlocs()) {
    auto index =
        memloc->getAttrOfType<IntegerAttr>(BIRDialect::kRotatingAttrName);
    if (index && index.getInt() > 0 && isa<SbufType>(memloc.getMemoryType())) {
      cost.bytes += memloc.getMemoryType().getBytesPerPartition();
      ++cost.tensors;
    }
  }
  return cost;
}

namespace {
/// What allocating one function produced.
struct FuncResult {
  unsigned nodes = 0, iterations = 0, spills = 0, splits = 0;
  /// The bytes of the tensors spilled, over their partitions.
  uint64_t spilledBytes = 0;
  /// Orders the dense path placed (0: the graph had its edges).
  unsigned denseOrders = 0;
  /// Windows of a dense function whose tensors the search placed.
  unsigned denseWindows = 0;
  /// In the last round the search ran (of a round placed twice, in the
  /// placement that stands): the tensors it had to place and the most one
  /// of its placements held.
  struct SearchReach {
    unsigned tensors = 0, placed = 0;
  } search;
  /// The first round that did not fit, before it spilled (later rounds
  /// place the spill pieces instead).
  struct Overflow {
    /// Its nodes, and how many the best placement left without a place.
    unsigned nodes, unplaced;
    int64_t lowerBound;
  };
  std::optional<Overflow> overflow;
  /// Pairs live at once, and how many of them the graph stored.
  size_t edges = 0, storedEdges = 0;
  int64_t peak = 0, lowerBound = 0;
  /// Work the placement search and the dense path did, over all rounds.
  uint64_t searchWork = 0, denseWork = 0;
  llvm::json::Array placements;
};

/// Spill rounds at the end of max-iterations that place everything anew
/// (keepsPlaces).
constexpr int64_t kRoundsPlacedAnew = 4;

struct SbAllocPass : FunctionPass<walrus::impl::SbAllocBase<SbAllocPass>> {
  using FunctionPass::FunctionPass;

  LogicalResult beforeFunctions(ArrayRef<ModuleOp> programs) override;
  void runOnFunction(FuncOp func) override;
  LogicalResult afterFunctions() override;

private:
  /// MLIR's thread pool when it may be used: the colouring's orders and
  /// the searches' directions run side by side on it, with the same
  /// result as without.
  llvm::ThreadPoolInterface *getThreads() {
    return getContext().isMultithreadingEnabled()
               ? &getContext().getThreadPool()
               : nullptr;
  }
  /// Places every SBUF tensor of `func`: rounds of buildRound, place and,
  /// while something is left out, chooseSpills and spill.
  LogicalResult allocate(FuncOp func, FuncResult &result);
  LogicalResult checkOptions();
  /// The bytes per partition to place in: sbuf-bytes, at most the target's.
  FailureOr<int64_t> getBudget(FuncOp func);

  /// One round's interference graph and the placements it must keep.
  struct Round {
    SbufProblem sbuf;
    SmallVector<std::optional<Place>> fixed;
  };
  /// Analyses `func` (liveness; memloc_split in round 1; row bands;
  /// partners) into its graph, with the free row sets' quarters chosen.
  /// Fails, with an error, on a tensor too big for SB or rows no
  /// placement aligns.
  FailureOr<Round> buildRound(FuncOp func, int64_t iteration,
                              int64_t partitions, int64_t budget,
                              MemlocNamer &namer, FuncResult &result);
  /// The round's problem placed by the strategy ladder around the `fixed`
  /// places (placement::Placer::place).
  Placement place(const Round &round, ArrayRef<std::optional<Place>> fixed,
                  int64_t partitions, int64_t budget, uint64_t &searchWorkLeft,
                  FuncResult &result);
  /// Whether round `iteration` first tries the last round's places: after
  /// a spill, but not in the last kRoundsPlacedAnew rounds. Keeping places
  /// spills fewer tensors per round, so it takes more rounds; those last
  /// ones place anew, as every round did before, and converge as they
  /// did.
  bool keepsPlaces(int64_t iteration) const {
    return iteration > 1 && iteration + kRoundsPlacedAnew <= maxIterations;
  }
  /// Places what `stay` leaves free around it (Placer::placeAround).
  Placement placeAround(const Round &round, ArrayRef<std::optional<Place>> stay,
                        int64_t partitions, int64_t budget,
                        uint64_t &searchWorkLeft, FuncResult &result);
  /// Places a round after a spill: first with every tensor the last round
  /// placed (`kept`) where it was, so that only the spill pieces
  /// look for room; that placement stands when it leaves fewer out than
  /// placing everything anew.
  Placement placeAfterSpill(const Round &round,
                            const DenseMap<Operation *, Place> &kept,
                            int64_t partitions, int64_t budget,
                            uint64_t &searchWorkLeft, FuncResult &result);
  /// Sets every tensor's address and base partition (nothing left out).
  void writePlacements(const SbufProblem &sbuf, const Placement &coloring,
                       FuncResult &result);
  /// The nodes to spill for what `coloring` left out: each one itself, or,
  /// for a spill tensor (which cannot spill again), its cheapest
  /// spillable neighbour. Fails with an error at the instruction when
  /// there is none.
  FailureOr<llvm::SetVector<unsigned>>
  chooseSpills(const SbufProblem &sbuf, const Placement &coloring,
               int64_t budget, const SmallPtrSetImpl<Operation *> &spillLocals);
  /// Moves the tensors of `toSpill` to DRAM homes with a short tensor per
  /// instruction (recorded in `spillLocals`).
  LogicalResult spill(const SbufProblem &sbuf, ArrayRef<unsigned> toSpill,
                      int64_t iteration, MemlocNamer &namer,
                      SmallPtrSetImpl<Operation *> &spillLocals,
                      FuncResult &result);

  /// Set by the dispatching instance when a report file is asked for.
  std::shared_ptr<FunctionResults<llvm::json::Value>> reportEntries;
  void chooseFreeRowQuarters(SbufProblem &sbuf, RowBands &rowBands,
                             int64_t partitions, int64_t budget,
                             ArrayRef<std::optional<Place>> fixed);
  PlacerOptions getPlacerOptions(int64_t partitions, int64_t budget);
  void record(const PlacerTally &tally, FuncResult &result);
};
} // namespace

/// Copy partners share one place, so one band: a group whose tensors the
/// tensor engine needs in different bands is not coalesced.
static void
dropPartnersAcrossBands(SmallVectorImpl<SmallVector<MemlocOp, 2>> &partners,
                        const RowBands &rowBands) {
  llvm::erase_if(partners, [&](ArrayRef<MemlocOp> group) {
    std::optional<unsigned> band;
    for (MemlocOp memloc : group)
      if (auto it = rowBands.bands.find(memloc); it != rowBands.bands.end()) {
        if (band && *band != it->second.bandClass)
          return true;
        band = it->second.bandClass;
      }
    return false;
  });
}

/// Gives the nodes holding matmult operands the band their rows fix.
static void applyRowBands(SbufProblem &sbuf, const RowBands &rowBands) {
  for (auto [node, members] :
       llvm::zip_equal(sbuf.problem.getNodes(), sbuf.members))
    for (MemlocOp memloc : members)
      if (auto it = rowBands.bands.find(memloc); it != rowBands.bands.end())
        node.bandClass = it->second.bandClass;
}

/// Most colouring work (trials times nodes) spent choosing free row sets'
/// quarters: small kernels try them all, large functions keep the turn.
static constexpr size_t kMaxRowTrialWork = size_t(1) << 18;

/// Tries each set of tied matmult operands that nothing fixes at its other
/// quarters, one set at a time, colouring the graph for each, and keeps
/// the quarter that spills least, then peaks lowest (the turn they start
/// in ignores what else the quarters hold). Sets with a copy partner keep
/// their turn: the partner shares their node.
void SbAllocPass::chooseFreeRowQuarters(SbufProblem &sbuf, RowBands &rowBands,
                                        int64_t partitions, int64_t budget,
                                        ArrayRef<std::optional<Place>> fixed) {
  placement::Problem &graph = sbuf.problem;
  size_t trials = 0;
  for (const FreeRowSet &set : rowBands.freeSets)
    trials += set.anchors.size() - 1;
  MutableArrayRef<Node> nodes = graph.getNodes();
  if (trials == 0 || !graph.hasEdges() ||
      trials * nodes.size() > kMaxRowTrialWork)
    return;
  DenseMap<Operation *, unsigned> nodeOf;
  for (auto [index, members] : llvm::enumerate(sbuf.members))
    for (MemlocOp memloc : members)
      nodeOf[memloc] = index;
  auto score = [&] {
    Placement coloring =
        colorGraph(graph, partitions, budget, fixed, getThreads());
    return std::make_pair(getSpillCost(nodes, coloring), coloring.peakBytes);
  };
  auto best = score();
  for (FreeRowSet &set : rowBands.freeSets) {
    if (set.anchors.size() < 2 || llvm::any_of(set.members, [&](auto member) {
          return sbuf.members[nodeOf.at(member.first)].size() > 1;
        }))
      continue;
    auto startAt = [&](int64_t anchor) {
      for (auto [memloc, offset] : set.members) {
        RowBand &band = rowBands.bands[memloc];
        band.base = anchor + offset;
        band.bandClass = *getPinnedBandClass(
            band.base, memloc.getMemoryType().getPartitions(), partitions);
        nodes[nodeOf.at(memloc)].bandClass = band.bandClass;
      }
    };
    int64_t chosen = set.anchors.front();
    for (int64_t anchor : llvm::drop_begin(set.anchors)) {
      startAt(anchor);
      if (auto tried = score(); tried < best) {
        best = tried;
        chosen = anchor;
      }
    }
    startAt(chosen);
  }
}

FailureOr<int64_t> SbAllocPass::getBudget(FuncOp func) {
  TargetAttr target = getTarget(func);
  int64_t budget =
      sbufBytes > 0 ? sbufBytes.getValue() : target.getSbufBytesPerPartition();
  // Placements past the target's SBUF would be invalid IR.
  if (budget > target.getSbufBytesPerPartition())
    return func.emitError()
           << "sb-alloc: sbuf-bytes=" << budget << " exceeds the target's "
           << target.getSbufBytesPerPartition() << " bytes per partition";
  return budget;
}

FailureOr<SbAllocPass::Round>
SbAllocPass::buildRound(FuncOp func, int64_t iteration, int64_t partitions,
                        int64_t budget, MemlocNamer &namer,
                        FuncResult &result) {
  std::optional<TensorLiveness> liveness;
  SmallVector<std::pair<TensorCopyOp, unsigned>> copies;
  auto analyze = [&] {
    copies.clear();
    liveness.emplace(func, [&](InstructionOpInterface instruction,
                               unsigned point, ArrayRef<LoopOp>) {
      if (auto copy = dyn_cast<TensorCopyOp>(*instruction))
        copies.push_back({copy, point});
    });
  };
  analyze();
  // memloc_split, before the first placement; its clones have live ranges
  // of their own.
  if (iteration == 1 &&
      (result.splits = splitDisjointSegments(func, *liveness, namer, explain)))
    analyze();
  FailureOr<RowBands> rowBands =
      stampRowBands(func, partitions, explain && iteration == 1);
  if (failed(rowBands))
    return failure();
  auto partners = findPartners(copies, *liveness, budget, explain);
  dropPartnersAcrossBands(partners, *rowBands);
  std::vector<SmallVector<RowBlockRange, 0>> blocks;
  if (rowBlocks)
    blocks = liveness->getBlockRanges(partitions / 4);
  Round round{buildSbufProblem(*liveness, partners, partitions,
                               {size_t(denseEdges), size_t(denseEdgesPerNode)},
                               blocks),
              {}};
  applyRowBands(round.sbuf, *rowBands);
  ArrayRef<Node> nodes = round.sbuf.problem.getNodes();
  // Checked on the graph, whose nodes know their sizes: a walk of its own
  // costs as much as the liveness at 100k tensors. Partner groups never
  // exceed the budget and clones follow their original, so the first node
  // too big is the first such tensor of the function.
  if (iteration == 1)
    for (auto [index, node] : llvm::enumerate(nodes))
      if (node.bytes > budget) {
        MemlocOp memloc = round.sbuf.members[index].front();
        return memloc.emitError()
               << "'" << memloc.getName() << "' is too big for SB, requires "
               << node.bytes << " bytes with SB size " << budget
               << onCore(memloc);
      }
  // Tensors placed before keep their place.
  round.fixed.resize(nodes.size());
  for (auto [index, members] : llvm::enumerate(round.sbuf.members))
    for (MemlocOp memloc : members)
      if (memloc.getAddress())
        round.fixed[index] = Place{int64_t(*memloc.getBasePartition()),
                                   int64_t(*memloc.getAddress())};
  chooseFreeRowQuarters(round.sbuf, *rowBands, partitions, budget, round.fixed);
  if (explain && iteration == 1)
    explainRowBands(*rowBands, partitions);
  return round;
}

/// The options the ladder runs with, from the pass's.
PlacerOptions SbAllocPass::getPlacerOptions(int64_t partitions,
                                            int64_t budget) {
  return {partitions, budget, uint64_t(denseBudget.getValue()), getThreads()};
}

/// Adds what a placer did to the function's figures and the statistics.
void SbAllocPass::record(const PlacerTally &tally, FuncResult &result) {
  numSearchWork += tally.searchWork;
  numDenseWork += tally.denseWork;
  result.denseWork += tally.denseWork;
  result.denseOrders += tally.denseOrders;
  result.denseWindows += tally.denseWindows;
  if (tally.searched)
    result.search = {tally.searchTensors, tally.searchPlaced};
}

Placement SbAllocPass::place(const Round &round,
                             ArrayRef<std::optional<Place>> fixed,
                             int64_t partitions, int64_t budget,
                             uint64_t &searchWorkLeft, FuncResult &result) {
  PlacerTally tally;
  Placer placer(getPlacerOptions(partitions, budget), searchWorkLeft, tally);
  Placement placed = placer.place(round.sbuf.problem, fixed, round.fixed);
  record(tally, result);
  return placed;
}

Placement SbAllocPass::placeAround(const Round &round,
                                   ArrayRef<std::optional<Place>> stay,
                                   int64_t partitions, int64_t budget,
                                   uint64_t &searchWorkLeft,
                                   FuncResult &result) {
  PlacerTally tally;
  Placer placer(getPlacerOptions(partitions, budget), searchWorkLeft, tally);
  Placement placed = placer.placeAround(round.sbuf.problem, stay, round.fixed);
  record(tally, result);
  return placed;
}

/// The place the last round gave every tensor of `node`, if they all had
/// the same one and the node's band class (which row bands may pin anew
/// each round) still allows it.
static std::optional<Place>
getKeptPlace(const Node &node, ArrayRef<MemlocOp> members,
             const DenseMap<Operation *, Place> &kept, int64_t partitions) {
  std::optional<Place> previous;
  for (MemlocOp memloc : members) {
    auto found = kept.find(memloc);
    if (found == kept.end() ||
        (previous && (previous->basePartition != found->second.basePartition ||
                      previous->address != found->second.address)))
      return std::nullopt;
    previous = found->second;
  }
  if (previous && llvm::none_of(getBandChoices(node.bandClass, partitions),
                                [&](auto choice) {
                                  return choice.first ==
                                         previous->basePartition;
                                }))
    return std::nullopt;
  return previous;
}

Placement SbAllocPass::placeAfterSpill(const Round &round,
                                       const DenseMap<Operation *, Place> &kept,
                                       int64_t partitions, int64_t budget,
                                       uint64_t &searchWorkLeft,
                                       FuncResult &result) {
  SmallVector<std::optional<Place>> stay(round.fixed);
  bool keepsAny = false;
  for (auto [index, node] : llvm::enumerate(round.sbuf.problem.getNodes()))
    if (!stay[index]) {
      stay[index] =
          getKeptPlace(node, round.sbuf.members[index], kept, partitions);
      keepsAny |= stay[index].has_value();
    }
  if (!keepsAny)
    return place(round, round.fixed, partitions, budget, searchWorkLeft,
                 result);
  // The report's search figures are those of the placement that stands.
  FuncResult::SearchReach before = result.search;
  Placement stayed =
      placeAround(round, stay, partitions, budget, searchWorkLeft, result);
  if (stayed.spilled.empty())
    return stayed;
  FuncResult::SearchReach stayedReach = result.search;
  result.search = before;
  Placement anew =
      place(round, round.fixed, partitions, budget, searchWorkLeft, result);
  if (anew.spilled.size() <= stayed.spilled.size())
    return anew;
  result.search = stayedReach;
  return stayed;
}

void SbAllocPass::writePlacements(const SbufProblem &sbuf,
                                  const Placement &coloring,
                                  FuncResult &result) {
  Builder builder(&getContext());
  result.peak = coloring.peakBytes;
  // A handful of base partitions: each attribute is uniqued once, not once
  // per tensor (the context's lookup is most of this loop at 60k tensors).
  DenseMap<int64_t, IntegerAttr> bases;
  for (auto [index, node] : llvm::enumerate(sbuf.problem.getNodes())) {
    const Place &placement = *coloring.placements[index];
    IntegerAttr address = builder.getI64IntegerAttr(placement.address);
    IntegerAttr &base = bases[placement.basePartition];
    if (!base)
      base = builder.getI64IntegerAttr(placement.basePartition);
    for (MemlocOp memloc : sbuf.members[index]) {
      memloc.setAddressAttr(address);
      memloc.setBasePartitionAttr(base);
    }
    if (reportFile.empty())
      continue;
    llvm::json::Array names;
    for (MemlocOp memloc : sbuf.members[index])
      names.push_back(memloc.getName().str());
    llvm::json::Object entry{{"tensors", std::move(names)},
                             {"base_partition", placement.basePartition},
                             {"partitions", node.partitions},
                             {"band_class", int64_t(node.bandClass)},
                             {"address", placement.address},
                             {"bytes", node.bytes}};
    if (node.live) {
      entry["start"] = int64_t(node.range.start);
      entry["end"] = int64_t(node.range.end);
    }
    result.placements.push_back(std::move(entry));
  }
}

FailureOr<llvm::SetVector<unsigned>>
SbAllocPass::chooseSpills(const SbufProblem &sbuf, const Placement &coloring,
                          int64_t budget,
                          const SmallPtrSetImpl<Operation *> &spillLocals) {
  const placement::Problem &graph = sbuf.problem;
  ArrayRef<Node> nodes = graph.getNodes();
  llvm::SetVector<unsigned> toSpill;
  auto isSpillLocal = [&](unsigned index) {
    return llvm::any_of(sbuf.members[index], [&](MemlocOp memloc) {
      return spillLocals.contains(memloc);
    });
  };
  for (unsigned index : coloring.spilled) {
    if (!isSpillLocal(index)) {
      toSpill.insert(index);
      continue;
    }
    std::optional<unsigned> victim;
    SmallVector<unsigned> neighbors;
    graph.collectNeighbors(index, neighbors);
    for (unsigned neighbor : neighbors)
      if (!isSpillLocal(neighbor) &&
          nodes[neighbor].spillCost !=
              std::numeric_limits<double>::infinity() &&
          (!victim || nodes[neighbor].spillCost < nodes[*victim].spillCost))
        victim = neighbor;
    if (!victim) {
      Operation *user = *sbuf.members[index].front()->getUsers().begin();
      return user->emitError()
             << "sb-alloc: the SBUF operands of this instruction do not fit "
                "in "
             << budget << " bytes per partition together" << onCore(user);
    }
    toSpill.insert(*victim);
  }
  return toSpill;
}

LogicalResult SbAllocPass::spill(const SbufProblem &sbuf,
                                 ArrayRef<unsigned> toSpill, int64_t iteration,
                                 MemlocNamer &namer,
                                 SmallPtrSetImpl<Operation *> &spillLocals,
                                 FuncResult &result) {
  for (unsigned index : toSpill) {
    const Node &node = sbuf.problem.getNodes()[index];
    for (MemlocOp memloc : sbuf.members[index]) {
      if (explain)
        emitRemark(memloc.getLoc())
            << "sb-alloc: spilling '" << memloc.getName() << "' ("
            << node.partitions << " x " << node.bytes << " B) to DRAM in round "
            << iteration;
      // Its pieces find their own places.
      memloc.removeAddressAttr();
      memloc.removeBasePartitionAttr();
      if (failed(spillToDram(memloc, namer, spillLocals)))
        return failure();
      ++result.spills;
      result.spilledBytes = llvm::SaturatingAdd(
          result.spilledBytes,
          llvm::SaturatingMultiply<uint64_t>(node.partitions, node.bytes));
    }
  }
  return success();
}

LogicalResult SbAllocPass::allocate(FuncOp func, FuncResult &result) {
  int64_t partitions = getTarget(func).getSbufPartitions();
  FailureOr<int64_t> budget = getBudget(func);
  if (failed(budget))
    return failure();
  MemlocNamer namer(func);
  SmallPtrSet<Operation *, 16> spillLocals;
  // The search's budget is shared by all spill rounds of the function.
  uint64_t searchWorkLeft = searchBudget;
  // Where the last round placed each tensor it did not spill (spilling
  // erases only the spilled tensors' operations, so these stay valid).
  DenseMap<Operation *, Place> kept;
  for (int64_t iteration = 1; iteration <= maxIterations; ++iteration) {
    result.iterations = iteration;
    FailureOr<Round> round =
        buildRound(func, iteration, partitions, *budget, namer, result);
    if (failed(round))
      return failure();
    const placement::Problem &graph = round->sbuf.problem;
    Placement coloring = keepsPlaces(iteration)
                             ? placeAfterSpill(*round, kept, partitions,
                                               *budget, searchWorkLeft, result)
                             : place(*round, round->fixed, partitions, *budget,
                                     searchWorkLeft, result);
    result.searchWork = searchBudget - searchWorkLeft;
    result.nodes = graph.getNodes().size();
    result.edges = graph.getNumEdges();
    result.storedEdges = graph.hasEdges() ? graph.getNumEdges() : 0;
    result.lowerBound = graph.getLowerBound();
    if (coloring.spilled.empty()) {
      writePlacements(round->sbuf, coloring, result);
      return success();
    }
    if (!result.overflow)
      result.overflow = FuncResult::Overflow{unsigned(graph.getNodes().size()),
                                             unsigned(coloring.spilled.size()),
                                             graph.getLowerBound()};
    FailureOr<llvm::SetVector<unsigned>> toSpill =
        chooseSpills(round->sbuf, coloring, *budget, spillLocals);
    if (failed(toSpill))
      return failure();
    kept.clear();
    for (auto [index, node] : llvm::enumerate(graph.getNodes()))
      if (coloring.placements[index] && !toSpill->contains(index))
        for (MemlocOp memloc : round->sbuf.members[index])
          kept[memloc] = *coloring.placements[index];
    if (failed(spill(round->sbuf, toSpill->getArrayRef(), iteration, namer,
                     spillLocals, result)))
      return failure();
  }
  return func.emitError() << "sb-alloc: " << getQualifiedName(func)
                          << " still spills after " << maxIterations.getValue()
                          << " rounds";
}

LogicalResult SbAllocPass::checkOptions() {
  if (sbufBytes < 0 || searchBudget < 0 || denseBudget < 0 || denseEdges < 0 ||
      denseEdgesPerNode < 0 || maxIterations < 1)
    return getOperation()->emitError(
        "sb-alloc: sbuf-bytes, search-budget and the dense- options must not "
        "be negative and max-iterations must be at least 1");
  return success();
}

LogicalResult SbAllocPass::beforeFunctions(ArrayRef<ModuleOp> programs) {
  if (failed(checkOptions()))
    return failure();
  for (ModuleOp program : programs)
    if (failed(expectSplit(program, "sb-alloc")))
      return failure();
  if (reportFile.empty())
    return success();
  reportEntries =
      std::make_shared<FunctionResults<llvm::json::Value>>(programs);
  return success();
}

void SbAllocPass::runOnFunction(FuncOp func) {
  if (!reportFile.empty() && !reportEntries) {
    func.emitError("sb-alloc: report-file gathers every function into one "
                   "file: schedule sb-alloc on the module or bir.kernel "
                   "holding them, not on each bir.func");
    return signalPassFailure();
  }
  if (failed(checkOptions()) ||
      failed(expectSplit(func->getParentOfType<ModuleOp>(), "sb-alloc")))
    return signalPassFailure();
  // Read before allocation splits the buffers' live ranges.
  RotatingCost rotating = getRotatingCost(func);
  FuncResult result;
  if (failed(allocate(func, result)))
    return signalPassFailure();
  numNodes += result.nodes;
  numEdges += result.edges;
  numIterations += result.iterations;
  numSpills += result.spills;
  numSplitNodes += result.splits;
  peakBytes = std::max<uint64_t>(peakBytes, result.peak);
  lowerBound = std::max<uint64_t>(lowerBound, result.lowerBound);
  // A spill makes the program move its tensors through DRAM: slower, and
  // never what a user expects silently.
  if (result.spills)
    emitWarning(func.getLoc())
        << "sb-alloc: " << getQualifiedName(func) << ": " << result.spills
        << " SBUF tensor(s) of " << result.spilledBytes
        << " B in all did not fit and go through DRAM (spilled); "
           "-sb-alloc=explain names each and the round it spilled in";
  if (report)
    emitRemark(func.getLoc())
        << "sb-alloc: " << getQualifiedName(func) << ": " << result.nodes
        << " node(s), " << result.edges << " edge(s), " << result.iterations
        << " round(s), " << result.spills << " spill(s), peak " << result.peak
        << " B/partition, lower bound " << result.lowerBound
        << " B/partition, search work " << result.searchWork
        << (result.search.tensors &&
                    result.search.placed < result.search.tensors
                ? llvm::formatv(" (placed at most {0} of {1})",
                                result.search.placed, result.search.tensors)
                      .str()
                : std::string())
        << (result.denseOrders
                ? llvm::formatv(
                      ", dense: {0} order(s), {1} window(s), work {2}",
                      result.denseOrders, result.denseWindows, result.denseWork)
                      .str()
                : std::string())
        << (result.overflow
                ? llvm::formatv("; before spilling: {1} of {0} node(s) "
                                "without a place, lower bound {2} B/partition",
                                result.overflow->nodes,
                                result.overflow->unplaced,
                                result.overflow->lowerBound)
                      .str()
                : std::string())
        << (rotating.tensors
                ? llvm::formatv(", {0} extra rotating buffer(s) take {1} "
                                "B/partition",
                                rotating.tensors, rotating.bytes)
                      .str()
                : std::string());
  if (!reportEntries)
    return;
  llvm::json::Object entry{
      {"function", getQualifiedName(func)},
      {"rounds", result.iterations},
      {"spills", result.spills},
      {"peak_bytes", result.peak},
      {"lower_bound_bytes", result.lowerBound},
      {"search_work", int64_t(result.searchWork)},
      {"edges", int64_t(result.edges)},
      {"stored_edges", int64_t(result.storedEdges)},
      {"search_tensors", result.search.tensors},
      {"search_placed", result.search.placed},
      {"dense_orders", result.denseOrders},
      {"dense_work", int64_t(result.denseWork)},
      {"dense_windows", result.denseWindows},
      {"unplaced_before_spilling",
       result.overflow ? result.overflow->unplaced : 0u},
      {"lower_bound_before_spilling",
       result.overflow ? result.overflow->lowerBound : result.lowerBound},
      {"nodes", std::move(result.placements)}};
  reportEntries->add(func, std::move(entry));
}

LogicalResult SbAllocPass::afterFunctions() {
  if (!reportEntries)
    return success();
  llvm::json::Array functions;
  for (llvm::json::Value &entry : reportEntries->take())
    functions.push_back(std::move(entry));
  reportEntries.reset();
  std::string error;
  if (failed(writeFile(
          reportFile, llvm::sys::fs::OF_Text,
          [&](llvm::raw_ostream &os) {
            os << llvm::formatv("{0:2}",
                                llvm::json::Value(llvm::json::Object{
                                    {"functions", std::move(functions)}}))
               << "\n";
          },
          error)))
    return getOperation()->emitError() << "sb-alloc: " << error;
  return success();
}
