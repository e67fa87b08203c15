//===- Search.cpp - Bounded search for a 1-D placement ------------------===//
//
// Time is cut into sections at every buffer's start and end; each section
// has a height (the top of what is placed over it so far) and each
// unplaced buffer a floor (the highest section under it). A step takes a
// valley (a run of open sections at one height, walled by higher or closed
// ones), the one with the fewest candidates, and either puts at its bottom
// one of the buffers whose floor is its height, or gives its first section
// up as dead space up to the next height around it: MiniMalloc's canonical
// bottom-up order. Two of MiniMalloc's inferences (capacity, independent
// parts) and two of ours (valley tiling, nogoods) prune it. Fixed buffers
// bound the sections under them until the sections reach their offset.
// docs/placement/Search.md has the details.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Placement/Search.h"
#include "Search/SearchSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <tuple>

using namespace walrus;
using namespace walrus::placement;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
/// How a search ranks the candidates at a section (MiniMalloc's static
/// preordering): lexicographically by the keys named, larger first; with a
/// seed, each rank moves by a random amount up to a fifth of the buffers.
/// With `eitherEnd`, a valley branches at whichever end has fewer
/// candidates, not always at its first section.
enum class Key { Total, Width, Area, Size };
struct CandidateOrder {
  SmallVector<Key, 3> keys;
  uint64_t seed = 0;
  bool eitherEnd = false;
};

class Search : public DepthFirstSearch<Search> {
public:
  Search(ArrayRef<SearchBuffer> input, int64_t capacity) : capacity(capacity) {
    Sections cut = cutIntoSections(input);
    size_t sections = cut.count;
    height.assign(sections, 0);
    remaining.assign(sections, 0);
    crossing.assign(sections, 0);
    covering = CoveringLists(sections);
    startingAt.resize(sections);
    keys = SectionKeys(sections);
    for (unsigned s = 0; s < sections; ++s)
      keys.flip(s, getHeightKey(s, 0));
    for (auto [buffer, span] : llvm::zip(input, cut.spans)) {
      Item item{span.first, span.second, buffer.bytes, buffer.fixedOffset};
      if (item.isFixed())
        for (unsigned s = item.first; s < item.last; ++s)
          fixed.add(sections, s, items.size(), item.fixedOffset, item.bytes);
      for (unsigned s = item.first; s < item.last; ++s)
        remaining[s] += item.bytes;
      // Fixed buffers are never candidates and their floors never matter
      // (their ceilings do): the covering lists leave them out, so that
      // rises over many fixed buffers do not pass each of them.
      covering.add(item.first, item.isFixed() ? item.first : item.last);
      for (unsigned s = item.first; s + 1 < item.last; ++s)
        ++crossing[s];
      startingAt[item.first].push_back(items.size());
      keys.flip(item.first, mixBits(items.size()));
      items.push_back(item);
    }
    floor.assign(items.size(), 0);
    offsets.assign(items.size(), -1);
    lowerBound = remaining.empty() ? 0 : *llvm::max_element(remaining);
    if (hasFixed()) {
      // Those at the bottom are placed before any attempt, for good: the
      // state after them is where every attempt starts (each would
      // otherwise place them again, uncounted against its budget).
      fixedFit = fixed.sortAndCheck(capacity) && placeFixed(0, sections);
      trail.clear();
    }
  }

  /// Of the placements tried so far, the one covering the most bytes x
  /// time (-1: unplaced).
  ArrayRef<int64_t> getBestPartial() const { return bestOffsets; }
  double getBestArea() const { return bestArea; }

  /// The most bytes live at one time: no placement is lower.
  int64_t getLowerBound() const { return lowerBound; }

  /// Whether the bytes live at each time fit at all (over the fixed ones
  /// placed at the bottom), and the fixed buffers inside the capacity,
  /// apart, and placed where they start.
  bool mayFit() const {
    return fixedFit &&
           llvm::all_of(llvm::seq<size_t>(0, height.size()), [&](size_t s) {
             return height[s] + remaining[s] <= capacity;
           });
  }

