//===- SweepFirstFit.cpp - First fit of nodes in order of time ------------===//

#include "Dense/SweepFirstFit.h"
#include "Coloring/FirstFit.h"
#include "Dense/FreeGaps.h"
#include "Walrus/Placement/Problem.h"

#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <cassert>
#include <limits>

using namespace walrus;
using namespace walrus::placement;

namespace {
/// What placing the head or one sweep adds to the run's result besides the
/// places of its own nodes, kept apart so that the two sweeps can run side
/// by side.
struct SweepTally {
  llvm::SmallVector<unsigned> spilled;
  int64_t peakBytes = 0;
  uint64_t work = 0;
  /// Scratch: the head index's sets a node meets.
  llvm::SmallVector<const OccupancyIndex::ByteRanges *, 64> headSets;
};

/// One run of placeSweeping.
class SweepPlacer {
public:
  SweepPlacer(const Problem &graph, const StartRanks &time, int64_t limit,
              llvm::ArrayRef<std::optional<Place>> fixed,
              const SweepRecord *previous, uint64_t &work);

  /// The nodes of `headAt` where it says, then first fit of `head` in turn,
  /// around the fixed nodes and the head placed before; its spills, peak
  /// and work in `tally`.
  void placeHead(llvm::ArrayRef<std::pair<unsigned, int64_t>> headAt,
                 llvm::ArrayRef<unsigned> head, SweepTally &tally);
  /// Each node of `order` at the lowest offset free both of the gaps (the
  /// nodes open at its start: the fixed ones, which all start before it,
  /// the head's started, and those placed before it) and of the head's
  /// nodes it meets that start later. Where the previous run's
  /// `previousOrder` and places make no difference, it copies them. It
  /// writes the places of `order`'s nodes only, and its spills, peak and
  /// work in `tally`: a sweep the other never meets may run beside it.
  void sweep(llvm::ArrayRef<unsigned> order, bool latestFirst,
             llvm::ArrayRef<unsigned> previousOrder, SweepTally &tally) const;
  Placement finish(llvm::ArrayRef<SweepTally> tallies);

private:
  /// A node's start ranks [first, last], negated and swapped latest first:
  /// the same sweep.
  std::pair<int64_t, int64_t> getSpan(unsigned node, bool latestFirst) const {
    auto [first, last] = time.ranks[node];
    return latestFirst ? std::make_pair(-int64_t(last), -int64_t(first))
                       : std::make_pair(int64_t(first), int64_t(last));
  }
  /// The node's own slot, and the peak of the tally it counts in.
  void place(unsigned node, int64_t address, SweepTally &tally) const {
    placements[node] = Place{0, address};
    tally.peakBytes = std::max(tally.peakBytes, address + nodes[node].bytes);
  }
  bool takesBytes(unsigned node) const {
    return nodes[node].live && nodes[node].bytes > 0;
  }
  /// Puts the head's placed nodes in `headIndex`, over their runs; its
  /// insertions count in `work`.
  void indexHead(uint64_t &work);
  /// The lowest offset for `node` free of `gaps` and of the nodes of
  /// `waiting` (the head's not started yet, by address) that it meets, or
  /// of the head's in `headIndex` when there is one.
  std::optional<int64_t> findInSweep(const FreeGaps &gaps, unsigned node,
                                     llvm::ArrayRef<unsigned> waiting,
                                     bool latestFirst, SweepTally &tally) const;
  /// The run of the head's ranks that holds `rank`, or -1 before the
  /// first.
  int64_t getHeadRun(unsigned rank) const {
    return llvm::upper_bound(headCuts, rank) - headCuts.begin() - 1;
  }
  /// Whether `node`'s place is the one the previous run gave it (or it has
  /// none in both).
  bool isPlacedAsBefore(unsigned node) const {
    const std::optional<Place> &now = result.placements[node],
                               &before = previous->placements[node];
    return now && before ? now->address == before->address : !now && !before;
  }
  /// The last point, in the sweep's direction, where a fixed or head node
  /// placed otherwise than before is still live.
  int64_t getChangedUntil(bool latestFirst) const;
  /// The previous run's places of `order`.
  void copyPrevious(llvm::ArrayRef<unsigned> order, SweepTally &tally) const;
  /// Asks for what the sweep reads of `node` ahead of its turn.
  void prefetch(unsigned node) const {
    // A node's size and whether it is live lie on different lines.
    __builtin_prefetch(&nodes[node].bytes);
    __builtin_prefetch(&nodes[node].live);
    __builtin_prefetch(&time.ranks[node]);
    __builtin_prefetch(&result.placements[node]);
    if (previous)
      __builtin_prefetch(&previous->placements[node]);
  }

