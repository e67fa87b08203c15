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
#include "Walrus/Placement/BandSearch.h"
#include "Walrus/Placement/Coloring.h"
#include "Walrus/Placement/Dense.h"
#include "Walrus/Placement/DenseWindow.h"
#include "Walrus/Placement/Search.h"
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
/// The live nodes as the searches see them: lanes are the quarters band
/// choices are made of; a node with band choice [first, first + width)
/// and p partitions takes lanes first / quarter to ceil((first + p) /
/// quarter), so two placements share a partition exactly when they share
/// a lane (choices start on quarter boundaries).
struct SearchProblem {
  static constexpr unsigned kLanes = 4;
  SmallVector<BandSearchBuffer> buffers;
  /// Per buffer (the nodes chosen, in order), per band choice its base
  /// partition.
  SmallVector<SmallVector<int64_t, 4>> bases;

  /// Whether buffer `position` comes with its place (`fixed`).
  bool isFixed(size_t position) const {
    return buffers[position].range.fixedOffset >= 0;
  }
  bool hasFixed() const {
    return llvm::any_of(llvm::seq<size_t>(0, buffers.size()),
                        [&](size_t position) { return isFixed(position); });
  }

  /// Whether every buffer spans all lanes: the 1-D search's problem.
  bool isOneDimensional() const {
    return llvm::all_of(buffers, [&](const BandSearchBuffer &buffer) {
      return buffer.laneChoices.size() == 1 &&
             buffer.laneChoices.front() == std::make_pair(0u, kLanes);
    });
  }

  /// The problem of placing `graphNodes[chosen]` (all live), those with a
  /// `fixed` place where they are.
  SearchProblem(ArrayRef<Node> graphNodes, ArrayRef<unsigned> chosen,
                int64_t partitions, ArrayRef<std::optional<Place>> fixed) {
    int64_t laneWidth = partitions / kLanes;
    for (unsigned index : chosen) {
      const Node &node = graphNodes[index];
      BandSearchBuffer &buffer = buffers.emplace_back();
      buffer.range = {node.range.start, node.range.end, node.bytes};
      SmallVector<int64_t, 4> &choices = bases.emplace_back();
      auto addChoice = [&](int64_t first) {
        buffer.laneChoices.push_back(
            {unsigned(first / laneWidth),
             unsigned(std::min<int64_t>(
                 kLanes,
                 llvm::divideCeil(first + node.partitions, laneWidth)))});
        choices.push_back(first);
      };
      // A fixed tensor has one band choice, where it is (the verifier
      // keeps it inside the partitions). It takes every lane it touches.
      if (fixed[index]) {
        buffer.range.fixedOffset = fixed[index]->address;
        addChoice(fixed[index]->basePartition);
        continue;
      }
      for (auto [first, width] : getBandChoices(node.bandClass, partitions))
        addChoice(first);
    }
  }
};
} // namespace

namespace {
/// What allocating one function produced.
struct FuncResult {
  unsigned nodes = 0, iterations = 0, spills = 0, splits = 0;
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
  /// Colours the graph around the `fixed` places (then searches the
  /// contended region when something is left out), or, without stored
  /// edges, the dense path.
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
  /// Places what `stay` leaves free around it: as place() on a graph with
  /// edges, by one first fit order (largest first) on a dense one.
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
  /// Per chosen node its band choice and offset (-1: left out): the
  /// complete placement, or each direction's best partial one.
  struct SearchOutcome {
    SmallVector<SmallVector<std::pair<unsigned, int64_t>>, 2> candidates;
    bool complete = false;
  };
  /// Counts `work` the search did, in the statistic and against what is
  /// left of `search-budget`.
  void spendSearchWork(uint64_t work, uint64_t &searchWorkLeft) {
    numSearchWork += work;
    searchWorkLeft -= std::min(searchWorkLeft, work);
  }
  /// Counts first fit orders and their work on a dense function.
  void countDenseWork(uint64_t work, unsigned orders, FuncResult &result) {
    numDenseWork += work;
    result.denseWork += work;
    result.denseOrders += orders;
  }
  /// Runs the 1-D search when every buffer spans all partitions, else the
  /// search over partition bands, within the work left.
  SearchOutcome searchProblem(const SearchProblem &problem, int64_t budget,
                              uint64_t &searchWorkLeft);
  /// Replaces an overflowing colouring by a search's placement of the
  /// contended region: the independent parts of the function (runs of
  /// time no live range crosses out of) where colouring left a node out.
  /// Elsewhere the colouring stands. The 1-D search runs when every tensor
  /// there spans all partitions, else the search over partition bands;
  /// both place around those `pinned` (the places the tensors came with).
  /// Where a `fixed` place is one a spill round kept, neither runs. When the
  /// search cannot place everything, colouring completes the most it placed,
  /// and that spills instead if it costs less (not around pinned tensors: there
  /// only a complete placement counts).
  void searchBeforeSpilling(const placement::Problem &graph, int64_t partitions,
                            int64_t budget, uint64_t &searchWorkLeft,
                            ArrayRef<std::optional<Place>> fixed,
                            ArrayRef<std::optional<Place>> pinned,
                            Placement &coloring, FuncResult &result);
};
} // namespace