  /// Places every buffer, trying candidates in `order`, unless that takes
  /// more than `workLimit`.
  SearchResult run(const CandidateOrder &order, uint64_t workLimit) {
    rank = getRanks(order);
    eitherEnd = order.eitherEnd;
    SearchResult result;
    result.work =
        attempt(workLimit, height.size(), [&] { result.offsets = offsets; });
    return result;
  }

private:
  struct Item {
    unsigned first, last; // sections [first, last)
    int64_t bytes;
    /// -1 unless it must take this offset.
    int64_t fixedOffset;
    bool isFixed() const { return fixedOffset >= 0; }
  };

  static double getArea(const Item &item) {
    return double(item.bytes) * (item.last - item.first);
  }

  /// Lower ranks are tried first.
  SmallVector<double> getRanks(const CandidateOrder &order) const {
    auto keyOf = [&](const Item &item, Key key) -> double {
      int64_t width = item.last - item.first;
      switch (key) {
      case Key::Total: {
        int64_t total = 0;
        for (unsigned s = item.first; s < item.last; ++s)
          total = std::max(total, remaining[s]);
        return double(total);
      }
      case Key::Width:
        return double(width);
      case Key::Area:
        return double(width) * double(item.bytes);
      case Key::Size:
        return double(item.bytes);
      }
      llvm_unreachable("unknown key");
    };
    auto byKeys = llvm::to_vector(llvm::seq<unsigned>(0, items.size()));
    llvm::sort(byKeys, [&](unsigned a, unsigned b) {
      for (Key key : order.keys) {
        double x = keyOf(items[a], key), y = keyOf(items[b], key);
        if (x != y)
          return x > y;
      }
      return a < b;
    });
    return getNoisyRanks(byKeys, order.seed);
  }

  friend class DepthFirstSearch<Search>;

  uint64_t getStepWork(unsigned first, unsigned last) const {
    return last - first;
  }
  size_t getMark() const { return trail.size(); }

  /// A fingerprint of what sections [first, last) hold: their heights and
  /// the buffers still to place within them.
  uint64_t hashState(unsigned first, unsigned last) const {
    return mixBits(uint64_t(first) << 32 | last) ^ keys.get(first, last);
  }

  /// One step of solve(): independent parts apart, else a branch.
  bool solveAnew(unsigned first, unsigned last) {
    if (std::optional<unsigned> split =
            findIndependentSplit(first, last, remaining, crossing))
      return solveApart(first, *split, last);
    std::optional<Valley> valley = pickValley(first, last);
    // Sections at a fixed buffer's offset are no valleys; when they are all
    // that is left, something is still to place.
    if (!valley)
      return llvm::all_of(llvm::seq(first, last),
                          [&](unsigned s) { return remaining[s] == 0; });

    size_t mark = trail.size();
    unsigned section = valley->getSection();
    int64_t level = height[section];
    for (unsigned index : getCandidates(*valley)) {
      if (place(index, level) && solve(first, last))
        return true;
      rollback(mark);
      if (work > workLimit)
        return false;
    }
    // Nothing sits here at this level: the section stays empty up to the
    // next height beside it or the lowest floor of what covers it.
    int64_t next = capacity + 1;
    for (unsigned neighbor : {section - 1, section + 1})
      if (neighbor < height.size() && height[neighbor] > level)
        next = std::min(next, height[neighbor]);
    for (unsigned index : covering.getUnplaced(section))
      if (floor[index] > level)
        next = std::min(next, floor[index]);
    if (hasFixed()) {
      // A buffer kept off this level by a fixed one it meets sits above
      // that one, no lower; and the section rises no higher than the
      // fixed buffers over it.
      for (unsigned index : covering.getUnplaced(section))
        if (floor[index] == level)
          if (int64_t above = getLevelAboveFixed(index, level); above > level)
            next = std::min(next, above);
      next = std::min(next, getCeiling(section));
    }
    if (next + remaining[section] > capacity)
      return false;
    raise(section, next);
    if (placeFixed(section, section + 1) && valleysTile(section, section + 1) &&
        solve(first, last))
      return true;
    rollback(mark);
    return false;
  }