  llvm::ArrayRef<Node> nodes;
  int64_t limit;
  llvm::ArrayRef<std::optional<Place>> fixed;
  /// A run on the same graph and limit, if any.
  const SweepRecord *previous;
  /// The run's work, which finish() adds the tallies' to.
  uint64_t &runWork;
  /// Over start ranks, like the index: two ranges meet exactly when their
  /// ranks do, and a sweep by rank is a sweep by time.
  const StartRanks &time;
  /// The fixed nodes that take bytes while live; the head's nodes, and
  /// those of them placed that take bytes.
  llvm::SmallVector<unsigned> fixedNodes, headNodes, headPlaced;
  /// The head's placed nodes, where they are too many for a node of the
  /// sweep to look at each one waiting (other windows' tensors:
  /// thousands), over the runs of start ranks in which none of them starts
  /// or ends (`headCuts`: each run's first rank). Two ranges of ranks meet
  /// exactly when their runs do, since a head node spans the whole of each
  /// run it meets; and the head's runs are far fewer than the function's
  /// ranks (on the 60k traces, 800-4900 against 60000).
  std::optional<OccupancyIndex> headIndex;
  std::vector<unsigned> headCuts;
  Placement result;
  /// `result.placements`, where each sweep writes its own nodes' slots.
  llvm::MutableArrayRef<std::optional<Place>> placements;
};
} // namespace

SweepPlacer::SweepPlacer(const Problem &graph, const StartRanks &time,
                         int64_t limit,
                         llvm::ArrayRef<std::optional<Place>> fixed,
                         const SweepRecord *previous, uint64_t &work)
    : nodes(graph.getNodes()), limit(limit), fixed(fixed),
      previous(previous && previous->limit == limit &&
                       previous->placements.size() == fixed.size()
                   ? previous
                   : nullptr),
      runWork(work), time(time) {
  result.placements.assign(fixed.begin(), fixed.end());
  placements = result.placements;
  for (auto [node, placement] : llvm::enumerate(fixed))
    if (placement) {
      result.peakBytes =
          std::max(result.peakBytes, placement->address + nodes[node].bytes);
      if (nodes[node].live && nodes[node].bytes > 0)
        fixedNodes.push_back(node);
    }
}

void SweepPlacer::placeHead(llvm::ArrayRef<std::pair<unsigned, int64_t>> headAt,
                            llvm::ArrayRef<unsigned> head, SweepTally &tally) {
  uint64_t &work = tally.work;
  auto addToHead = [&](unsigned node, int64_t address) {
    place(node, address, tally);
    if (takesBytes(node))
      headPlaced.push_back(node);
  };
  for (auto [node, address] : headAt) {
    headNodes.push_back(node);
    addToHead(node, address);
  }
  llvm::append_range(headNodes, head);
  // A few hundred nodes at most: each looks at the fixed nodes and the head
  // placed before it, rather than at an index of them all (at 60k points,
  // inserting the fixed nodes alone cost more than the sweep).
  FirstFit taken(limit, /*granuleShift=*/0);
  for (unsigned node : head) {
    taken.clear();
    if (nodes[node].live)
      for (llvm::ArrayRef<unsigned> group : {fixedNodes, headPlaced})
        for (unsigned other : group) {
          ++work;
          int64_t address = result.placements[other]->address;
          if (time.meet(node, other))
            taken.take(address, address + nodes[other].bytes);
        }
    ++work;
    std::optional<int64_t> offset = taken.find(nodes[node].bytes);
    if (!offset) {
      tally.spilled.push_back(node);
      continue;
    }
    addToHead(node, *offset);
  }
  if (headPlaced.size() > kMaxListedHead)
    indexHead(work);
}