/// What the nodes `coloring` leaves out would cost to spill.
static double getSpillCost(ArrayRef<Node> nodes, const Placement &coloring) {
  double cost = 0;
  for (unsigned index : coloring.spilled)
    cost += nodes[index].spillCost;
  return cost;
}

/// The nodes of the independent parts where `coloring` left a node out,
/// tensors that come with an address among them.
static SmallVector<unsigned> getContendedNodes(const placement::Problem &graph,
                                               const Placement &coloring) {
  SmallVector<unsigned> parts = graph.getIndependentParts();
  llvm::DenseSet<unsigned> contended;
  for (unsigned index : coloring.spilled)
    contended.insert(parts[index]);
  SmallVector<unsigned> chosen;
  for (auto [index, part] : llvm::enumerate(parts))
    if (part != ~0u && contended.contains(part))
      chosen.push_back(index);
  return chosen;
}

SbAllocPass::SearchOutcome
SbAllocPass::searchProblem(const SearchProblem &problem, int64_t budget,
                           uint64_t &searchWorkLeft) {
  constexpr unsigned kLanes = SearchProblem::kLanes;
  llvm::ThreadPoolInterface *threads = getThreads();
  ArrayRef<BandSearchBuffer> buffers = problem.buffers;
  SearchOutcome outcome;
  if (problem.isOneDimensional()) {
    SmallVector<SearchBuffer> ranges;
    for (const BandSearchBuffer &buffer : buffers)
      ranges.push_back(buffer.range);
    SearchResult found =
        searchPlacement(ranges, budget, searchWorkLeft, threads);
    spendSearchWork(found.work, searchWorkLeft);
    outcome.complete = bool(found.offsets);
    if (outcome.complete)
      found.partials = {*found.offsets};
    for (ArrayRef<int64_t> offsets : found.partials) {
      auto &placements = outcome.candidates.emplace_back();
      for (int64_t offset : offsets)
        placements.push_back({0, offset});
    }
    return outcome;
  }
  BandSearchResult found =
      searchBandPlacement(buffers, kLanes, budget, searchWorkLeft, threads);
  spendSearchWork(found.work, searchWorkLeft);
  outcome.complete = bool(found.placements);
  if (outcome.complete)
    outcome.candidates.push_back(std::move(*found.placements));
  else
    llvm::append_range(outcome.candidates, found.partials);
  return outcome;
}

