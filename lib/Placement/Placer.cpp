//===- Placer.cpp - The strategy ladder of -sb-alloc ----------------------===//
//
// Colouring first; where it leaves a node out, the searches over the
// contended region; without stored edges, the dense window search and
// the chains of first fit orders (docs/SbAlloc.md, "The strategy ladder").
//
//===----------------------------------------------------------------------===//

#include "Walrus/Placement/Placer.h"
#include "Walrus/Placement/BandSearch.h"
#include "Walrus/Placement/Coloring.h"
#include "Walrus/Placement/Dense.h"
#include "Walrus/Placement/DenseWindow.h"
#include "Walrus/Placement/Search.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace walrus;
using namespace walrus::placement;

namespace walrus::placement {
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
} // namespace walrus::placement

/// What the nodes `coloring` leaves out would cost to spill.
double walrus::placement::getSpillCost(ArrayRef<Node> nodes,
                                       const Placement &coloring) {
  double cost = 0;
  for (unsigned index : coloring.spilled)
    cost += nodes[index].spillCost;
  return cost;
}

/// The nodes of the independent parts where `coloring` left a node out,
/// tensors that come with an address among them.
static SmallVector<unsigned> getContendedNodes(const Problem &graph,
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

Placer::SearchOutcome Placer::searchProblem(const SearchProblem &problem) {
  constexpr unsigned kLanes = SearchProblem::kLanes;
  llvm::ThreadPoolInterface *threads = options.threads;
  int64_t budget = options.capacity;
  ArrayRef<BandSearchBuffer> buffers = problem.buffers;
  SearchOutcome outcome;
  if (problem.isOneDimensional()) {
    SmallVector<SearchBuffer> ranges;
    for (const BandSearchBuffer &buffer : buffers)
      ranges.push_back(buffer.range);
    SearchResult found = searchPlacement(ranges, budget, workLeft, threads);
    spendSearchWork(found.work);
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
      searchBandPlacement(buffers, kLanes, budget, workLeft, threads);
  spendSearchWork(found.work);
  outcome.complete = bool(found.placements);
  if (outcome.complete)
    outcome.candidates.push_back(std::move(*found.placements));
  else
    llvm::append_range(outcome.candidates, found.partials);
  return outcome;
}

void Placer::searchBeforeSpilling(const Problem &graph,
                                  ArrayRef<std::optional<Place>> fixed,
                                  ArrayRef<std::optional<Place>> pinned,
                                  Placement &coloring) {
  int64_t partitions = options.partitions, budget = options.capacity;
  ArrayRef<Node> nodes = graph.getNodes();
  if (workLeft == 0 || partitions % SearchProblem::kLanes != 0)
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
  SearchOutcome outcome = searchProblem(problem);
  // Around pinned tensors only a complete placement replaces colouring's:
  // completing a partial one spills fewer tensors per round, and the
  // rounds after it, which keep their places, then spill one or two at a
  // time (a pinned hard-500: 68 rounds where colouring's took 10, past
  // max-iterations).
  if (aroundPinned && !outcome.complete)
    return;
  // How close it came: the most tensors one of its placements held.
  tally.searched = true;
  tally.searchTensors = unsigned(chosen.size());
  tally.searchPlaced = 0;
  for (ArrayRef<std::pair<unsigned, int64_t>> placements : outcome.candidates)
    tally.searchPlaced = std::max<unsigned>(
        tally.searchPlaced, llvm::count_if(placements, [](auto placement) {
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
        colorGraph(graph, partitions, budget, placed, options.threads);
    if (outcome.complete ||
        getSpillCost(nodes, completed) < getSpillCost(nodes, coloring))
      coloring = std::move(completed);
  }
}

/// First fit orders of a whole dense function that the window search may
/// place (each costs about as much as one of the chains' orders).
static constexpr unsigned kWindowOrders = 4;

void Placer::searchWindowsBeforeSpilling(const Problem &graph,
                                         ArrayRef<std::optional<Place>> fixed,
                                         ArrayRef<std::optional<Place>> pinned,
                                         Placement &coloring) {
  if (workLeft == 0 ||
      llvm::any_of(llvm::seq<size_t>(0, fixed.size()), [&](size_t index) {
        return fixed[index] && !pinned[index];
      }))
    return;
  if (WindowPlacement window = searchWindows(graph, pinned); window.coloring)
    coloring = std::move(*window.coloring);
}

WindowPlacement Placer::searchWindows(const Problem &graph,
                                      ArrayRef<std::optional<Place>> pinned) {
  WindowPlacement window =
      placeByWindowSearch(graph, pinned,
                          {options.partitions, options.capacity, workLeft,
                           kWindowOrders, options.threads});
  spendSearchWork(window.searchWork);
  countDenseWork(window.placeWork, window.orders);
  tally.denseWindows += window.windowsPlaced;
  return window;
}

Placement Placer::place(const Problem &graph,
                        ArrayRef<std::optional<Place>> fixed,
                        ArrayRef<std::optional<Place>> pinned) {
  int64_t partitions = options.partitions, budget = options.capacity;
  if (graph.hasEdges()) {
    Placement coloring =
        colorGraph(graph, partitions, budget, fixed, options.threads);
    if (coloring.spilled.empty())
      return coloring;
    // A quarter of the work is kept for the window search where it can
    // run: somas resnet50 at its lower bound defeats every attempt of the
    // region's search, and the window search places it (bench/results/
    // minimalloc-public.txt).
    uint64_t kept = graph.isOneDimensional() ? workLeft / 4 : 0;
    workLeft -= kept;
    searchBeforeSpilling(graph, fixed, pinned, coloring);
    workLeft += kept;
    if (!coloring.spilled.empty() && kept > 0)
      searchWindowsBeforeSpilling(graph, fixed, pinned, coloring);
    return coloring;
  }
  // Work per node: each order costs about the same per node at any size,
  // so every size gets about as many orders.
  uint64_t denseWork = llvm::SaturatingMultiply(
      options.denseWorkPerNode, uint64_t(graph.getNodes().size()));
  // The window search first: where it reaches the bound, no order of the
  // chains is needed, and its first fit counts against their work.
  if (workLeft > 0) {
    WindowPlacement window = searchWindows(graph, fixed);
    if (window.coloring)
      return std::move(*window.coloring);
    denseWork -= std::min(denseWork, window.placeWork);
  }
  DensePlacement dense =
      placeDense(graph, partitions, budget, fixed, denseWork, options.threads);
  countDenseWork(dense.work, dense.orders);
  return std::move(dense.coloring);
}

Placement Placer::placeAround(const Problem &graph,
                              ArrayRef<std::optional<Place>> stay,
                              ArrayRef<std::optional<Place>> pinned) {
  if (graph.hasEdges())
    return place(graph, stay, pinned);
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
  Placement coloring = placeInOrder(graph, options.partitions, options.capacity,
                                    stay, order, work);
  countDenseWork(work, 1);
  return coloring;
}