void SweepPlacer::indexHead(uint64_t &work) {
  for (unsigned node : headPlaced) {
    headCuts.push_back(time.ranks[node].first);
    headCuts.push_back(time.ranks[node].second + 1);
  }
  llvm::sort(headCuts);
  headCuts.erase(std::unique(headCuts.begin(), headCuts.end()), headCuts.end());
  headIndex.emplace(headCuts.size());
  // By address, each range lands at the end of the sets it joins.
  llvm::SmallVector<unsigned> byAddress(headPlaced);
  llvm::sort(byAddress, [&](unsigned a, unsigned b) {
    return result.placements[a]->address < result.placements[b]->address;
  });
  for (unsigned node : byAddress) {
    int64_t address = result.placements[node]->address;
    headIndex->insert(getHeadRun(time.ranks[node].first),
                      getHeadRun(time.ranks[node].second), address,
                      address + nodes[node].bytes);
  }
  work += headIndex->getWork();
}

std::optional<int64_t>
SweepPlacer::findInSweep(const FreeGaps &gaps, unsigned node,
                         llvm::ArrayRef<unsigned> waiting, bool latestFirst,
                         SweepTally &tally) const {
  int64_t bytes = nodes[node].bytes, last = getSpan(node, latestFirst).second;
  uint64_t &work = tally.work;
  llvm::SmallVectorImpl<const OccupancyIndex::ByteRanges *> &headSets =
      tally.headSets;
  if (headIndex) {
    headSets.clear();
    int64_t lastRun = getHeadRun(time.ranks[node].second);
    if (lastRun >= 0)
      headIndex->collect(
          unsigned(std::max<int64_t>(getHeadRun(time.ranks[node].first), 0)),
          unsigned(lastRun), headSets);
  }
  for (int64_t from = 0;;) {
    std::optional<int64_t> free = gaps.findFrom(from, bytes, work);
    if (!free)
      return std::nullopt;
    if (headIndex) {
      std::optional<int64_t> clear =
          OccupancyIndex::findLowest(headSets, bytes, limit, work, *free);
      if (!clear || *clear == *free)
        return clear;
      from = *clear;
      continue;
    }
    // By address: one pass raises the offset past each in the way.
    int64_t clear = *free;
    for (unsigned other : waiting) {
      ++work;
      int64_t first = placements[other]->address;
      if (first - bytes >= clear)
        break;
      if (getSpan(other, latestFirst).first <= last &&
          first + nodes[other].bytes > clear)
        clear = first + nodes[other].bytes;
    }
    if (clear == *free)
      return clear;
    from = clear;
  }
}

/// How far ahead the sweep prefetches a node's data: the order goes by
/// time, the nodes' data by index, so each node is a cache miss otherwise.
static constexpr size_t kLookahead = 16;

int64_t SweepPlacer::getChangedUntil(bool latestFirst) const {
  int64_t until = std::numeric_limits<int64_t>::min();
  for (llvm::ArrayRef<unsigned> group : {fixedNodes, headNodes})
    for (unsigned node : group)
      if (takesBytes(node) && !isPlacedAsBefore(node))
        until = std::max(until, getSpan(node, latestFirst).second);
  return until;
}

void SweepPlacer::copyPrevious(llvm::ArrayRef<unsigned> order,
                               SweepTally &tally) const {
  for (unsigned node : order) {
    if (const std::optional<Place> &before = previous->placements[node])
      place(node, before->address, tally);
    else
      tally.spilled.push_back(node);
  }
}