  /// A run of open sections at one height whose neighbours are walls
  /// (isWall): nothing placed elsewhere changes what can sit at its bottom,
  /// so any valley is a sound place to branch, not only the lowest. Its
  /// first section's bottom is covered by a buffer starting there (or
  /// stays empty), its last section's by one ending there: a search can
  /// branch at either (the one at the end is the first of the valley with
  /// time reversed).
  struct Valley {
    unsigned begin, end;
    /// At the section branched at.
    unsigned candidates;
    /// Branch at the last section rather than the first.
    bool atEnd = false;
    unsigned getSection() const { return atEnd ? end - 1 : begin; }
  };

  /// A section at a fixed buffer's offset lower than `level` is no wall: a
  /// buffer at `level` may reach over it, above that one. (The lowest open
  /// run stays a valley: each such section has one of its fixed buffer's
  /// sections, open, below it.)
  bool isWall(unsigned s, int64_t level) const {
    return s >= height.size() || remaining[s] == 0 || height[s] > level ||
           (isBlocked(s) && height[s] == level);
  }

  /// Fixed buffers (docs/placement/Search.md, "Fixed buffers in the search"):
  /// the sections under an unplaced one rise no higher than its offset (their
  /// ceiling); one whose sections all reach it is placed there at once.
  /// A section at its ceiling waits for the other sections of that buffer:
  /// nothing can sit at its bottom, so it is a wall, not a valley.
  bool isBlocked(unsigned s) const {
    return hasFixed() && height[s] == getCeiling(s);
  }
  bool hasFixed() const { return !fixed.empty(); }
  /// Whether buffer `index` (not fixed: the covering lists, which the
  /// callers go through, hold none) at `level` stays below every unplaced
  /// fixed buffer over its sections (always, without fixed buffers). What
  /// the fixed buffers' checks look at counts as work: many fixed buffers
  /// over a section must not make a unit of work slower without bound.
  bool fitsBelowFixed(unsigned index, int64_t level) {
    const Item &item = items[index];
    if (!hasFixed())
      return true;
    work += item.last - item.first;
    for (unsigned s = item.first; s < item.last; ++s)
      if (level + item.bytes > getCeiling(s))
        return false;
    return true;
  }

  int64_t getCeiling(unsigned s) const { return fixed.getCeiling(s); }

  /// Places the fixed buffers over sections [first, last) whose sections
  /// have all reached their offset (at a section, only the lowest unplaced
  /// one can have), and those this lets follow; false when one of them
  /// does not fit what remains.
  bool placeFixed(unsigned first, unsigned last) {
    if (!hasFixed())
      return true;
    // The sections still to look at, a range per buffer placed (that buffer
    // lets those above it follow): thousands can stack up, so a stack of
    // ranges, not recursion, visited in the same order.
    SmallVector<std::pair<unsigned, unsigned>, 4> ranges{{first, last}};
    while (!ranges.empty()) {
      auto &[next, end] = ranges.back();
      if (next == end) {
        ranges.pop_back();
        continue;
      }
      unsigned s = next++;
      ++work;
      if (!isBlocked(s))
        continue;
      unsigned index = fixed.getLowest(s);
      const Item &item = items[index];
      work += item.last - item.first;
      bool reached = true;
      for (unsigned t = item.first; t < item.last && reached; ++t)
        reached = height[t] == item.fixedOffset;
      if (!reached)
        continue;
      if (!commit(index, item.fixedOffset))
        return false;
      // It was the lowest unplaced one over each of its sections.
      for (unsigned t = item.first; t < item.last; ++t) {
        trail.push_back({Change::Ceiling, t, int64_t(fixed.getCursor(t))});
        fixed.setCursor(t, fixed.getCursor(t) + 1);
      }
      ranges.push_back({item.first, item.last});
    }
    return true;
  }

  /// The unplaced buffers that can sit at the bottom of section `s`.
  unsigned countCandidates(unsigned s) {
    work += covering.getUnplaced(s).size();
    return llvm::count_if(covering.getUnplaced(s), [&](unsigned index) {
      return floor[index] == height[s] && fitsBelowFixed(index, height[s]);
    });
  }

