//===- BandSearch.cpp - Bounded search over partition bands -------------===//
//
// Each lane has a height per time section (the top of what is placed over
// it). A step takes a lowest cell (lane, section) that an unplaced buffer
// may still cover, the one with the fewest candidates, and either puts
// there a buffer with a band choice that includes the lane and whose floor
// (the highest cell under that choice) is the cell's height (those whose
// top is flush with the most neighbours first), or gives the cell up as
// dead space up to the next height around it. Inferences cut a branch
// when a section cannot hold what remains (by area, per lane, per half,
// per buffer, one-lane buffers per roomiest lanes), when a walled run of
// a lane cannot be covered at its bottom, or when a state already failed
// (DepthFirstSearch); sibling quarters and halves with equal heights are
// searched once, and alike buffers in one order (symmetry). Fixed buffers
// bound the cells under them until the cells reach their offset, as in the
// 1-D search. docs/placement/Search.md has the details.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Placement/BandSearch.h"
#include "Search/SearchSupport.h"

#include "llvm/ADT/DenseSet.h"
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
/// Candidate orders, larger first: area (bytes x lanes x length), length,
/// footprint (bytes x lanes); or fewest band choices first. With a seed,
/// each rank moves by a random amount up to a fifth of the buffers.
enum class BandOrder { Area, Length, Footprint, Choices };
constexpr BandOrder kBandOrders[] = {BandOrder::Area, BandOrder::Length,
                                     BandOrder::Footprint, BandOrder::Choices};

class BandSearch : public DepthFirstSearch<BandSearch> {
public:
  BandSearch(ArrayRef<BandSearchBuffer> input, unsigned lanes, int64_t capacity)
      : lanes(lanes), capacity(capacity) {
    SmallVector<SearchBuffer> ranges;
    for (const BandSearchBuffer &buffer : input)
      ranges.push_back(buffer.range);
    Sections cut = cutIntoSections(ranges);
    sections = cut.count;
    height.assign(sections * lanes, 0);
    open.assign(sections * lanes, 0);
    mustBytes.assign(sections * lanes, 0);
    areaLeft.assign(sections, 0);
    fullBytes.assign(sections, 0);
    halfBytes.assign(sections, 0);
    crossing.assign(sections, 0);
    covering = CoveringLists(sections);
    startingAt.resize(sections);
    keys = SectionKeys(sections);
    for (unsigned at = 0; at < sections * lanes; ++at)
      keys.flip(at / lanes, getHeightKey(at, 0));
    for (auto [buffer, span] : llvm::zip(input, cut.spans)) {
      Item item{span.first,
                span.second,
                buffer.range.bytes,
                buffer.range.fixedOffset,
                buffer.laneChoices,
                0,
                0,
                ~0u,
                {}};
      item.floors.assign(item.choices.size(), 0);
      for (auto [first, last] : item.choices) {
        unsigned mask = ((1u << (last - first)) - 1) << first;
        item.laneCount = last - first;
        item.anyLanes |= mask;
        item.mustLanes &= mask;
      }
      items.push_back(item);
    }
    for (unsigned index : llvm::seq<unsigned>(0, items.size())) {
      const Item &item = items[index];
      // Fixed buffers are never candidates and have no floors to keep (as
      // in the 1-D search): the covering lists leave them out.
      covering.add(item.first, item.isFixed() ? item.first : item.last);
      // A fixed buffer never covers a lane's run (laneRunTiles): the cells
      // at its offset are no open cells.
      if (!item.isFixed())
        startingAt[item.first].push_back(index);
      keys.flip(item.first, mixBits(index));
      updateCounts(item, +1);
      if (item.isFixed())
        addFixed(index);
    }
    offsets.assign(items.size(), -1);
    choices.assign(items.size(), 0);
    findSymmetries();
    findTwins();
    if (hasFixed()) {
      // Those at the bottom are placed before any attempt, for good: the
      // state after them is where every attempt starts.
      fixedFit =
          fixed.sortAndCheck(capacity) && placeFixed(0, sections, 0, lanes);
      trail.clear();
    }
  }

  /// Of the placements tried so far, the one covering the most bytes x
  /// lanes x time (offset -1: unplaced).
  double getBestArea() const { return bestArea; }
  ArrayRef<std::pair<unsigned, int64_t>> getBestPartial() const {
    return bestPlacements;
  }

  /// The most bytes x lanes live at one time, spread over the lanes: no
  /// placement is lower.
  int64_t getLowerBound() const {
    int64_t most = areaLeft.empty() ? 0 : *llvm::max_element(areaLeft);
    return llvm::divideCeil(most, lanes);
  }

  /// Whether the bytes live at each time fit at all, and every buffer has
  /// a band choice.
  bool mayFit() {
    return fixedFit &&
           llvm::all_of(items,
                        [](const Item &item) { return item.anyLanes != 0; }) &&
           llvm::all_of(llvm::seq<unsigned>(0, sections),
                        [&](unsigned s) { return isConsistent(s); });
  }