namespace {
/// The bytes of the nodes open in a sweep, each listed at the last point
/// (counted from the sweep's first) it meets.
class OpenBytes {
public:
  OpenBytes(FreeGaps &gaps, unsigned points)
      : gaps(gaps), closingAt(points, -1) {}
  /// Takes [first, end) in the gaps until the sweep passes `lastPoint`.
  void take(int64_t first, int64_t end, size_t lastPoint) {
    gaps.take(first, end);
    open.push_back({first, end, closingAt[lastPoint]});
    closingAt[lastPoint] = int(open.size() - 1);
  }
  /// Frees the bytes of the nodes whose last point is before `point`, by
  /// point, then by address: the order a queue would free them in (the
  /// gaps' blocks, so the work, depend on it).
  void freeBefore(size_t point) {
    for (; freedBefore < point; ++freedBefore) {
      closing.clear();
      for (int at = closingAt[freedBefore]; at >= 0; at = open[at].next)
        closing.push_back({open[at].first, open[at].end});
      llvm::sort(closing);
      for (auto [first, end] : closing)
        gaps.release(first, end);
    }
  }

private:
  struct Open {
    int64_t first, end;
    /// The one listed before at the same point, or -1.
    int next;
  };
  FreeGaps &gaps;
  /// Per point, the last one listed there, or -1.
  std::vector<int> closingAt;
  std::vector<Open> open;
  size_t freedBefore = 0;
  llvm::SmallVector<std::pair<int64_t, int64_t>, 8> closing;
};

/// The head's placed nodes in one sweep: each takes its bytes in the gaps
/// from its start on; before that, the nodes that meet it look at it by
/// address.
class WaitingHead {
public:
  /// A node's start ranks [first, last] as the sweep goes.
  using Span = llvm::function_ref<std::pair<int64_t, int64_t>(unsigned)>;
  /// Without `listed`, the sweep finds the waiting nodes elsewhere (an
  /// index), and they are not kept by address.
  WaitingHead(llvm::ArrayRef<unsigned> placed, Span span,
              llvm::ArrayRef<std::optional<Place>> placements, bool listed)
      : starting(placed), span(span) {
    llvm::sort(starting,
               [&](unsigned a, unsigned b) { return span(a) > span(b); });
    if (!listed)
      return;
    waiting.assign(placed.begin(), placed.end());
    llvm::sort(waiting, [&](unsigned a, unsigned b) {
      return placements[a]->address < placements[b]->address;
    });
  }
  /// Ends the wait of those that start by `now`, and calls `start` on each
  /// of them still live there.
  void startBy(int64_t now, llvm::function_ref<void(unsigned)> start) {
    for (; !starting.empty() && span(starting.back()).first <= now;
         starting.pop_back()) {
      if (!waiting.empty())
        llvm::erase(waiting, starting.back());
      if (span(starting.back()).second >= now)
        start(starting.back());
    }
  }
  /// The waiting nodes by address, or none when none starts by `last`.
  llvm::ArrayRef<unsigned> getWaitingBy(int64_t last) const {
    if (starting.empty() || span(starting.back()).first > last)
      return {};
    return waiting;
  }

private:
  /// By start, the first last; and by address.
  llvm::SmallVector<unsigned> starting, waiting;
  Span span;
};
} // namespace

/// How many of the last nodes of `order` are those of `previous`.
static size_t countCommonTail(llvm::ArrayRef<unsigned> order,
                              llvm::ArrayRef<unsigned> previous) {
  size_t common = 0;
  while (common < order.size() && common < previous.size() &&
         order[order.size() - 1 - common] ==
             previous[previous.size() - 1 - common])
    ++common;
  return common;
}

