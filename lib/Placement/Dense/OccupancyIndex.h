//===- OccupancyIndex.h - Placed rectangles over time x bytes ---*- C++ -*-===//
//
// Where a new tensor fits among the ones placed so far, without listing the
// ones it meets in time: a segment tree over program points holds, per tree
// node, the byte ranges of the tensors live over all of its points and the
// union of those live over any of them, each kept coalesced. A time range
// meets O(log points) of those sets, so first fit probes them instead of
// every placed neighbour (at thousands of tensors live at once, the
// neighbours are the cost). docs/placement/Dense.md.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_OCCUPANCYINDEX_H
#define WALRUS_PLACEMENT_OCCUPANCYINDEX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace walrus::placement {

struct Node;

/// The nodes' live ranges over the distinct starts only: [s, e] becomes
/// [rank of s, rank of the last start <= e]. Two ranges overlap exactly
/// when their ranks do, and an index over the ranks is as deep as there
/// are starts, not program points.
struct StartRanks {
  /// Distinct starts (at least 1).
  unsigned points = 1;
  /// Per node; {0, 0} for one never live.
  std::vector<std::pair<unsigned, unsigned>> ranks;

  /// Whether live nodes `a` and `b` meet in time.
  bool meet(unsigned a, unsigned b) const {
    return ranks[a].first <= ranks[b].second &&
           ranks[b].first <= ranks[a].second;
  }
};
StartRanks rankByStarts(llvm::ArrayRef<Node> nodes);

class OccupancyIndex {
public:
  /// Disjoint, non-touching byte ranges [first, end), by first byte. Flat:
  /// the sets stay small (hundreds of ranges at most on dense traces), and
  /// probing them is the hot loop.
  using ByteRanges = std::vector<std::pair<int64_t, int64_t>>;

  /// Over program points [0, points).
  explicit OccupancyIndex(unsigned points);

  /// Forgets every range (keeping the storage) and the work count.
  void clear();

  /// Takes bytes [first, end) over points [start, last] (both included).
  void insert(unsigned start, unsigned last, int64_t first, int64_t end);

  /// Appends the sets whose union is every byte taken somewhere over
  /// points [start, last].
  void collect(unsigned start, unsigned last,
               llvm::SmallVectorImpl<const ByteRanges *> &sets) const;

  /// The lowest offset from `from` at which `bytes` bytes meet no range of
  /// `sets` and end at most at `limit`. Counts each probe of a set in
  /// `work`.
  static std::optional<int64_t>
  findLowest(llvm::ArrayRef<const ByteRanges *> sets, int64_t bytes,
             int64_t limit, uint64_t &work, int64_t from = 0);

  /// Set insertions done so far.
  uint64_t getWork() const { return work; }

private:
  void insert(unsigned node, unsigned low, unsigned high, unsigned start,
              unsigned last, int64_t first, int64_t end);
  void collect(unsigned node, unsigned low, unsigned high, unsigned start,
               unsigned last,
               llvm::SmallVectorImpl<const ByteRanges *> &sets) const;

  unsigned points;
  /// Per tree node (1 is the root, node n's children 2n and 2n + 1): the
  /// bytes of tensors live over all its points, and over any of them
  /// (a single point's `within` stays empty: it is its `covering`).
  std::vector<ByteRanges> covering, within;
  uint64_t work = 0;
};

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_OCCUPANCYINDEX_H