  /// The valley with the fewest candidates at its first section, or with
  /// `eitherEnd` at the end with fewer (fail first), the lowest and then
  /// leftmost on ties.
  std::optional<Valley> pickValley(unsigned first, unsigned last) {
    std::optional<Valley> best;
    for (unsigned begin = first, end; begin < last; begin = end) {
      end = begin + 1;
      if (remaining[begin] == 0 || isBlocked(begin))
        continue;
      int64_t level = height[begin];
      while (end < last && remaining[end] > 0 && height[end] == level &&
             !isBlocked(end))
        ++end;
      work += end - begin;
      // Beyond [first, last) nothing unplaced crosses: walls too.
      if ((begin > first && !isWall(begin - 1, level)) ||
          (end < last && !isWall(end, level)))
        continue;
      Valley valley{begin, end, countCandidates(begin)};
      if (eitherEnd && end - begin > 1) {
        unsigned atEnd = countCandidates(end - 1);
        if (atEnd < valley.candidates)
          valley = Valley{begin, end, atEnd, true};
      }
      if (hasWaiting(valley.getSection(), level))
        continue;
      if (!best || std::make_pair(valley.candidates, level) <
                       std::make_pair(best->candidates, height[best->begin]))
        best = valley;
    }
    return best;
  }

  /// Whether a buffer at the bottom of section `s` can sit there once the
  /// fixed buffers below that level in its way are placed: branching there
  /// now would rule that out, so the valley waits. (The lowest valley never
  /// waits: what it would wait for lies lower.)
  bool hasWaiting(unsigned s, int64_t level) {
    if (!hasFixed())
      return false;
    return llvm::any_of(covering.getUnplaced(s), [&](unsigned index) {
      return floor[index] == level && !fitsBelowFixed(index, level) &&
             getLevelAboveFixed(index, level) == level;
    });
  }

  /// The lowest level from `level` up at which buffer `index` meets no
  /// unplaced fixed buffer over its sections.
  int64_t getLevelAboveFixed(unsigned index, int64_t level) {
    const Item &item = items[index];
    auto forEachSection = [&](auto visit) {
      for (unsigned s = item.first; s < item.last; ++s)
        visit(s);
    };
    return fixed.getLevelAbove(forEachSection, level, item.bytes, work);
  }

  /// What may sit at the bottom of the section `valley` branches at (its
  /// first or its last): first those whose top is flush with the walls
  /// (with both, then one: the skyline stays flat, so the valleys left are
  /// wide and few; on hard-1000 this took 43 to 50 of 60 in the default
  /// budget), then those that fill the valley's whole width, then in the
  /// search's order.
  SmallVector<unsigned, 16> getCandidates(const Valley &valley) {
    SmallVector<unsigned, 16> candidates;
    int64_t level = height[valley.begin];
    for (unsigned index : covering.getUnplaced(valley.getSection()))
      if (floor[index] == level && fitsBelowFixed(index, level))
        candidates.push_back(index);
    auto wallHeight = [&](unsigned s) -> int64_t {
      return s < height.size() ? height[s] : -1;
    };
    // The wall the candidates touch, and the one across the valley.
    int64_t near = wallHeight(valley.begin - 1);
    int64_t across = wallHeight(valley.end);
    if (valley.atEnd)
      std::swap(near, across);
    llvm::sort(candidates, [&](unsigned a, unsigned b) {
      auto key = [&](unsigned index) {
        const Item &item = items[index];
        int64_t top = level + item.bytes;
        bool whole = item.first == valley.begin && item.last == valley.end;
        int flush = (top == near) + (whole && top == across);
        return std::make_tuple(-flush, !whole, rank[index], index);
      };
      return key(a) < key(b);
    });
    return candidates;
  }

  /// Puts item `index` at `offset` if every section it covers still holds
  /// what remains to be placed over it, and the inferences still hold.
  bool place(unsigned index, int64_t offset) {
    const Item &item = items[index];
    return commit(index, offset) && placeFixed(item.first, item.last) &&
           valleysTile(item.first, item.last);
  }