void SweepPlacer::sweep(llvm::ArrayRef<unsigned> order, bool latestFirst,
                        llvm::ArrayRef<unsigned> previousOrder,
                        SweepTally &tally) const {
  FreeGaps gaps(limit);
  OpenBytes open(gaps, time.points);
  auto toPoint = [&](int64_t rank) {
    return size_t(latestFirst ? rank + int64_t(time.points) - 1 : rank);
  };
  auto span = [&](unsigned node) { return getSpan(node, latestFirst); };
  auto take = [&](unsigned node, int64_t address) {
    open.take(address, address + nodes[node].bytes, toPoint(span(node).second));
  };
  WaitingHead head(headPlaced, span, placements, !headIndex);
  int64_t now = std::numeric_limits<int64_t>::min();
  auto advanceTo = [&](unsigned node) {
    assert(span(node).first >= now && "not a sweep");
    now = span(node).first;
    open.freeBefore(toPoint(now));
    head.startBy(now, [&](unsigned started) {
      take(started, placements[started]->address);
    });
  };
  llvm::SmallVector<unsigned> fixedBySpan(fixedNodes);
  llvm::sort(fixedBySpan,
             [&](unsigned a, unsigned b) { return span(a) < span(b); });
  for (unsigned node : fixedBySpan) {
    advanceTo(node);
    take(node, fixed[node]->address);
  }
  // Where the order ends as the previous one did, once the sweep is past
  // every node placed otherwise, the bytes free are those of the previous
  // run at the same point: first fit places the rest as it did.
  size_t sameFrom = order.size();
  int64_t changedUntil = std::numeric_limits<int64_t>::max();
  if (previous) {
    sameFrom = order.size() - countCommonTail(order, previousOrder);
    changedUntil = getChangedUntil(latestFirst);
  }
  for (auto [position, node] : llvm::enumerate(order)) {
    if (position + kLookahead < order.size())
      prefetch(order[position + kLookahead]);
    // Never live, or no bytes: it meets nothing, as in the index (and a
    // node never live has no place in time to sweep to).
    std::optional<int64_t> offset;
    auto [first, last] = span(node);
    if (!takesBytes(node)) {
      if (nodes[node].bytes <= limit)
        offset = 0;
    } else {
      if (position >= sameFrom && first > changedUntil) {
        copyPrevious(order.drop_front(position), tally);
        return;
      }
      advanceTo(node);
      offset =
          findInSweep(gaps, node, head.getWaitingBy(last), latestFirst, tally);
    }
    if (!offset) {
      tally.spilled.push_back(node);
    } else {
      place(node, *offset, tally);
      if (takesBytes(node))
        take(node, *offset);
    }
    if (previous && takesBytes(node) && !isPlacedAsBefore(node))
      changedUntil = std::max(changedUntil, last);
  }
}

Placement SweepPlacer::finish(llvm::ArrayRef<SweepTally> tallies) {
  for (const SweepTally &tally : tallies) {
    llvm::append_range(result.spilled, tally.spilled);
    result.peakBytes = std::max(result.peakBytes, tally.peakBytes);
    runWork += tally.work;
  }
  llvm::sort(result.spilled);
  return std::move(result);
}

Placement walrus::placement::placeSweeping(const Problem &graph,
                                           const StartRanks &time,
                                           const SweepRun &run, uint64_t &work,
                                           llvm::ThreadPoolInterface *threads) {
  llvm::ArrayRef<unsigned> forward = run.forward, backward = run.backward;
  const SweepRecord *previous = run.previous;
  SweepPlacer placer(graph, time, run.capacity, run.fixed, previous, work);
  // The head's, the forward sweep's and the backward sweep's.
  SweepTally tallies[3];
  placer.placeHead(run.headAt, run.head, tallies[2]);
  auto sweepForward = [&] {
    placer.sweep(forward, /*latestFirst=*/false,
                 previous ? previous->forward : llvm::ArrayRef<unsigned>(),
                 tallies[0]);
  };
  auto sweepBackward = [&] {
    placer.sweep(backward, /*latestFirst=*/true,
                 previous ? previous->backward : llvm::ArrayRef<unsigned>(),
                 tallies[1]);
  };
  // The sweeps never meet: side by side, they place as one after the other.
  if (threads && !forward.empty() && !backward.empty()) {
    llvm::ThreadPoolTaskGroup group(*threads);
    group.async(sweepBackward);
    sweepForward();
    group.wait();
  } else {
    sweepForward();
    sweepBackward();
  }
  return placer.finish(tallies);
}
