//===- SearchSupport.h - What the placement searches share ------*- C++ -*-===//
//
// The 1-D search (Search.cpp) and the partition-band search
// (BandSearch.cpp) share their view of time, what they keep per section
// (covering lists, fingerprint keys), their depth-first frame (budget,
// nogoods, independent parts), their variants (time reversed, at the
// bound) and their restart policy.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_SEARCHSUPPORT_H
#define WALRUS_PLACEMENT_SEARCHSUPPORT_H

#include "Walrus/Placement/Search.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <limits>

namespace walrus::placement {

/// Time cut into sections where some live range starts or ends: per
/// buffer the sections [first, last) it covers. Live ranges are first
/// compressed to the fewest time points with the same overlaps (starts
/// move back to the last end before them): program points separate
/// instructions, so a buffer written by the second of two instructions
/// would otherwise leave a sliver of dead space under the first, which a
/// search must fill.
struct Sections {
  unsigned count = 0;
  llvm::SmallVector<std::pair<unsigned, unsigned>> spans;
};
Sections cutIntoSections(llvm::ArrayRef<SearchBuffer> buffers);

/// Per buffer its rank (lower is tried first) from `order`, buffers best
/// first; with a seed, each rank moves by a random amount up to a fifth of
/// the buffers (a tenth before the 1-D search put candidates flush with
/// the walls first; since then the ranks decide less, and more noise
/// varies the attempts more: docs/placement/Search.md). std::mt19937_64's
/// output is fixed by the standard, so the ranks are the same on every
/// platform.
llvm::SmallVector<double> getNoisyRanks(llvm::ArrayRef<unsigned> order,
                                        uint64_t seed);

/// The first time boundary in sections [first, last) that no unplaced
/// buffer crosses (`crossing[s]`: how many cross from s into s + 1) with
/// something still to place before it (`left[s]` > 0): what is left on
/// either side are independent problems.
std::optional<unsigned> findIndependentSplit(unsigned first, unsigned last,
                                             llvm::ArrayRef<int64_t> left,
                                             llvm::ArrayRef<unsigned> crossing);

/// SplitMix64's finaliser: a fixed, well-spread 64-bit mix, for state
/// fingerprints.
uint64_t mixBits(uint64_t value);

/// The part of a state fingerprint saying that place `at` (a section, or
/// a cell of one) is filled up to `level`.
inline uint64_t getHeightKey(unsigned at, int64_t level) {
  return mixBits(uint64_t(level) ^ uint64_t(at) << 40);
}

/// Per section of time the buffers over it, the unplaced ones first, so
/// that the searches' loops over what is still to place skip what is
/// placed (in a deep search most of it).
class CoveringLists {
public:
  explicit CoveringLists(unsigned sections = 0)
      : lists(sections), unplacedCount(sections, 0) {}
  /// Adds the next buffer (numbered from 0 in the order added), unplaced,
  /// over sections [first, last).
  void add(unsigned first, unsigned last) {
    unsigned buffer = firstSection.size();
    firstSection.push_back(first);
    llvm::SmallVector<unsigned, 4> &mine = slots.emplace_back();
    for (unsigned s = first; s < last; ++s) {
      mine.push_back(lists[s].size());
      lists[s].push_back(buffer);
      ++unplacedCount[s];
    }
  }
  /// The unplaced buffers over section `s`.
  llvm::ArrayRef<unsigned> getUnplaced(unsigned s) const {
    return llvm::ArrayRef(lists[s]).take_front(unplacedCount[s]);
  }
  /// Moves `buffer` across the unplaced / placed boundary of every
  /// section it is over.
  void setPlaced(unsigned buffer, bool placed) {
    for (auto [offset, mine] : llvm::enumerate(slots[buffer])) {
      unsigned s = firstSection[buffer] + offset;
      unsigned boundary = placed ? unplacedCount[s] - 1 : unplacedCount[s];
      unsigned other = lists[s][boundary];
      std::swap(lists[s][mine], lists[s][boundary]);
      slots[other][s - firstSection[other]] = mine;
      mine = boundary;
      unplacedCount[s] += placed ? -1 : 1;
    }
  }

private:
  llvm::SmallVector<llvm::SmallVector<unsigned>> lists;
  llvm::SmallVector<unsigned> unplacedCount, firstSection;
  /// Per buffer, per section it is over, its place in that section's list.
  llvm::SmallVector<llvm::SmallVector<unsigned, 4>> slots;
};

/// Per section of time a 64-bit key that changes as a search goes, and
/// the XOR of the keys over any range of sections in O(log n) (a Fenwick
/// tree): a search fingerprints the part it solves at every step, and
/// visiting each section of it there cost a fifth of the 1-D search's time.
class SectionKeys {
public:
  explicit SectionKeys(unsigned sections = 0) : tree(sections + 1, 0) {}
  /// XORs `key` into section `s`'s key.
  void flip(unsigned s, uint64_t key) {
    for (unsigned i = s + 1; i < tree.size(); i += i & -i)
      tree[i] ^= key;
  }
  /// The XOR of the keys of sections [first, last).
  uint64_t get(unsigned first, unsigned last) const {
    return getPrefix(last) ^ getPrefix(first);
  }

private:
  uint64_t getPrefix(unsigned end) const {
    uint64_t key = 0;
    for (unsigned i = end; i > 0; i -= i & -i)
      key ^= tree[i];
    return key;
  }
  llvm::SmallVector<uint64_t> tree;
};

/// Per place (a section of time, or a cell of one) the fixed buffers over
/// it by offset, and a cursor at the lowest unplaced one, whose offset is
/// the place's ceiling (docs/placement/Search.md, "Fixed buffers in the
/// search"): how both searches keep the buffers that come with an offset.
class FixedLists {
public:
  /// Adds fixed buffer `index` at `offset`, `bytes` wide, over `place` of
  /// `places`.
  void add(size_t places, unsigned place, unsigned index, int64_t offset,
           int64_t bytes) {
    if (lists.empty())
      lists.resize(places);
    lists[place].push_back({offset, bytes, index});
  }
  bool empty() const { return lists.empty(); }
  /// Sorts each place's list by offset (empty ones first at one offset,
  /// so that every place lists those at an offset in the same order);
  /// false unless they lie inside `capacity` and apart. Bytes are compared
  /// with the capacity first, so no end overflows.
  bool sortAndCheck(int64_t capacity);
  /// The offset of the lowest unplaced one over `place` (the largest
  /// int64_t when none is left).
  int64_t getCeiling(unsigned place) const {
    return next[place] < lists[place].size()
               ? lists[place][next[place]].offset
               : std::numeric_limits<int64_t>::max();
  }
  /// The buffer at the ceiling of `place` (there must be one).
  unsigned getLowest(unsigned place) const {
    return lists[place][next[place]].index;
  }
  unsigned getCursor(unsigned place) const { return next[place]; }
  void setCursor(unsigned place, unsigned cursor) { next[place] = cursor; }
  /// The end of the unplaced fixed buffer over `place` that `bytes` at
  /// `level` would meet (the first ending above `level`: they are by
  /// offset, and so by end), or `level` when it meets none. Adds what a
  /// bisection looks at to `work`.
  int64_t getEndInTheWay(unsigned place, int64_t level, int64_t bytes,
                         uint64_t &work) const;
  /// The lowest level from `level` up at which `bytes` meet no unplaced
  /// fixed buffer over the places `forEachPlace` visits (it calls its
  /// argument with each).
  template <typename ForEachPlace>
  int64_t getLevelAbove(ForEachPlace forEachPlace, int64_t level, int64_t bytes,
                        uint64_t &work) const {
    for (bool moved = true; moved;) {
      moved = false;
      forEachPlace([&](unsigned place) {
        int64_t end = getEndInTheWay(place, level, bytes, work);
        moved |= end != level;
        level = end;
      });
    }
    return level;
  }

private:
  struct Fixed {
    int64_t offset, bytes;
    unsigned index;
  };
  llvm::SmallVector<llvm::SmallVector<Fixed, 2>> lists;
  llvm::SmallVector<unsigned> next;
};

/// Fingerprints of search states explored to the end without placing
/// everything. Such a state fails again however it is reached and in
/// whatever order candidates are tried, so a search that meets it again
/// backs out at once (nogood recording); this is what keeps a search from
/// re-solving an independent part that fails after every change to
/// another. Bounded: past a million states (16 MiB), new ones are not kept.
class FailedStates {
public:
  bool contains(uint64_t state) const { return states.contains(state); }
  void insert(uint64_t state) {
    if (states.size() < kMaxStates)
      states.insert(state);
  }

private:
  static constexpr size_t kMaxStates = size_t(1) << 20;
  llvm::DenseSet<uint64_t> states;
};

/// The depth-first frame both searches share: the work budget, nogoods,
/// and independent parts solved one after the other. `Derived` provides
/// getStepWork(first, last), hashState(first, last), solveAnew(first,
/// last) (one branching step over sections [first, last)), getMark() and
/// rollback(mark).
template <typename Derived> class DepthFirstSearch {
public:
  /// While `*flag` is set (by another thread), the attempt running ends as
  /// if out of work; null: never.
  void setCancel(const std::atomic<bool> *flag) { cancel = flag; }

protected:
  /// One attempt over sections [0, sections) within `limit` work: calls
  /// `onPlaced` while everything is placed, then undoes it all. Returns
  /// the work spent.
  template <typename OnPlaced>
  uint64_t attempt(uint64_t limit, unsigned sections, OnPlaced onPlaced) {
    workLimit = limit;
    work = 0;
    if (solve(0, sections))
      onPlaced();
    static_cast<Derived &>(*this).rollback(0);
    return work;
  }

  /// Places every unplaced buffer within sections [first, last), or fails
  /// leaving everything as it found it.
  bool solve(unsigned first, unsigned last) {
    Derived &self = static_cast<Derived &>(*this);
    work += self.getStepWork(first, last);
    // A branch this deep ends the attempt as if out of work: each step is
    // a frame, and the stack is finite (8 MiB on the main and pool
    // threads; a pinned hard-500 went 10k steps deep, which ASan's frames
    // overflow). Hard instances go a few thousand deep at most (hard-1000:
    // 1000). So does a cancelled one.
    if (depth >= kMaxDepth ||
        (cancel && cancel->load(std::memory_order_relaxed)))
      work = std::max(work, workLimit + 1);
    if (work > workLimit)
      return false;
    ++depth;
    llvm::scope_exit leave([&] { --depth; });
    uint64_t state = self.hashState(first, last);
    if (failed.contains(state))
      return false;
    if (self.solveAnew(first, last))
      return true;
    if (work <= workLimit) // searched to the end, not cut short
      failed.insert(state);
    return false;
  }

  /// Solves [first, split) and then [split, last), or neither.
  bool solveApart(unsigned first, unsigned split, unsigned last) {
    Derived &self = static_cast<Derived &>(*this);
    size_t mark = self.getMark();
    if (solve(first, split) && solve(split, last))
      return true;
    self.rollback(mark);
    return false;
  }

  static constexpr unsigned kMaxDepth = 4096;
  uint64_t workLimit = 0, work = 0;
  const std::atomic<bool> *cancel = nullptr;
  /// Steps taken on the current branch.
  unsigned depth = 0;
  FailedStates failed;
};

/// What one attempt of a restarted search did.
struct AttemptOutcome {
  bool placed = false;
  uint64_t work = 0;
};

/// Live ranges mirrored in time: the same problem, whose placements are
/// the same, but a search building bottom-up from the left meets it in
/// another order.
llvm::SmallVector<SearchBuffer>
reverseTime(llvm::ArrayRef<SearchBuffer> buffers);

/// Which search an attempt runs: over time as given or reversed, and at
/// the capacity or at the lower bound.
struct SearchVariant {
  bool reversed = false;
  bool atBound = false;
};

/// The searches that restarted attempts run on (SearchVariant), each with
/// its own nogoods: over time as given and reversed, at the capacity and,
/// when the lower bound leaves room and could hold everything, at the
/// bound.
template <typename SearchT> class SearchVariants {
public:
  /// `make(reversed, capacity)` builds a search over time as given or
  /// reversed.
  template <typename Make>
  SearchVariants(Make make, int64_t capacity)
      : forward(make(false, capacity)), backward(make(true, capacity)) {
    int64_t bound = forward.getLowerBound();
    if (bound >= capacity)
      return;
    forwardAtBound.emplace(make(false, bound));
    if (forwardAtBound->mayFit())
      backwardAtBound.emplace(make(true, bound));
    else
      forwardAtBound.reset();
  }

  bool mayFit() { return forward.mayFit(); }
  bool hasBound() const { return forwardAtBound.has_value(); }
  SearchT &get(SearchVariant variant) {
    if (variant.atBound)
      return variant.reversed ? *backwardAtBound : *forwardAtBound;
    return variant.reversed ? backward : forward;
  }
  /// Restarts attempts over the variants (runWithRestarts):
  /// `attempt(search, order, limit)` makes one on `search` and returns its
  /// placement, if it placed everything, and its work. Returns the
  /// placement an attempt made, if one placed everything, and the work.
  template <typename Placement, typename Attempt>
  std::pair<std::optional<Placement>, uint64_t>
  restart(size_t buffers, uint64_t workLimit,
          llvm::ThreadPoolInterface *threads, Attempt attempt);

  /// The searches at the capacity that placed something, the one whose
  /// best partial placement covers more first.
  llvm::SmallVector<const SearchT *, 2> getMostPlaced() const {
    llvm::SmallVector<const SearchT *, 2> searches;
    for (const SearchT *search : {&forward, &backward})
      if (search->getBestArea() > 0)
        searches.push_back(search);
    if (searches.size() == 2 && backward.getBestArea() > forward.getBestArea())
      std::swap(searches[0], searches[1]);
    return searches;
  }

private:
  SearchT forward, backward;
  std::optional<SearchT> forwardAtBound, backwardAtBound;
};

/// What a restarted search did: its work, and which variant's attempt
/// placed everything, if one did.
struct RestartOutcome {
  uint64_t work = 0;
  std::optional<SearchVariant> placedBy;
};

/// Depth-first search on packing problems is heavy-tailed: an attempt
/// stuck deep in one order's tree is often quick in another's. So attempts
/// `attempt(order, variant, limit)` restart under work limits growing as
/// Luby, Sinclair and Zuckerman's universal sequence (1 1 2 1 1 2 4 ...
/// times a unit per buffer), `order` counting the attempts of each
/// variant, and every variant running the same sequence of limits.
///
/// Variants: time as given and reversed run in pairs, with the same order
/// and limit, side by side on `threads` when given (they share nothing; a
/// pair's two halves of what is left of `workLimit` bound them), one after
/// the other otherwise, with the same result either way: when both place
/// everything, time as given wins. So once time as given has placed
/// everything, the reversed attempt is cancelled (side by side) or not
/// run, and the pair's work is the given one's. Their trees differ where it
/// matters, in what the search meets first: 2 of 120 hard-500 instances fit in
/// the budget only reversed, 4 of 10 hard-1000 only as given
/// (bench/minimalloc.py's generator).
///
/// Room to spare makes these searches weaker, not stronger: dead space is
/// allowed everywhere, so branches multiply and the tiling inferences cut
/// less (hard-500 instances given 1% more room: 20 of 30 fit instead of
/// 29). So with `withBound` (the bytes live at once leave room), pairs
/// packing into the lower bound instead, as searches of their own, take
/// turns with those at the capacity: what fits there fits in the capacity.
///
/// Stops when an attempt places everything, when one at the capacity
/// finishes without running out of work (that proves nothing fits; one at
/// the bound proves less), or when `workLimit` is spent.
/// `attempt(order, variant, limit, cancel)` ends early, as if out of work,
/// once `*cancel` is set (when not null).
RestartOutcome runWithRestarts(
    size_t buffers, uint64_t workLimit, bool withBound,
    llvm::ThreadPoolInterface *threads,
    llvm::function_ref<AttemptOutcome(uint64_t, SearchVariant, uint64_t,
                                      const std::atomic<bool> *)>
        attempt);

// SearchVariants::restart, after runWithRestarts, which it calls.
template <typename SearchT>
template <typename Placement, typename Attempt>
std::pair<std::optional<Placement>, uint64_t>
SearchVariants<SearchT>::restart(size_t buffers, uint64_t workLimit,
                                 llvm::ThreadPoolInterface *threads,
                                 Attempt attempt) {
  // Per direction (SearchVariant::reversed), what an attempt placed: the
  // two of a pair may run at once.
  std::optional<Placement> placed[2];
  RestartOutcome outcome =
      runWithRestarts(buffers, workLimit, hasBound(), threads,
                      [&](uint64_t order, SearchVariant variant, uint64_t limit,
                          const std::atomic<bool> *cancel) {
                        SearchT &search = get(variant);
                        search.setCancel(cancel);
                        auto [placement, work] = attempt(search, order, limit);
                        search.setCancel(nullptr);
                        bool complete = placement.has_value();
                        if (complete)
                          placed[variant.reversed] = std::move(placement);
                        return AttemptOutcome{complete, work};
                      });
  if (!outcome.placedBy)
    return {std::nullopt, outcome.work};
  return {std::move(placed[outcome.placedBy->reversed]), outcome.work};
}

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_SEARCHSUPPORT_H
