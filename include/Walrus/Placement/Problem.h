//===- Problem.h - A placement problem and its result -----------*- C++ -*-===//
//
// The vocabulary of the placement library, which knows no IR: nodes of
// partitions x bytes per partition, live over ranges of program points,
// edges between those live at once, partition-band classes, the capacity
// they are placed in, and the places a strategy gives them. lib/Analysis
// builds a Problem from a function's SBUF tensors (Interference.h);
// -sb-alloc writes the Placement back. docs/Reference.md glosses the
// names the spec pages use (Height is the band class).
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_PROBLEM_H
#define WALRUS_PLACEMENT_PROBLEM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace walrus::placement {

/// When a memory location holds a live value: program points
/// [start, end], both included.
struct LiveRange {
  unsigned start = 0, end = 0;
  /// All accesses sit in one loop and a value crosses its iterations, so
  /// the range covers the whole loop.
  bool loopCarried = false;

  bool overlaps(const LiveRange &other) const {
    return start <= other.end && other.start <= end;
  }
};

/// Partitions [firstRow, endRow) of a memory location and when they hold a
/// value anyone still reads (never: no range).
struct RowBlockRange {
  int64_t firstRow = 0, endRow = 0;
  std::optional<LiveRange> range;
};

/// Partition-band classes (the reference's Height): where a tensor may sit.
/// 0: any 32-partition quarter; 1..4: quarter 0..3; 5: any 64-partition
/// half; 6, 7: half 0, 1; 8: all 128 partitions.
enum class BandClass : unsigned {
  AnyQuarter = 0,
  Quarter0 = 1,
  AnyHalf = 5,
  Half0 = 6,
  Full = 8,
};
constexpr unsigned kNumBandClasses = 9;

/// The partition ranges [first, first + width) a class may occupy, on a
/// target with `partitions` partitions.
llvm::SmallVector<std::pair<int64_t, int64_t>, 4>
getBandChoices(unsigned bandClass, int64_t partitions);

/// The class of a free tensor of `partitions` partitions.
unsigned getBandClass(int64_t partitions, int64_t targetPartitions);

/// impactTable[i][j]: how many of class i's band choices one placement of
/// a class-j tensor can overlap, at worst (computed from the geometry).
using ImpactTable =
    std::array<std::array<int64_t, kNumBandClasses>, kNumBandClasses>;
ImpactTable computeImpactTable(int64_t partitions);

/// One node: a tensor, or tensors that share one place.
struct Node {
  int64_t partitions = 0;
  int64_t bytes = 0; // per partition
  unsigned bandClass = 0;
  LiveRange range;
  /// Rows (relative to the base partition) that live over less than
  /// `range`; empty: every row lives over `range`.
  llvm::SmallVector<RowBlockRange, 0> blocks;
  bool live = false; // false: never accessed, conflicts with nothing
  /// Accesses weighted by their loops' trip counts, times the bytes moved.
  double spillCost = 0;
};

/// Whether `a` placed from partition `baseA` and `b` from `baseB` hold a
/// common partition at a common point, by their row blocks.
bool shareRowsInTime(const Node &a, int64_t baseA, const Node &b,
                     int64_t baseB);

/// What a problem stores of its edges.
struct EdgeLimits {
  size_t maxEdges = std::numeric_limits<size_t>::max();
  size_t maxEdgesPerNode = 0;
};

/// A placement problem: nodes of partitions x bytes live over ranges of
/// program points, and an edge between each two whose ranges overlap
/// (they must not share bytes in a common partition).
class Problem {
public:
  /// Pairs stored at most, whatever the limits below: 1 GiB of neighbour
  /// lists (a function of 100k tensors live at once has 5G pairs).
  static constexpr size_t kMaxStoredEdges = size_t(1) << 28;

  /// The problem of `nodes` on `targetPartitions` partitions. The edges
  /// are not stored when there are more than `limits.maxEdges` and more
  /// than `limits.maxEdgesPerNode` per live node, or more than
  /// kMaxStoredEdges (a dense problem's nodes are placed without them:
  /// Dense.h); edges join whole ranges, and the lower bound counts row
  /// blocks.
  Problem(llvm::SmallVector<Node> nodes, int64_t targetPartitions,
          EdgeLimits limits = {});