  BandSearchResult run(BandOrder order, uint64_t seed, uint64_t workLimit) {
    rank = getRanks(order, seed);
    BandSearchResult result;
    result.work = attempt(workLimit, sections, [&] {
      result.placements.emplace();
      for (auto [choice, offset] : llvm::zip(choices, offsets))
        result.placements->push_back({choice, offset});
    });
    return result;
  }

private:
  struct Item {
    unsigned first, last; // sections [first, last)
    int64_t bytes;
    /// -1 unless it must take this offset (in its only band choice).
    int64_t fixedOffset;
    SmallVector<std::pair<unsigned, unsigned>, 4> choices;
    unsigned laneCount;
    /// Lanes some choice includes / every choice includes.
    unsigned anyLanes, mustLanes;
    /// Per band choice, the highest cell under it (while unplaced).
    SmallVector<int64_t, 4> floors;
    /// The buffer before it with the same range, bytes and band choices
    /// (~0u: none).
    unsigned twinBefore = ~0u;
    bool isFixed() const { return fixedOffset >= 0; }
  };

  using LaneRange = std::pair<unsigned, unsigned>;
  using LaneMap = SmallVector<unsigned, 8>;

  /// Band choices are aligned blocks (quarters within halves within the
  /// whole), so swapping two sibling blocks maps every choice to a choice.
  /// Such a swap is a symmetry of the problem when every buffer may take
  /// the image of each of its choices (none is tied to one quarter).
  void findSymmetries() {
    for (unsigned width = 1; 2 * width <= lanes; width *= 2)
      for (unsigned base = 0; base + 2 * width <= lanes; base += 2 * width) {
        LaneMap swap = llvm::to_vector<8>(llvm::seq(0u, lanes));
        for (unsigned lane = base; lane < base + width; ++lane)
          std::swap(swap[lane], swap[lane + width]);
        if (llvm::all_of(items, [&](const Item &item) {
              return llvm::all_of(item.choices, [&](LaneRange choice) {
                return llvm::is_contained(item.choices, map(swap, choice));
              });
            }))
          symmetries.push_back(swap);
      }
  }

  /// Buffers alike in range, bytes and band choices are interchangeable
  /// in any placement, so the search places them in index order: each
  /// waits for its twin before it (a run of k twins is then searched in
  /// one order instead of k!).
  void findTwins() {
    auto key = [&](unsigned index) {
      const Item &item = items[index];
      return std::make_tuple(item.first, item.last, item.bytes,
                             ArrayRef(item.choices));
    };
    SmallVector<unsigned> byKey;
    for (unsigned index : llvm::seq<unsigned>(0, items.size()))
      if (!items[index].isFixed())
        byKey.push_back(index);
    llvm::stable_sort(byKey,
                      [&](unsigned a, unsigned b) { return key(a) < key(b); });
    for (auto [before, index] : llvm::zip(byKey, llvm::drop_begin(byKey)))
      if (key(before) == key(index))
        items[index].twinBefore = before;
  }

  static LaneRange map(const LaneMap &swap, LaneRange choice) {
    unsigned first = ~0u, last = 0;
    for (unsigned lane = choice.first; lane < choice.second; ++lane) {
      first = std::min(first, swap[lane]);
      last = std::max(last, swap[lane] + 1);
    }
    return {first, last};
  }

  /// The symmetries that move `lane` and hold in the current state: the
  /// lanes they swap have the same heights everywhere, and what is
  /// forbidden is forbidden in both.
  SmallVector<const LaneMap *> getActiveSymmetries(unsigned lane) {
    SmallVector<const LaneMap *> active;
    for (const LaneMap &swap : symmetries) {
      if (swap[lane] == lane)
        continue;
      work += sections * lanes;
      bool holds = llvm::all_of(llvm::seq<size_t>(0, sections), [&](size_t s) {
        return llvm::all_of(llvm::seq(0u, lanes), [&](unsigned l) {
          return height[cell(l, s)] == height[cell(swap[l], s)];
        });
      });
      work += forbiddenLog.size();
      holds = holds && llvm::all_of(forbiddenLog, [&](const Forbidden &f) {
                return forbidden.contains(getImage(swap, f));
              });
      if (holds)
        active.push_back(&swap);
    }
    return active;
  }

  /// A placement ruled out: (buffer, first lane, offset).
  using Forbidden = std::tuple<unsigned, unsigned, int64_t>;

  Forbidden getImage(const LaneMap &swap, const Forbidden &placement) const {
    auto [index, firstLane, offset] = placement;
    LaneRange choice{firstLane, firstLane + items[index].laneCount};
    return {index, map(swap, choice).first, offset};
  }

  static uint64_t getKey(const Forbidden &placement) {
    auto [index, firstLane, offset] = placement;
    return mixBits(mixBits(uint64_t(index) << 8 | firstLane) ^
                   uint64_t(offset));
  }