void SbAllocPass::searchBeforeSpilling(const placement::Problem &graph,
                                       int64_t partitions, int64_t budget,
                                       uint64_t &searchWorkLeft,
                                       ArrayRef<std::optional<Place>> fixed,
                                       ArrayRef<std::optional<Place>> pinned,
                                       Placement &coloring,
                                       FuncResult &result) {
  ArrayRef<Node> nodes = graph.getNodes();
  if (searchWorkLeft == 0 || partitions % SearchProblem::kLanes != 0)
    return;
  SmallVector<unsigned> chosen = getContendedNodes(graph, coloring);
  // Around places a spill round kept, colouring alone, as before the
  // search placed around fixed tensors.
  if (llvm::any_of(chosen, [&](unsigned index) {
        return fixed[index] && !pinned[index];
      }))
    return;
  SearchProblem problem(nodes, chosen, partitions, fixed);
  bool aroundPinned = problem.hasFixed();
  SearchOutcome outcome = searchProblem(problem, budget, searchWorkLeft);
  // Around pinned tensors only a complete placement replaces colouring's:
  // completing a partial one spills fewer tensors per round, and the
  // rounds after it, which keep their places, then spill one or two at a
  // time (a pinned hard-500: 68 rounds where colouring's took 10, past
  // max-iterations).
  if (aroundPinned && !outcome.complete)
    return;
  // How close it came: the most tensors one of its placements held.
  result.search = {unsigned(chosen.size()), 0};
  for (ArrayRef<std::pair<unsigned, int64_t>> placements : outcome.candidates)
    result.search.placed = std::max<unsigned>(
        result.search.placed, llvm::count_if(placements, [](auto placement) {
          return placement.second >= 0;
        }));
  // What the search left out, colouring places around what it placed if
  // it can; the cheapest of those replaces the colouring's own spills when
  // it spills less. Outside the contended region the colouring's
  // placements stand.
  for (ArrayRef<std::pair<unsigned, int64_t>> placements : outcome.candidates) {
    SmallVector<std::optional<Place>> placed(coloring.placements);
    for (auto [position, index] : llvm::enumerate(chosen)) {
      auto [choice, offset] = placements[position];
      if (problem.isFixed(position))
        continue;
      placed[index].reset();
      if (offset >= 0)
        placed[index] = Place{problem.bases[position][choice], offset};
    }
    Placement completed =
        colorGraph(graph, partitions, budget, placed, getThreads());
    if (outcome.complete ||
        getSpillCost(nodes, completed) < getSpillCost(nodes, coloring))
      coloring = std::move(completed);
  }
}

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

/// First fit orders of a whole dense function that the window search may
/// place (each costs about as much as one of the chains' orders).
static constexpr unsigned kWindowOrders = 4;

Placement SbAllocPass::place(const Round &round,
                             ArrayRef<std::optional<Place>> fixed,
                             int64_t partitions, int64_t budget,
                             uint64_t &searchWorkLeft, FuncResult &result) {
  const placement::Problem &graph = round.sbuf.problem;
  if (graph.hasEdges()) {
    Placement coloring =
        colorGraph(graph, partitions, budget, fixed, getThreads());
    if (!coloring.spilled.empty())
      searchBeforeSpilling(graph, partitions, budget, searchWorkLeft, fixed,
                           round.fixed, coloring, result);
    return coloring;
  }
  // Work per node: each order costs about the same per node at any size,
  // so every size gets about as many orders.
  uint64_t denseWork = llvm::SaturatingMultiply(
      uint64_t(denseBudget.getValue()), uint64_t(graph.getNodes().size()));
  // The window search first: where it reaches the bound, no order of the
  // chains is needed, and its first fit counts against their work.
  if (searchWorkLeft > 0) {
    WindowPlacement window =
        placeByWindowSearch(graph, partitions, budget, fixed, searchWorkLeft,
                            kWindowOrders, getThreads());
    spendSearchWork(window.searchWork, searchWorkLeft);
    countDenseWork(window.placeWork, window.orders, result);
    result.denseWindows += window.windowsPlaced;
    if (window.coloring)
      return std::move(*window.coloring);
    denseWork -= std::min(denseWork, window.placeWork);
  }
  DensePlacement dense =
      placeDense(graph, partitions, budget, fixed, denseWork, getThreads());
  countDenseWork(dense.work, dense.orders, result);
  return std::move(dense.coloring);
}

Placement SbAllocPass::placeAround(const Round &round,
                                   ArrayRef<std::optional<Place>> stay,
                                   int64_t partitions, int64_t budget,
                                   uint64_t &searchWorkLeft,
                                   FuncResult &result) {
  const placement::Problem &graph = round.sbuf.problem;
  if (graph.hasEdges())
    return place(round, stay, partitions, budget, searchWorkLeft, result);
  // A dense function's chains would place every kept node again in each
  // order; the pieces around them need one, largest first.
  SmallVector<unsigned> order;
  for (auto [index, place] : llvm::enumerate(stay))
    if (!place)
      order.push_back(index);
  ArrayRef<Node> nodes = graph.getNodes();
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return nodes[a].bytes > nodes[b].bytes;
  });
  uint64_t work = 0;
  Placement coloring =
      placeInOrder(graph, partitions, budget, stay, order, work);
  countDenseWork(work, 1, result);
  return coloring;
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
  std::error_code code;
  llvm::raw_fd_ostream os(reportFile, code, llvm::sys::fs::OF_Text);
  if (code)
    return getOperation()->emitError() << "sb-alloc: cannot write '"
                                       << reportFile << "': " << code.message();
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"functions", std::move(functions)}}))
     << "\n";
  return success();
}