  llvm::ArrayRef<Node> getNodes() const { return nodes; }
  llvm::MutableArrayRef<Node> getNodes() { return nodes; }
  /// Pairs of nodes live at the same time, stored or not.
  size_t getNumEdges() const { return firstEarlier.back(); }
  /// Whether the edges are stored (getNeighbors* need them).
  bool hasEdges() const { return bool(earlier); }
  /// The neighbours of `node`, from the stored edges or, without them, a
  /// scan of every node (for the few nodes spilling looks at).
  void collectNeighbors(unsigned node,
                        llvm::SmallVectorImpl<unsigned> &neighbors) const;
  /// The nodes whose live ranges overlap `node`'s, in start order (then
  /// index): those that start before it, then those that start within its
  /// range. Each edge is stored once: the second part is a slice of the
  /// start order.
  auto getNeighbors(unsigned node) const {
    return llvm::concat<const unsigned>(getNeighborsBefore(node),
                                        getNeighborsAfter(node));
  }
  llvm::ArrayRef<unsigned> getNeighborsBefore(unsigned node) const {
    assert(hasEdges() && "the graph was built without its edges");
    return llvm::ArrayRef(earlier.get() + firstEarlier[node],
                          earlier.get() + firstEarlier[node + 1]);
  }
  llvm::ArrayRef<unsigned> getNeighborsAfter(unsigned node) const {
    auto [first, end] = laterSlice[node];
    return llvm::ArrayRef(byStart).slice(first, end - first);
  }
  size_t getDegree(unsigned node) const {
    return getNeighborsBefore(node).size() + getNeighborsAfter(node).size();
  }

  /// Per node, the independent part of the function it lives in: parts
  /// are the runs of time between points that no live range crosses, so
  /// no edge joins two parts and each can be placed on its own. Numbered
  /// from 0 in time; ~0u for nodes that are not live.
  llvm::SmallVector<unsigned> getIndependentParts() const;

  /// Placement-independent lower bound on the peak bytes per partition:
  /// the largest total footprint live at one point, spread over all
  /// partitions.
  int64_t getLowerBound() const { return lowerBound; }

  /// Whether every node spans all partitions (a problem over time x bytes
  /// alone).
  bool isOneDimensional() const {
    return llvm::all_of(nodes, [](const Node &node) {
      return node.bandClass == unsigned(BandClass::Full);
    });
  }

private:
  /// Per program point, how many live ranges start at or before it and
  /// how many end before it.
  struct PointCounts {
    std::vector<size_t> startsUpTo, endsBefore;
  };
  /// The counts that place nodes in start order and size their neighbour
  /// lists, and the lower bound (the largest area live at a point, spread
  /// over all partitions): no sorting, no pairs.
  PointCounts countPoints(int64_t targetPartitions);
  /// Fills `byStart`: each node goes to the next free slot of its start
  /// (no comparison sort).
  void sortByStart(const PointCounts &counts);
  /// A node's later-starting neighbours follow it in `byStart` up to the
  /// last start within its range; its earlier-starting ones are counted
  /// here and listed by storeEdges.
  void sizeAdjacency(const PointCounts &counts);
  /// The earlier-starting neighbours: the nodes still open when each
  /// starts (a sweep), written front to back.
  void storeEdges();

  llvm::SmallVector<Node> nodes;
  /// Live nodes by start, then index.
  std::vector<unsigned> byStart;
  /// Compressed adjacency of the earlier-starting neighbours: node i's are
  /// earlier[firstEarlier[i], firstEarlier[i + 1]). Not zeroed first: the
  /// sweep writes every entry, and at millions of edges a zeroing pass
  /// shows.
  std::unique_ptr<unsigned[]> earlier;
  std::vector<size_t> firstEarlier;
  /// Per node, the positions [first, end) of `byStart` holding its
  /// later-starting neighbours.
  std::vector<std::pair<unsigned, unsigned>> laterSlice;
  int64_t lowerBound = 0;
};

/// Where a node sits: its first partition and its byte offset.
struct Place {
  int64_t basePartition = 0;
  int64_t address = 0;
};

/// A strategy's result.
struct Placement {
  /// Per node: its place, or nothing if it must spill.
  llvm::SmallVector<std::optional<Place>> placements;
  /// Nodes that found no place, in node order.
  llvm::SmallVector<unsigned> spilled;
  /// Highest byte any placed node reaches in its partitions.
  int64_t peakBytes = 0;
};

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_PROBLEM_H