  /// Rules out, for each active symmetry, the images of `tried` at
  /// `offset`: each was the root of a subtree already searched, and the
  /// image of any placement in it is in that subtree's image.
  void forbidImages(ArrayRef<const LaneMap *> active,
                    ArrayRef<std::pair<unsigned, unsigned>> tried,
                    int64_t offset) {
    for (const LaneMap *swap : active)
      for (auto [index, choice] : tried) {
        Forbidden image = getImage(
            *swap, {index, items[index].choices[choice].first, offset});
        if (std::get<1>(image) == items[index].choices[choice].first ||
            !forbidden.insert(image).second)
          continue;
        forbiddenLog.push_back(image);
        forbiddenKeys ^= getKey(image);
        trail.push_back({Change::Forbid, 0, 0, 0});
      }
  }

  unsigned cell(unsigned lane, unsigned section) const {
    return section * lanes + lane;
  }

  static double getArea(const Item &item) {
    return double(item.bytes) * item.laneCount * (item.last - item.first);
  }

  /// Counts an unplaced buffer in (`sign` = +1) or out (-1) of what
  /// remains over its sections.
  void updateCounts(const Item &item, int sign) {
    for (unsigned s = item.first; s < item.last; ++s) {
      areaLeft[s] += sign * item.bytes * item.laneCount;
      if (item.laneCount == lanes)
        fullBytes[s] += sign * item.bytes;
      else if (2 * item.laneCount == lanes)
        halfBytes[s] += sign * item.bytes;
      if (s + 1 < item.last)
        crossing[s] += sign;
      for (unsigned lane = 0; lane < lanes; ++lane) {
        if (item.anyLanes & (1u << lane))
          open[cell(lane, s)] += sign;
        if (item.mustLanes & (1u << lane))
          mustBytes[cell(lane, s)] += sign * item.bytes;
      }
    }
  }

  SmallVector<double> getRanks(BandOrder order, uint64_t seed) const {
    auto keyOf = [&](const Item &item) {
      double length = item.last - item.first;
      double footprint = double(item.bytes) * item.laneCount;
      switch (order) {
      case BandOrder::Area:
        return std::make_pair(footprint * length, footprint);
      case BandOrder::Length:
        return std::make_pair(length, footprint);
      case BandOrder::Footprint:
        return std::make_pair(footprint, length);
      case BandOrder::Choices:
        return std::make_pair(-double(item.choices.size()), footprint * length);
      }
      llvm_unreachable("unknown order");
    };
    auto byKey = llvm::to_vector(llvm::seq<unsigned>(0, items.size()));
    llvm::sort(byKey, [&](unsigned a, unsigned b) {
      auto x = keyOf(items[a]), y = keyOf(items[b]);
      return x != y ? x > y : a < b;
    });
    return getNoisyRanks(byKey, seed);
  }

  /// The highest cell under unplaced `item` in band choice `choice`
  /// (kept up to date by setHeight).
  int64_t getFloor(const Item &item, unsigned choice) const {
    return item.floors[choice];
  }

  /// Fixed buffers (docs/placement/Search.md, "Fixed buffers in the search"),
  /// per cell as the 1-D search has them per section: the cells under an
  /// unplaced one rise no higher than its offset (their ceiling); one whose
  /// cells all reach it is placed there at once; a cell at its ceiling is
  /// no open cell. Branching is always at the lowest open cell, which lies
  /// below every unplaced fixed buffer (the lowest of those has a cell
  /// below its offset that is open), so no cell waits for one.
  bool hasFixed() const { return !fixed.empty(); }
  void addFixed(unsigned index) {
    const Item &item = items[index];
    auto [firstLane, lastLane] = item.choices.front();
    for (unsigned s = item.first; s < item.last; ++s)
      for (unsigned lane = firstLane; lane < lastLane; ++lane)
        fixed.add(sections * lanes, cell(lane, s), index, item.fixedOffset,
                  item.bytes);
  }

  int64_t getCeiling(unsigned at) const { return fixed.getCeiling(at); }
  bool isBlocked(unsigned at) const {
    return hasFixed() && height[at] == getCeiling(at);
  }

  /// Whether unplaced buffer `index` in band choice `choice` at `level`
  /// stays below every unplaced fixed buffer over its cells (always,
  /// without fixed buffers).
  bool fitsBelowFixed(unsigned index, unsigned choice, int64_t level) {
    if (!hasFixed())
      return true;
    const Item &item = items[index];
    auto [firstLane, lastLane] = item.choices[choice];
    work += (item.last - item.first) * (lastLane - firstLane);
    for (unsigned s = item.first; s < item.last; ++s)
      for (unsigned lane = firstLane; lane < lastLane; ++lane)
        if (level + item.bytes > getCeiling(cell(lane, s)))
          return false;
    return true;
  }

  /// The lowest level from `level` up at which buffer `index` in band
  /// choice `choice` meets no unplaced fixed buffer over its cells.
  int64_t getLevelAboveFixed(unsigned index, unsigned choice, int64_t level) {
    const Item &item = items[index];
    auto [firstLane, lastLane] = item.choices[choice];
    // C++17 lambdas capture no structured bindings.
    unsigned lanesFirst = firstLane, lanesEnd = lastLane;
    auto forEachCell = [&](auto visit) {
      for (unsigned s = item.first; s < item.last; ++s)
        for (unsigned lane = lanesFirst; lane < lanesEnd; ++lane)
          visit(cell(lane, s));
    };
    return fixed.getLevelAbove(forEachCell, level, item.bytes, work);
  }