  /// Puts item `index` at `offset` if every section it covers still holds
  /// what remains to be placed over it.
  bool commit(unsigned index, int64_t offset) {
    const Item &item = items[index];
    work += item.last - item.first;
    int64_t top = offset + item.bytes;
    for (unsigned s = item.first; s < item.last; ++s)
      if (top + remaining[s] - item.bytes > capacity)
        return false;
    offsets[index] = offset;
    covering.setPlaced(index, true);
    keys.flip(item.first, mixBits(index));
    placedArea += getArea(item);
    trail.push_back({Change::Placed, index, 0});
    for (unsigned s = item.first; s < item.last; ++s) {
      remaining[s] -= item.bytes;
      if (s + 1 < item.last)
        --crossing[s];
    }
    for (unsigned s = item.first; s < item.last; ++s)
      raise(s, top);
    return true;
  }

  /// Lifts section `s` to `top`, and with it the floors of what covers it.
  /// (MiniMalloc's unallocated-floor inference, which checks after every
  /// rise that some buffer over each section lies low enough, is not
  /// made: on hard-1000 instances it cost more work than it saved, 54
  /// of 60 fitting in the default budget with it and 56 without, and
  /// all 360 hard-500 instances still fit, in 20% less time.)
  void raise(unsigned s, int64_t top) {
    trail.push_back({Change::Height, s, height[s]});
    keys.flip(s, getHeightKey(s, height[s]) ^ getHeightKey(s, top));
    height[s] = top;
    work += covering.getUnplaced(s).size();
    for (unsigned other : covering.getUnplaced(s)) {
      if (floor[other] >= top)
        continue;
      trail.push_back({Change::Floor, other, floor[other]});
      floor[other] = top;
    }
  }

  /// After sections [a, b) changed height: whether the valleys next to
  /// them (runs of one height walled by higher or closed sections) can
  /// still be covered at their floor, up to the sections with room to
  /// spare: by unplaced buffers inside the valley, end to end.
  bool valleysTile(unsigned a, unsigned b) {
    for (unsigned s : {a - 1, a, b})
      if (s < height.size() && !valleyTiles(s))
        return false;
    return true;
  }

  bool valleyTiles(unsigned s) {
    // A section at a fixed buffer's offset is that buffer's to cover.
    if (remaining[s] == 0 || isBlocked(s))
      return true;
    int64_t level = height[s];
    auto isFloor = [&](unsigned t) {
      return t < height.size() && remaining[t] > 0 && height[t] == level &&
             !isBlocked(t);
    };
    unsigned begin = s, end = s + 1;
    while (isFloor(begin - 1))
      --begin;
    while (isFloor(end))
      ++end;
    if (!isWall(begin - 1, level) || !isWall(end, level))
      return true;
    work += end - begin;
    reached.assign(end - begin + 1, false);
    reached[0] = true;
    for (unsigned t = begin; t < end; ++t) {
      if (!reached[t - begin])
        continue;
      if (height[t] + remaining[t] < capacity)
        reached[t + 1 - begin] = true;
      work += startingAt[t].size();
      for (unsigned index : startingAt[t])
        if (offsets[index] < 0 && items[index].last <= end)
          reached[items[index].last - begin] = true;
    }
    return reached.back();
  }

  void rollback(size_t mark) {
    while (trail.size() > mark) {
      Change change = trail.pop_back_val();
      switch (change.kind) {
      case Change::Height:
        keys.flip(change.index,
                  getHeightKey(change.index, height[change.index]) ^
                      getHeightKey(change.index, change.value));
        height[change.index] = change.value;
        break;
      case Change::Floor:
        floor[change.index] = change.value;
        break;
      case Change::Ceiling:
        fixed.setCursor(change.index, unsigned(change.value));
        break;
      case Change::Placed: {
        const Item &item = items[change.index];
        // Leaving a placement: keep it if it covers more than any before.
        if (placedArea > bestArea) {
          bestArea = placedArea;
          bestOffsets = offsets;
        }
        placedArea -= getArea(item);
        keys.flip(item.first, mixBits(change.index));
        for (unsigned s = item.first; s < item.last; ++s) {
          remaining[s] += item.bytes;
          if (s + 1 < item.last)
            ++crossing[s];
        }
        offsets[change.index] = -1;
        covering.setPlaced(change.index, false);
        break;
      }
      }
    }
  }