  /// Places the fixed buffers over the cells of sections [first, last) x
  /// lanes [firstLane, lastLane) whose cells have all reached their offset
  /// (at a cell, only the lowest unplaced one can have), and those this
  /// lets follow; false when one of them leaves a section that cannot
  /// hold what remains.
  bool placeFixed(unsigned first, unsigned last, unsigned firstLane,
                  unsigned lastLane) {
    if (!hasFixed())
      return true;
    // The cells still to look at, a block per buffer placed (that buffer
    // lets those above it follow; once its block is done, the inferences
    // around it are checked): thousands can stack up, so a stack of
    // blocks, not recursion, visited in the same order.
    struct Block {
      unsigned section, lane, first, last, firstLane, lastLane;
      /// The fixed buffer placed when the block was pushed (~0u: none).
      unsigned placed;
    };
    SmallVector<Block, 4> blocks{
        {first, firstLane, first, last, firstLane, lastLane, ~0u}};
    while (!blocks.empty()) {
      Block &block = blocks.back();
      if (block.lane == block.lastLane) {
        block.lane = block.firstLane;
        ++block.section;
      }
      if (block.section >= block.last) {
        unsigned placed = block.placed;
        blocks.pop_back();
        if (placed != ~0u && !holdsAround(items[placed]))
          return false;
        continue;
      }
      unsigned at = cell(block.lane++, block.section);
      ++work;
      if (!isBlocked(at))
        continue;
      unsigned index = fixed.getLowest(at);
      const Item &item = items[index];
      auto [fixedFirst, fixedLast] = item.choices.front();
      work += (item.last - item.first) * (fixedLast - fixedFirst);
      bool reached = true;
      for (unsigned t = item.first; t < item.last && reached; ++t)
        for (unsigned l = fixedFirst; l < fixedLast && reached; ++l)
          reached = height[cell(l, t)] == item.fixedOffset;
      if (!reached)
        continue;
      commit(index, 0, item.fixedOffset);
      // It was the lowest unplaced one over each of its cells.
      for (unsigned t = item.first; t < item.last; ++t)
        for (unsigned l = fixedFirst; l < fixedLast; ++l) {
          unsigned under = cell(l, t);
          trail.push_back(
              {Change::Ceiling, under, 0, int64_t(fixed.getCursor(under))});
          fixed.setCursor(under, fixed.getCursor(under) + 1);
        }
      blocks.push_back({item.first, fixedFirst, item.first, item.last,
                        fixedFirst, fixedLast, index});
    }
    return true;
  }