  /// One undoable step: a section's height or first unplaced fixed buffer
  /// (Ceiling) or a buffer's floor before it changed, or a placement.
  struct Change {
    enum Kind { Height, Floor, Ceiling, Placed } kind;
    unsigned index;
    int64_t value;
  };

  int64_t capacity;
  SmallVector<Item> items;
  /// Per section: height, bytes still to place over it, and unplaced
  /// buffers crossing into the next section.
  SmallVector<int64_t> height, remaining;
  SmallVector<unsigned> crossing;
  /// Per buffer: floor and offset (-1 while unplaced).
  SmallVector<int64_t> floor, offsets;
  /// With fixed buffers, per section: those over it by offset, and the
  /// first unplaced one among them (they are placed lowest first), whose
  /// offset is the ceiling (getCeiling).
  FixedLists fixed;
  /// Whether the fixed buffers are apart, and those at the bottom fit.
  bool fixedFit = true;
  /// The most bytes live at one time, fixed buffers included.
  int64_t lowerBound = 0;
  /// Per section the buffers over it and those starting there.
  CoveringLists covering;
  SmallVector<SmallVector<unsigned>> startingAt;
  /// Per section: its height's key and those (mixBits(index)) of the
  /// unplaced buffers starting there, combined.
  SectionKeys keys;
  SmallVector<bool> reached;
  /// Per buffer its place in the current attempt's order.
  SmallVector<double> rank;
  /// The current attempt's CandidateOrder::eitherEnd.
  bool eitherEnd = false;
  SmallVector<Change> trail;
  /// Bytes x sections placed now, and the most placed so far (and how).
  /// Floating point: with tensors of 2^48 bytes the sum passes 2^63 (below
  /// 2^53, as on any real trace, it is exact).
  double placedArea = 0, bestArea = 0;
  SmallVector<int64_t> bestOffsets;
};
} // namespace

SearchResult
walrus::placement::searchPlacement(ArrayRef<SearchBuffer> buffers,
                                   int64_t capacity, uint64_t workLimit,
                                   llvm::ThreadPoolInterface *threads) {
  SearchResult result;
  SmallVector<SearchBuffer> reversed = reverseTime(buffers);
  SearchVariants<Search> searches(
      [&](bool backward, int64_t height) {
        return Search(backward ? reversed : buffers, height);
      },
      capacity);
  if (!searches.mayFit())
    return result;
  // MiniMalloc's three preorderings, five more of the same keys, then the
  // same with seeded noise (deterministic, like everything else). Hard
  // instances fit mostly in one of the plain orders' first attempts, and
  // each order is the one that fits some of them; noisy ranks rarely win.
  const CandidateOrder orders[] = {{{Key::Width, Key::Area, Key::Total}, 0},
                                   {{Key::Total, Key::Area, Key::Width}, 0},
                                   {{Key::Total, Key::Width, Key::Area}, 0},
                                   {{Key::Size, Key::Width}, 0},
                                   {{Key::Size, Key::Total}, 0},
                                   {{Key::Area, Key::Width}, 0},
                                   {{Key::Width, Key::Size}, 0},
                                   {{Key::Total, Key::Size}, 0}};
  constexpr unsigned kOrders = std::size(orders);
  std::tie(result.offsets, result.work) =
      searches.restart<SmallVector<int64_t>>(
          buffers.size(), workLimit, threads,
          [&](Search &search, uint64_t index, uint64_t limit) {
            CandidateOrder order = orders[index % kOrders];
            if (index >= kOrders)
              order.seed = index;
            // Every other attempt branches at either end of a valley: in
            // every attempt, 53 of 60 hard-1000 instances fit in the
            // default budget (50 at the first section only), but
            // hard-500-s122 no longer did in 4x the budget; taking turns,
            // 54 and all 150 hard-500 (docs/placement/Search.md, "Search before
            // spilling").
            order.eitherEnd = index % 2 == 1;
            SearchResult found = search.run(order, limit);
            return std::make_pair(std::move(found.offsets), found.work);
          });
  if (!result.offsets)
    for (const Search *search : searches.getMostPlaced())
      result.partials.emplace_back(search->getBestPartial());
  return result;
}