  /// Section `s` can still hold what remains to be placed over it. A
  /// buffer sits above the highest of the lanes it takes, so buffers
  /// spanning all lanes must fit above the highest lane, and those
  /// spanning a half in what the halves have above their highest lane.
  bool isConsistent(unsigned s) {
    work += lanes;
    int64_t freeBytes = 0, halfRoom = 0, highest = 0;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      int64_t top = height[cell(lane, s)];
      if (top + mustBytes[cell(lane, s)] > capacity)
        return false;
      freeBytes += capacity - top;
      highest = std::max(highest, top);
      if (lane % 2 == 1)
        halfRoom +=
            capacity - fullBytes[s] - std::max(top, height[cell(lane - 1, s)]);
    }
    if (!(areaLeft[s] <= freeBytes && highest + fullBytes[s] <= capacity &&
          (lanes % 2 != 0 || halfBytes[s] <= halfRoom)))
      return false;
    // Each buffer must fit whole above its floor in one of its choices:
    // it sits no lower (floors only rise as the search goes down), nor
    // where it meets a fixed buffer.
    work += covering.getUnplaced(s).size();
    for (unsigned index : covering.getUnplaced(s)) {
      const Item &item = items[index];
      if (llvm::none_of(llvm::seq<unsigned>(0, item.choices.size()),
                        [&](unsigned choice) {
                          int64_t floor = getFloor(item, choice);
                          if (floor + item.bytes > capacity)
                            return false;
                          return !hasFixed() ||
                                 getLevelAboveFixed(index, choice, floor) <=
                                     capacity - item.bytes;
                        }))
        return false;
    }
    return quartersFitLanes(s);
  }

  /// Buffers one lane wide each need a lane with room for them: those
  /// larger than the room of all but the k roomiest lanes must fit in
  /// those k (buffers spanning every lane take their bytes from each).
  bool quartersFitLanes(unsigned s) {
    SmallVector<int64_t, 32> sizes;
    for (unsigned index : covering.getUnplaced(s))
      if (items[index].laneCount == 1)
        sizes.push_back(items[index].bytes);
    if (sizes.empty())
      return true;
    SmallVector<int64_t, 8> rooms;
    for (unsigned lane = 0; lane < lanes; ++lane)
      rooms.push_back(capacity - fullBytes[s] - height[cell(lane, s)]);
    llvm::sort(sizes, std::greater<>());
    llvm::sort(rooms, std::greater<>());
    work += sizes.size() + lanes;
    // Checked sums: a target's bytes per partition may be near 2^63. A
    // sum of sizes past it exceeds any room; one of rooms only grows.
    int64_t needed = 0, room = 0;
    size_t next = 0;
    for (int64_t laneRoom : rooms) {
      for (; next < sizes.size() && sizes[next] > laneRoom; ++next)
        if (llvm::AddOverflow(needed, sizes[next], needed))
          return false;
      if (needed > room)
        return false;
      if (llvm::AddOverflow(room, laneRoom, room))
        room = std::numeric_limits<int64_t>::max();
    }
    return true;
  }

  friend class DepthFirstSearch<BandSearch>;

  uint64_t getStepWork(unsigned first, unsigned last) const {
    return (last - first) * lanes;
  }
  size_t getMark() const { return trail.size(); }

  /// A fingerprint of what sections [first, last) hold: their cells'
  /// heights, the buffers still to place within them, and the placements
  /// ruled out by symmetry.
  uint64_t hashState(unsigned first, unsigned last) const {
    return mixBits((uint64_t(first) << 32 | last) ^ forbiddenKeys) ^
           keys.get(first, last);
  }

  /// One step of solve(): independent parts apart, else a branch.
  bool solveAnew(unsigned first, unsigned last) {
    if (std::optional<unsigned> split =
            findIndependentSplit(first, last, areaLeft, crossing))
      return solveApart(first, *split, last);
    std::optional<std::pair<unsigned, unsigned>> cell = pickCell(first, last);
    if (!cell) // done, unless what is left has only full cells
      return llvm::all_of(llvm::seq(first, last),
                          [&](unsigned s) { return areaLeft[s] == 0; });
    unsigned section = cell->first, lane = cell->second;
    int64_t level = height[this->cell(lane, section)];

    size_t mark = trail.size();
    SmallVector<const LaneMap *> active = getActiveSymmetries(lane);
    auto candidates = getCandidates(section, lane, last);
    for (auto [tried, candidate] : llvm::enumerate(candidates)) {
      auto [index, choice] = candidate;
      forbidImages(active, ArrayRef(candidates).take_front(tried), level);
      if (place(index, choice, level) && solve(first, last))
        return true;
      rollback(mark);
      if (work > workLimit)
        return false;
    }
    forbidImages(active, candidates, level);
    // Nothing sits here at this level: the cell stays empty up to the next
    // height beside it (in time or in lanes) or the lowest floor above it;
    // with none, to the top (a lane no buffer needs here).
    int64_t next = capacity;
    auto consider = [&](int64_t top) {
      if (top > level)
        next = std::min(next, top);
    };
    for (unsigned s : {section - 1, section + 1})
      if (s < sections)
        consider(height[this->cell(lane, s)]);
    for (unsigned other = 0; other < lanes; ++other)
      consider(height[this->cell(other, section)]);
    for (unsigned index : covering.getUnplaced(section))
      for (auto [choice, lanesOf] : llvm::enumerate(items[index].choices))
        if (lanesOf.first <= lane && lane < lanesOf.second)
          consider(getFloor(items[index], choice));
    if (hasFixed()) {
      // A buffer kept off this level by a fixed one it meets sits above
      // that one, no lower; and the cell rises no higher than the fixed
      // buffers over it.
      for (unsigned index : covering.getUnplaced(section))
        for (auto [choice, lanesOf] : llvm::enumerate(items[index].choices))
          if (lanesOf.first <= lane && lane < lanesOf.second &&
              getFloor(items[index], choice) == level)
            consider(getLevelAboveFixed(index, choice, level));
      next = std::min(next, getCeiling(this->cell(lane, section)));
    }
    setHeight(this->cell(lane, section), next);
    if (placeFixed(section, section + 1, lane, lane + 1) &&
        isConsistent(section) &&
        llvm::all_of(ArrayRef<unsigned>{section - 1, section, section + 1},
                     [&](unsigned s) { return laneRunTiles(lane, s); }) &&
        solve(first, last))
      return true;
    rollback(mark);
    return false;
  }

  /// The lowest open cell (section, lane) within sections [first, last)
  /// with the fewest candidates (fail first; the leftmost, then lowest
  /// lane, on ties). Any lowest cell is a sound place to branch: later
  /// placements only raise cells, so its candidates can only go.
  std::optional<std::pair<unsigned, unsigned>> pickCell(unsigned first,
                                                        unsigned last) {
    std::optional<int64_t> level;
    for (unsigned s = first; s < last; ++s)
      for (unsigned lane = 0; lane < lanes; ++lane)
        if (isOpen(lane, s) && (!level || height[cell(lane, s)] < *level))
          level = height[cell(lane, s)];
    if (!level)
      return std::nullopt;
    std::optional<std::pair<unsigned, unsigned>> best;
    size_t fewest = 0;
    for (unsigned s = first; s < last; ++s)
      for (unsigned lane = 0; lane < lanes; ++lane)
        if (isOpen(lane, s) && height[cell(lane, s)] == *level) {
          size_t count = countCandidates(s, lane, best ? fewest : ~size_t(0));
          if (!best || count < fewest) {
            best = {s, lane};
            fewest = count;
          }
          if (fewest == 0)
            return best;
        }
    return best;
  }

  bool isOpen(unsigned lane, unsigned s) const {
    return open[cell(lane, s)] > 0 && height[cell(lane, s)] < capacity &&
           !isBlocked(cell(lane, s));
  }

  /// Whether section `s` has bytes to spare: dead space there is possible.
  bool hasSlack(unsigned s) const {
    int64_t freeBytes = 0;
    for (unsigned lane = 0; lane < lanes; ++lane)
      freeBytes += capacity - height[cell(lane, s)];
    return areaLeft[s] < freeBytes;
  }

  /// Whether the run of open cells in `lane` at the height of section `s`
  /// (when cells higher or closed wall it in time) can still be covered at
  /// its bottom, end to end, by unplaced buffers inside it, except at
  /// sections with bytes to spare. Nothing outside the run can sit there.
  bool laneRunTiles(unsigned lane, unsigned s) {
    if (s >= sections || !isOpen(lane, s))
      return true;
    int64_t level = height[cell(lane, s)];
    auto isFloor = [&](unsigned t) {
      return t < sections && isOpen(lane, t) && height[cell(lane, t)] == level;
    };
    // A cell at a fixed buffer's offset lower than the run is no wall: a
    // buffer in the run may reach over it, above that fixed buffer.
    auto isWall = [&](unsigned t) {
      if (t >= sections)
        return true;
      unsigned at = cell(lane, t);
      if (isBlocked(at))
        return height[at] >= level;
      return !isOpen(lane, t) || height[at] > level;
    };
    unsigned begin = s, end = s + 1;
    while (isFloor(begin - 1))
      --begin;
    while (isFloor(end))
      ++end;
    if (!isWall(begin - 1) || !isWall(end))
      return true;
    work += (end - begin) * lanes;
    reached.assign(end - begin + 1, false);
    reached[0] = true;
    for (unsigned t = begin; t < end; ++t) {
      if (!reached[t - begin])
        continue;
      if (hasSlack(t))
        reached[t + 1 - begin] = true;
      work += startingAt[t].size();
      for (unsigned index : startingAt[t]) {
        const Item &item = items[index];
        if (offsets[index] >= 0 || item.last > end ||
            reached[item.last - begin])
          continue;
        for (auto [choice, lanesOf] : llvm::enumerate(item.choices))
          if (lanesOf.first <= lane && lane < lanesOf.second &&
              getFloor(item, choice) == level) {
            reached[item.last - begin] = true;
            break;
          }
      }
    }
    return reached.back();
  }

  /// Calls `found(index, choice)` for each (buffer, band choice) pair
  /// that may sit at the bottom of cell (`lane`, `section`): its floor is
  /// the cell's height. Stops when `found` returns false.
  template <typename Found>
  void forEachCandidate(unsigned section, unsigned lane, Found found) {
    int64_t level = height[cell(lane, section)];
    for (unsigned index : covering.getUnplaced(section)) {
      unsigned twin = items[index].twinBefore;
      if (twin != ~0u && offsets[twin] < 0)
        continue;
      work += items[index].choices.size();
      for (auto [choice, lanesOf] : llvm::enumerate(items[index].choices))
        if (lanesOf.first <= lane && lane < lanesOf.second &&
            getFloor(items[index], choice) == level &&
            !forbidden.contains({index, lanesOf.first, level}) &&
            fitsBelowFixed(index, choice, level) &&
            !found(index, unsigned(choice)))
          return;
    }
  }

  /// How many candidates cell (`lane`, `section`) has, counting no
  /// further than `enough` (picking the cell with the fewest needs no
  /// more).
  size_t countCandidates(unsigned section, unsigned lane, size_t enough) {
    size_t count = 0;
    forEachCandidate(section, lane,
                     [&](unsigned, unsigned) { return ++count < enough; });
    return count;
  }

  /// What may sit at the bottom of cell (`lane`, `section`): first those
  /// whose top meets the most neighbours at the same height (cells beside
  /// it in time and in lanes: the skyline stays flat, as the 1-D search's
  /// flush candidates keep it), then those that fill the lane's run at
  /// this height to its end, then in the search's order.
  SmallVector<std::pair<unsigned, unsigned>, 16>
  getCandidates(unsigned section, unsigned lane, unsigned last) {
    int64_t level = height[cell(lane, section)];
    unsigned runEnd = section;
    while (runEnd < last && open[cell(lane, runEnd)] > 0 &&
           height[cell(lane, runEnd)] == level)
      ++runEnd;
    using Key = std::tuple<int, bool, double, unsigned, unsigned>;
    SmallVector<Key, 16> keyed;
    forEachCandidate(section, lane, [&](unsigned index, unsigned choice) {
      keyed.push_back({-countFlushEdges(index, choice, level),
                       items[index].last != runEnd, rank[index], index,
                       choice});
      return true;
    });
    llvm::sort(keyed);
    SmallVector<std::pair<unsigned, unsigned>, 16> candidates;
    for (const Key &key : keyed)
      candidates.push_back({std::get<3>(key), std::get<4>(key)});
    return candidates;
  }

  /// How many cells beside buffer `index` in band choice `choice`, placed
  /// at `offset`, have their height at its top: the lanes' cells before
  /// and after it in time, and the cells of the lanes either side of the
  /// choice over its sections.
  int countFlushEdges(unsigned index, unsigned choice, int64_t offset) {
    const Item &item = items[index];
    int64_t top = offset + item.bytes;
    // Signed: the cells before the first lane or section lie outside.
    auto isFlush = [&](int64_t lane, int64_t s) {
      return lane >= 0 && lane < lanes && s >= 0 && size_t(s) < sections &&
             height[cell(lane, s)] == top;
    };
    auto [firstLane, lastLane] = item.choices[choice];
    work += (lastLane - firstLane) + (item.last - item.first);
    int edges = 0;
    for (unsigned lane = firstLane; lane < lastLane; ++lane)
      edges +=
          isFlush(lane, int64_t(item.first) - 1) + isFlush(lane, item.last);
    for (unsigned s = item.first; s < item.last; ++s)
      edges += isFlush(int64_t(firstLane) - 1, s) + isFlush(lastLane, s);
    return edges;
  }

  /// Puts buffer `index` in band choice `choice` at `offset` if it fits
  /// under the capacity, and the inferences still hold.
  bool place(unsigned index, unsigned choice, int64_t offset) {
    const Item &item = items[index];
    if (offset + item.bytes > capacity)
      return false;
    commit(index, choice, offset);
    auto [firstLane, lastLane] = item.choices[choice];
    return placeFixed(item.first, item.last, firstLane, lastLane) &&
           holdsAround(item);
  }

  /// Puts buffer `index` in band choice `choice` at `offset`.
  void commit(unsigned index, unsigned choice, int64_t offset) {
    const Item &item = items[index];
    int64_t top = offset + item.bytes;
    offsets[index] = offset;
    choices[index] = choice;
    covering.setPlaced(index, true);
    keys.flip(item.first, mixBits(index));
    placedArea += getArea(item);
    updateCounts(item, -1);
    trail.push_back({Change::Placed, index, 0, 0});
    auto [firstLane, lastLane] = item.choices[choice];
    for (unsigned s = item.first; s < item.last; ++s)
      for (unsigned lane = firstLane; lane < lastLane; ++lane)
        setHeight(cell(lane, s), top);
  }

  /// After `item` was placed: whether its sections can still hold what
  /// remains, and the lanes' runs beside and under it be covered.
  bool holdsAround(const Item &item) {
    if (!llvm::all_of(llvm::seq(item.first, item.last),
                      [&](unsigned s) { return isConsistent(s); }))
      return false;
    for (unsigned lane = 0; lane < lanes; ++lane)
      for (unsigned s : {item.first - 1, item.first, item.last})
        if (!laneRunTiles(lane, s))
          return false;
    return true;
  }

  /// Raises cell `at` to `top`, and with it the floors of the unplaced
  /// buffers whose band choices cover it. (A placed buffer's floors stay
  /// as they were when it was placed, which is what they are again when
  /// rollback unplaces it.)
  void setHeight(unsigned at, int64_t top) {
    trail.push_back({Change::Height, at, 0, height[at]});
    keys.flip(at / lanes, getHeightKey(at, height[at]) ^ getHeightKey(at, top));
    height[at] = top;
    unsigned section = at / lanes, lane = at % lanes;
    work += covering.getUnplaced(section).size();
    for (unsigned index : covering.getUnplaced(section)) {
      Item &item = items[index];
      for (auto [choice, lanesOf] : llvm::enumerate(item.choices))
        if (lanesOf.first <= lane && lane < lanesOf.second &&
            item.floors[choice] < top) {
          trail.push_back(
              {Change::Floor, index, unsigned(choice), item.floors[choice]});
          item.floors[choice] = top;
        }
    }
  }

  void rollback(size_t mark) {
    while (trail.size() > mark) {
      Change change = trail.pop_back_val();
      if (change.kind == Change::Height) {
        keys.flip(change.index / lanes,
                  getHeightKey(change.index, height[change.index]) ^
                      getHeightKey(change.index, change.value));
        height[change.index] = change.value;
        continue;
      }
      if (change.kind == Change::Floor) {
        items[change.index].floors[change.choice] = change.value;
        continue;
      }
      if (change.kind == Change::Ceiling) {
        fixed.setCursor(change.index, unsigned(change.value));
        continue;
      }
      if (change.kind == Change::Forbid) {
        forbiddenKeys ^= getKey(forbiddenLog.back());
        forbidden.erase(forbiddenLog.pop_back_val());
        continue;
      }
      // Leaving a placement: keep it if it covers more than any before.
      if (placedArea > bestArea) {
        bestArea = placedArea;
        bestPlacements.clear();
        for (auto [choice, offset] : llvm::zip(choices, offsets))
          bestPlacements.push_back({choice, offset});
      }
      placedArea -= getArea(items[change.index]);
      updateCounts(items[change.index], +1);
      offsets[change.index] = -1;
      covering.setPlaced(change.index, false);
      keys.flip(items[change.index].first, mixBits(change.index));
    }
  }

  /// One undoable step: a cell's height or first unplaced fixed buffer
  /// (Ceiling) before it changed, a placement, or a placement ruled out.
  struct Change {
    enum Kind { Height, Floor, Ceiling, Placed, Forbid } kind;
    unsigned index;
    unsigned choice; // of a Floor change
    int64_t value;
  };

  unsigned lanes;
  int64_t capacity;
  size_t sections = 0;
  SmallVector<Item> items;
  /// Per cell: height, unplaced buffers that may cover it, and bytes of
  /// those that must.
  SmallVector<int64_t> height;
  SmallVector<unsigned> open;
  SmallVector<int64_t> mustBytes;
  /// Per section: unplaced bytes x lanes over it, and unplaced buffers
  /// crossing into the next section.
  SmallVector<int64_t> areaLeft;
  /// Per section: bytes of unplaced buffers spanning all lanes / half.
  SmallVector<int64_t> fullBytes, halfBytes;
  SmallVector<unsigned> crossing;
  CoveringLists covering;
  /// Per section the buffers starting there, but for fixed ones.
  SmallVector<SmallVector<unsigned>> startingAt;
  SmallVector<bool> reached;
  /// With fixed buffers, per cell: those over it by offset, and the first
  /// unplaced one among them, whose offset is the ceiling (getCeiling).
  FixedLists fixed;
  /// Whether the fixed buffers are apart, and those at the bottom fit.
  bool fixedFit = true;
  /// Per buffer: offset (-1 while unplaced) and band choice.
  SmallVector<int64_t> offsets;
  SmallVector<unsigned> choices;
  SmallVector<Change> trail;
  /// Bytes x lanes x sections placed now, and the most placed so far (and
  /// how). Floating point: with tensors of 2^48 bytes the sum passes 2^63
  /// (below 2^53, as on any real trace, it is exact).
  double placedArea = 0, bestArea = 0;
  SmallVector<std::pair<unsigned, int64_t>> bestPlacements;
  SmallVector<double> rank;
  /// Lane swaps that are symmetries of the problem.
  SmallVector<LaneMap> symmetries;
  /// Placements ruled out by symmetry, as a set and in order.
  llvm::DenseSet<Forbidden> forbidden;
  SmallVector<Forbidden> forbiddenLog;
  /// The keys of what is ruled out, combined.
  uint64_t forbiddenKeys = 0;
  /// Per section: its cells' height keys and those (mixBits(index)) of
  /// the unplaced buffers starting there, combined.
  SectionKeys keys;
};
} // namespace

BandSearchResult walrus::placement::searchBandPlacement(
    ArrayRef<BandSearchBuffer> buffers, unsigned lanes, int64_t capacity,
    uint64_t workLimit, llvm::ThreadPoolInterface *threads) {
  BandSearchResult result;
  // A fixed buffer has one band choice: where it is.
  if (lanes == 0 || lanes > 32 ||
      llvm::any_of(buffers, [](const BandSearchBuffer &buffer) {
        return buffer.range.fixedOffset >= 0 && buffer.laneChoices.size() != 1;
      }))
    return result;
  SmallVector<BandSearchBuffer> reversed(buffers.begin(), buffers.end());
  SmallVector<SearchBuffer> ranges;
  for (const BandSearchBuffer &buffer : buffers)
    ranges.push_back(buffer.range);
  for (auto [buffer, range] : llvm::zip(reversed, reverseTime(ranges)))
    buffer.range = range;
  SearchVariants<BandSearch> searches(
      [&](bool backward, int64_t height) {
        return BandSearch(backward ? reversed : buffers, lanes, height);
      },
      capacity);
  if (!searches.mayFit())
    return result;
  constexpr unsigned kOrders = std::size(kBandOrders);
  std::tie(result.placements, result.work) =
      searches.restart<SmallVector<std::pair<unsigned, int64_t>>>(
          buffers.size(), workLimit, threads,
          [&](BandSearch &search, uint64_t index, uint64_t limit) {
            BandSearchResult found =
                search.run(kBandOrders[index % kOrders],
                           index >= kOrders ? index : 0, limit);
            return std::make_pair(std::move(found.placements), found.work);
          });
  if (!result.placements)
    for (const BandSearch *search : searches.getMostPlaced())
      result.partials.emplace_back(search->getBestPartial());
  return result;
}
