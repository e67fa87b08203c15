//===- DenseWindow.cpp - Exact search where a dense trace peaks --------===//

#include "Walrus/Placement/DenseWindow.h"
#include "Coloring/FirstFit.h"
#include "Dense/OccupancyIndex.h"
#include "Dense/SweepFirstFit.h"
#include "Walrus/Placement/Dense.h"
#include "Walrus/Placement/Search.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <array>

using namespace llvm;
using namespace walrus;
using namespace walrus::placement;

namespace {
/// Start ranks [first, last], both included.
struct Window {
  unsigned first, last;
};

class WindowPlacer {
public:
  WindowPlacer(const Problem &graph, int64_t partitions,
               ArrayRef<std::optional<Place>> pinned, uint64_t maxSearchWork,
               unsigned maxOrders, llvm::ThreadPoolInterface *threads)
      : graph(graph), nodes(graph.getNodes()), partitions(partitions),
        pinned(pinned), maxSearchWork(maxSearchWork), maxOrders(maxOrders),
        threads(threads), time(rankByStarts(nodes)) {
    for (auto [index, place] : llvm::enumerate(pinned))
      if (place && nodes[index].live && nodes[index].bytes > 0)
        pinnedNodes.push_back(index);
  }

  /// The bytes live at each start rank (whole ranges: row blocks make the
  /// graph's bound lower, not the dense path's) and their largest sum;
  /// false when a sum does not fit in 64 bits.
  bool computeLoads();
  int64_t getAreaBound() const { return areaBound; }

  /// The windows fitUnder starts from: runs of points whose load is above
  /// `full`, at most kMaxWindows of them.
  SmallVector<Window> getFullWindows(int64_t full) const;
  /// Sets the work one search of the next order may take.
  void capSearchWork(bool widened);
  /// What the next order tries for the nodes first fit left `unplaced`:
  /// each goes `early` in the order, far (farTensors), or grows the window
  /// nearest it up to it; `full` as for getFullWindows.
  void growToUnplaced(SmallVector<Window> &windows, ArrayRef<unsigned> unplaced,
                      int64_t full, SmallVectorImpl<unsigned> &early);
  /// Every node placed within `height`, the window grown around the points
  /// within `margin` of it, or nothing.
  std::optional<Placement> fitUnder(int64_t height, int64_t margin,
                                    WindowPlacement &result);

private:
  enum class Outcome {
    Placed,
    SearchFailed,
    OthersFailed,
    TooLarge,
    Entangled
  };
  /// The tensors that meet windows: live through every one, through one
  /// (per window), over part of one (per window); and the others. Pinned
  /// ones meeting the (single) window.
  struct WindowTensors {
    SmallVector<unsigned> common, others, pinnedIn;
    SmallVector<SmallVector<unsigned>> whole, partial;
  };
  bool classify(ArrayRef<Window> windows, WindowTensors &tensors);
  /// The order tensors stack in below a window, lowest first: the longest
  /// lived (outside the window they are what stays), or the last to end
  /// where the far tensors all come after it (what ends before them then
  /// leaves room on top), or the first to start where they all come
  /// before. With far tensors on both sides: those meeting far ones on
  /// both, then those meeting only ones before (the first to start
  /// lowest), then those meeting none (the longest lived lowest), then
  /// those meeting only ones after (the first to end lowest), so that what
  /// each far tensor meets not is one run. Ties by index.
  struct StackOrder {
    enum Kind { LongestLived, LastToEnd, FirstToStart, BothSides } kind;
    /// BothSides: the last point the far tensors before the window reach,
    /// and the first those after it start at.
    int64_t lastBefore = 0, firstAfter = 0;
  };
  void sortForStack(MutableArrayRef<unsigned> indexes, StackOrder order) const {
    // Lower keys go lower.
    auto key = [&](unsigned index) -> std::pair<int, int64_t> {
      const LiveRange &range = nodes[index].range;
      int64_t first = range.start, last = range.end, lived = last - first;
      switch (order.kind) {
      case StackOrder::LongestLived:
        return {0, -lived};
      case StackOrder::LastToEnd:
        return {0, -last};
      case StackOrder::FirstToStart:
        return {0, first};
      case StackOrder::BothSides: {
        bool before = first <= order.lastBefore,
             after = last >= order.firstAfter;
        if (before && after)
          return {0, -lived};
        if (before)
          return {1, first};
        return after ? std::make_pair(3, last) : std::make_pair(2, -lived);
      }
      }
      llvm_unreachable("every stack order");
    };
    llvm::sort(indexes, [&](unsigned a, unsigned b) {
      return std::make_pair(key(a), a) < std::make_pair(key(b), b);
    });
  }
  /// Stacks `indexes` in `order` from `offset` up, at `fixed`; the top.
  int64_t stack(MutableArrayRef<unsigned> indexes, StackOrder order,
                int64_t offset,
                MutableArrayRef<std::optional<Place>> fixed) const;
  /// What the windows placed so far, in time order.
  struct Layout {
    /// Per node its place, if placed (or pinned).
    SmallVector<std::optional<Place>> fixed;
    /// The tensors stacked in every window, and their top.
    ArrayRef<unsigned> common;
    int64_t commonTop = 0;
    /// The windows' tensors placed so far.
    SmallVector<unsigned> earlier;
  };
  /// Places the tensors of `window` (`whole`, through it, and `partial`)
  /// and its `far` ones: the first stacked above the common ones, the
  /// others by the search; `whole` keeps those stacked.
  Outcome placeWindow(const Window &window, SmallVectorImpl<unsigned> &whole,
                      ArrayRef<unsigned> partial, ArrayRef<unsigned> far,
                      int64_t height, Layout &layout, WindowPlacement &result);
  /// Which of `windows` far tensor `index` goes with: the last before it,
  /// or the first.
  unsigned getFarWindow(ArrayRef<Window> windows, unsigned index) const;
  /// Places each of the `far` tensors (at `farAt`) at the lowest bytes
  /// below `stackTop` that the `stacked` tensors it meets, at their `fixed`
  /// places, and the far ones placed before it leave free; false (and
  /// `farAt` empty) when one finds no room there.
  bool fitInStack(ArrayRef<unsigned> stacked, ArrayRef<unsigned> far,
                  int64_t stackTop, ArrayRef<std::optional<Place>> fixed,
                  SmallVectorImpl<std::pair<unsigned, int64_t>> &farAt) const;
  /// How the tensors through `window` stack around the `far` ones.
  StackOrder getStackOrder(const Window &window, ArrayRef<unsigned> far) const;
  /// Places the tensors live in `windows` (disjoint, in time order) by the
  /// search, then the others by first fit: `placed` when all fit, else
  /// `unplaced` lists the others that did not.
  Outcome tryWindows(ArrayRef<Window> windows, int64_t height,
                     ArrayRef<unsigned> early, WindowPlacement &result,
                     std::optional<Placement> &placed,
                     SmallVectorImpl<unsigned> &unplaced);
  /// The tensors of `earlier` windows that those of a later one
  /// (`whole`, `partial`) meet.
  SmallVector<unsigned> getNearby(ArrayRef<unsigned> earlier,
                                  ArrayRef<unsigned> whole,
                                  ArrayRef<unsigned> partial) const;
  /// What a window's search places: the tensors that meet `window` (its
  /// `free` ones, live over part of it or, around pinned tensors, through
  /// it), above `base` and below `height`, around the `fixedIn` ones and
  /// the `outside` ones (which meet it not) at their fixed place, and the
  /// `far` ones (which meet it not).
  struct WindowSearch {
    const Window &window;
    ArrayRef<unsigned> free, fixedIn, outside, far;
    int64_t base = 0, height = 0;
  };
  /// The search's buffers for a WindowSearch: the free ones first, and
  /// per far tensor the position of its buffer.
  struct WindowBuffers {
    SmallVector<SearchBuffer> buffers;
    SmallVector<std::pair<unsigned, size_t>> farBuffers;
  };
  /// Places what `search` names, the free ones at `fixed` and the far
  /// ones at `farAt`; false when the search does not place them all.
  bool searchWindow(const WindowSearch &search,
                    MutableArrayRef<std::optional<Place>> fixed,
                    SmallVectorImpl<std::pair<unsigned, int64_t>> &farAt,
                    WindowPlacement &result);
  /// The buffers of `search`, fixed tensors at their `fixed` places.
  WindowBuffers getWindowBuffers(const WindowSearch &search,
                                 ArrayRef<std::optional<Place>> fixed) const;
  /// The fixed tensors outside the window that a free one meets, and the
  /// far ones, each at one point of its own: before the window by end,
  /// after it by start.
  std::pair<SmallVector<unsigned>, SmallVector<unsigned>>
  getOutsidePoints(const WindowSearch &search,
                   ArrayRef<std::optional<Place>> fixed) const;
  /// A fixed tensor's bytes above `base`, where the search sees them (the
  /// tensors it places go there), as offset and size.
  std::optional<std::pair<int64_t, int64_t>>
  getAboveBase(unsigned index, int64_t base,
               ArrayRef<std::optional<Place>> fixed) const {
    int64_t address = fixed[index]->address, end = address + nodes[index].bytes;
    if (end <= base)
      return std::nullopt;
    address = std::max(address, base);
    return std::make_pair(address - base, end - address);
  }
  /// With pinned tensors (and so one window): places the window's tensors
  /// around them, those live through it stacked (stackAroundPinned).
  bool placeAroundPinned(const Window &window, const WindowTensors &tensors,
                         int64_t height,
                         MutableArrayRef<std::optional<Place>> fixed,
                         WindowPlacement &result);
  /// Stacks `stacked` from the bottom, the longest lived first, each above
  /// the last and clear of the pinned ones it meets; false when one finds
  /// no room.
  bool stackAroundPinned(MutableArrayRef<unsigned> stacked, int64_t height,
                         MutableArrayRef<std::optional<Place>> fixed);
  /// First fit of `others` (the nodes that meet no window) around `fixed`,
  /// the `early` ones first, the rest outwards from the windows: by their
  /// edge nearest one, so left edge order on each side, seen from the
  /// window. The nearest are the most constrained, and they still find the
  /// bytes around it free.
  Placement placeOthers(ArrayRef<Window> windows, int64_t height,
                        ArrayRef<unsigned> early,
                        ArrayRef<std::optional<Place>> fixed,
                        MutableArrayRef<unsigned> others,
                        WindowPlacement &result);
  /// Every node by `rank` (below time.points), then largest first, then
  /// by index: a counting sort, as the ranks are dense.
  SmallVector<unsigned> sortByRank(function_ref<unsigned(unsigned)> rank) const;
  /// placeOthers with no pinned tensor: the windows in turn, each with the
  /// others nearest it, around the fixed tensors and what the windows
  /// before placed (sweepWindow).
  Placement sweepOthers(ArrayRef<Window> windows, int64_t height,
                        ArrayRef<unsigned> early,
                        ArrayRef<std::optional<Place>> fixed,
                        ArrayRef<unsigned> others, WindowPlacement &result);
  /// First fit of `head`, then a sweep in time on each side of `window`
  /// (`sweep`'s orders; SweepFirstFit.h), from the `placed` tensors that
  /// meet it; the others placed are the head's, where they are.
  Placement sweepWindow(const Window &window, int64_t height,
                        ArrayRef<std::optional<Place>> placed,
                        ArrayRef<unsigned> head, const SweepRecord &sweep,
                        const SweepRecord *previous, WindowPlacement &result);
  /// Whether node `index`'s range meets `window`'s points.
  bool meets(const Window &window, unsigned index) const {
    return time.ranks[index].first <= window.last &&
           time.ranks[index].second >= window.first;
  }
  /// Whether first fit places the others by a sweep (placeOthers), which
  /// also takes far tensors: nothing pinned.
  bool sweeps() const { return pinnedNodes.empty(); }
  /// How far node `index` (which meets none of them) is from the nearest
  /// of `windows`, and which that is.
  std::pair<unsigned, unsigned> getDistance(ArrayRef<Window> windows,
                                            unsigned index) const;

  /// Past this many tensors live over part of a window the search rarely
  /// finishes within its budget (hard-1000 instances take it all).
  static constexpr size_t kMaxWindowTensors = 1024;
  /// Start ranks added on each side of the full points at first; doubled
  /// each time first fit cannot place the others around the window.
  static constexpr unsigned kFirstExtent = 8;
  /// Runs of full points that may get windows of their own.
  static constexpr size_t kMaxWindows = 8;
  /// Tensors first fit may leave out for the window to grow again.
  static constexpr size_t kMaxUnplaced = 64;
  /// How many times the last order's most work a search of widened
  /// windows may take (but at least a 64th of the budget): one that needs
  /// more seldom ends, and the fallback to the last windows is then the
  /// cheaper way. Over the seeded traces (docs/placement/Dense.md, "Dense
  /// functions") 4 and a 64th spend 93M search work where 20 and a 32nd
  /// spent 150M, every trace at the bound as before.
  static constexpr uint64_t kWidenedGrowth = 4;

  const Problem &graph;
  ArrayRef<Node> nodes;
  int64_t partitions;
  /// The places tensors came with, and the live nodes that have one.
  ArrayRef<std::optional<Place>> pinned;
  SmallVector<unsigned> pinnedNodes;
  uint64_t maxSearchWork;
  unsigned maxOrders;
  llvm::ThreadPoolInterface *threads;
  StartRanks time;
  std::vector<int64_t> loads;
  int64_t areaBound = 0;
  /// Tensors first fit left out though they went first, too far from the
  /// windows (with nothing pinned) for them to grow up to them: a window's
  /// search places them with its own, each at points of its own.
  SmallVector<unsigned> farTensors;
  /// The work one search of this order may take, and the most one took.
  uint64_t searchCap = 0, orderSearchWork = 0;
  /// The last order's sweeps (one per window), whose ends the next may
  /// copy, and where they were.
  struct LastSweeps {
    SmallVector<Window> windows;
    size_t farCount = 0;
    SmallVector<SweepRecord> records;
  };
  std::optional<LastSweeps> lastSweeps;
  /// Every node by start (then largest first, then by index), and by end,
  /// latest first: each side's sweep order, once sorted.
  SmallVector<unsigned> byStart, byEnd;
};
} // namespace

bool WindowPlacer::computeLoads() {
  std::vector<int64_t> change(time.points + 1, 0);
  for (auto [index, node] : llvm::enumerate(nodes)) {
    if (!node.live)
      continue;
    auto [first, last] = time.ranks[index];
    if (llvm::AddOverflow(change[first], node.bytes, change[first]) ||
        llvm::SubOverflow(change[last + 1], node.bytes, change[last + 1]))
      return false;
  }
  int64_t live = 0;
  for (unsigned point = 0; point < time.points; ++point) {
    if (llvm::AddOverflow(live, change[point], live))
      return false;
    loads.push_back(live);
    areaBound = std::max(areaBound, live);
  }
  return true;
}

/// Splits `nodes` by how they meet `windows`; false when the windows are
/// not separate problems: one meets several windows without living
/// through all of them.
bool WindowPlacer::classify(ArrayRef<Window> windows, WindowTensors &tensors) {
  // Around pinned tensors, one window (placeAroundPinned).
  if (!pinnedNodes.empty() && windows.size() > 1)
    return false;
  tensors.whole.assign(windows.size(), {});
  tensors.partial.assign(windows.size(), {});
  for (auto [index, node] : llvm::enumerate(nodes)) {
    auto [first, last] = time.ranks[index];
    SmallVector<unsigned, 4> met;
    bool throughAll = true;
    for (auto [position, window] : llvm::enumerate(windows))
      if (node.live && first <= window.last && last >= window.first) {
        met.push_back(position);
        throughAll &= first <= window.first && last >= window.last;
      }
    // A pinned tensor stays where it is: the search places a window's
    // tensors around it.
    if (pinned[index]) {
      if (!met.empty())
        tensors.pinnedIn.push_back(index);
      continue;
    }
    if (met.empty())
      tensors.others.push_back(index);
    else if (met.size() == windows.size() && throughAll)
      tensors.common.push_back(index);
    else if (met.size() > 1)
      return false;
    else
      (throughAll ? tensors.whole : tensors.partial)[met.front()].push_back(
          index);
  }
  return true;
}

WindowPlacer::Outcome
WindowPlacer::tryWindows(ArrayRef<Window> windows, int64_t height,
                         ArrayRef<unsigned> early, WindowPlacement &result,
                         std::optional<Placement> &placed,
                         SmallVectorImpl<unsigned> &unplaced) {
  WindowTensors tensors;
  if (!classify(windows, tensors))
    return Outcome::Entangled;
  // Far tensors go with the last window before them (or the first): the
  // later windows' tensors they meet see them placed. Those a window has
  // grown to are its own now.
  SmallVector<SmallVector<unsigned>> far(windows.size());
  for (unsigned index : farTensors)
    if (llvm::none_of(windows, [&](const Window &window) {
          return meets(window, index);
        }))
      far[getFarWindow(windows, index)].push_back(index);
  for (auto [partial, farOnes] : llvm::zip_equal(tensors.partial, far))
    if (partial.size() + farOnes.size() > kMaxWindowTensors)
      return Outcome::TooLarge;
  // Tensors live through a whole window can go below all others there
  // (lowering one lifts only what was under it), so they stack at the
  // bottom (in the order of sortForStack), those through every window
  // first: the same places in each.
  // The search places those live over part of a window. No overflow: the
  // ones stacked in a window are live together at its start.
  Layout layout;
  layout.fixed.assign(pinned.begin(), pinned.end());
  if (!pinnedNodes.empty()) {
    if (!placeAroundPinned(windows.front(), tensors, height, layout.fixed,
                           result))
      return Outcome::SearchFailed;
  } else {
    layout.common = tensors.common;
    layout.commonTop =
        stack(tensors.common, getStackOrder(windows.front(), far.front()), 0,
              layout.fixed);
    for (auto [window, whole, partial, farOnes] :
         llvm::zip_equal(windows, tensors.whole, tensors.partial, far)) {
      Outcome outcome =
          placeWindow(window, whole, partial, farOnes, height, layout, result);
      if (outcome != Outcome::Placed)
        return outcome;
    }
  }
  SmallVector<std::optional<Place>> &fixed = layout.fixed;
  // The far ones are placed.
  llvm::erase_if(tensors.others,
                 [&](unsigned index) { return bool(fixed[index]); });
  Placement coloring =
      placeOthers(windows, height, early, fixed, tensors.others, result);
  ++result.orders;
  if (!coloring.spilled.empty()) {
    unplaced = std::move(coloring.spilled);
    if (lastSweeps)
      for (SweepRecord &record : lastSweeps->records)
        record.placements = coloring.placements;
    return Outcome::OthersFailed;
  }
  placed = std::move(coloring);
  return Outcome::Placed;
}

WindowPlacer::Outcome WindowPlacer::placeWindow(
    const Window &window, SmallVectorImpl<unsigned> &whole,
    ArrayRef<unsigned> partial, ArrayRef<unsigned> far, int64_t height,
    Layout &layout, WindowPlacement &result) {
  // This window's tensors may meet some of what earlier ones placed,
  // between the two: the search places those around it, at one point each
  // before the window, and the others through it stack.
  SmallVector<unsigned> nearby = getNearby(layout.earlier, whole, partial);
  llvm::append_range(layout.earlier, whole);
  llvm::append_range(layout.earlier, partial);
  SmallVector<unsigned> free(partial);
  if (!nearby.empty()) {
    // One pass, in order: each one meeting them moves to the search.
    llvm::erase_if(whole, [&](unsigned index) {
      if (llvm::none_of(
              nearby, [&](unsigned other) { return time.meet(index, other); }))
        return false;
      free.push_back(index);
      return true;
    });
    if (free.size() + far.size() > kMaxWindowTensors)
      return Outcome::TooLarge;
  }
  int64_t base =
      stack(whole, getStackOrder(window, far), layout.commonTop, layout.fixed);
  // Far tensors lie below the stack where some of it has ended: where
  // they all fit there, the search places the window's tensors alone;
  // else it sees the stack whole, fixed, and places them too.
  SmallVector<unsigned> stacked;
  ArrayRef<unsigned> searchFar;
  SmallVector<std::pair<unsigned, int64_t>> farAt;
  if (!far.empty()) {
    llvm::append_range(stacked, layout.common);
    llvm::append_range(stacked, whole);
    if (fitInStack(stacked, far, base, layout.fixed, farAt)) {
      stacked.clear();
    } else {
      searchFar = far;
      base = 0;
    }
  }
  if (!searchWindow({window, free, stacked, nearby, searchFar, base, height},
                    layout.fixed, farAt, result))
    return Outcome::SearchFailed;
  // Later windows see the far ones placed, like this window's tensors.
  for (auto [index, address] : farAt)
    layout.fixed[index] = Place{0, address};
  llvm::append_range(layout.earlier, llvm::make_first_range(farAt));
  return Outcome::Placed;
}

bool WindowPlacer::fitInStack(
    ArrayRef<unsigned> stacked, ArrayRef<unsigned> far, int64_t stackTop,
    ArrayRef<std::optional<Place>> fixed,
    SmallVectorImpl<std::pair<unsigned, int64_t>> &farAt) const {
  for (unsigned index : far) {
    FirstFit fit(stackTop, 0);
    for (unsigned other : stacked)
      if (time.meet(index, other))
        fit.take(fixed[other]->address,
                 fixed[other]->address + nodes[other].bytes);
    for (auto [other, address] : farAt)
      if (time.meet(index, other))
        fit.take(address, address + nodes[other].bytes);
    std::optional<int64_t> address = fit.find(nodes[index].bytes);
    if (!address) {
      farAt.clear();
      return false;
    }
    farAt.push_back({index, *address});
  }
  return true;
}

int64_t WindowPlacer::stack(MutableArrayRef<unsigned> indexes, StackOrder order,
                            int64_t offset,
                            MutableArrayRef<std::optional<Place>> fixed) const {
  sortForStack(indexes, order);
  for (unsigned index : indexes) {
    fixed[index] = Place{0, offset};
    offset += nodes[index].bytes;
  }
  return offset;
}

unsigned WindowPlacer::getFarWindow(ArrayRef<Window> windows,
                                    unsigned index) const {
  unsigned position = 0;
  while (position + 1 < windows.size() &&
         windows[position + 1].last < time.ranks[index].first)
    ++position;
  return position;
}

SmallVector<unsigned>
WindowPlacer::getNearby(ArrayRef<unsigned> earlier, ArrayRef<unsigned> whole,
                        ArrayRef<unsigned> partial) const {
  // Only those ending after the first of this window's tensors starts.
  unsigned firstStart = ~0u;
  for (ArrayRef<unsigned> indexes : {whole, partial})
    for (unsigned index : indexes)
      firstStart = std::min(firstStart, time.ranks[index].first);
  SmallVector<unsigned> nearby;
  for (unsigned other : earlier) {
    if (time.ranks[other].second < firstStart)
      continue;
    auto meetsOther = [&](unsigned index) { return time.meet(index, other); };
    if (llvm::any_of(whole, meetsOther) || llvm::any_of(partial, meetsOther))
      nearby.push_back(other);
  }
  return nearby;
}

WindowPlacer::StackOrder
WindowPlacer::getStackOrder(const Window &window,
                            ArrayRef<unsigned> far) const {
  StackOrder order{StackOrder::LongestLived};
  bool before = false, after = false;
  order.firstAfter = std::numeric_limits<int64_t>::max();
  for (unsigned index : far) {
    const LiveRange &range = nodes[index].range;
    if (time.ranks[index].first > window.last) {
      after = true;
      order.firstAfter = std::min<int64_t>(order.firstAfter, range.start);
    } else {
      before = true;
      order.lastBefore = std::max<int64_t>(order.lastBefore, range.end);
    }
  }
  if (before && after)
    order.kind = StackOrder::BothSides;
  else if (after)
    order.kind = StackOrder::LastToEnd;
  else if (before)
    order.kind = StackOrder::FirstToStart;
  return order;
}

/// Fixed buffers over the same points whose bytes touch are one to the
/// search, where a stack's thousands would each cost it work at every
/// section it looks at: merges those in `buffers` from `first` on (their
/// offsets in the search's result are never read).
static void mergeTouchingFixed(SmallVectorImpl<SearchBuffer> &buffers,
                               size_t first) {
  auto fixedBuffers = MutableArrayRef(buffers).drop_front(first);
  llvm::sort(fixedBuffers, [](const SearchBuffer &a, const SearchBuffer &b) {
    return std::make_tuple(a.start, a.end, a.fixedOffset) <
           std::make_tuple(b.start, b.end, b.fixedOffset);
  });
  size_t kept = first;
  for (size_t index = first; index < buffers.size(); ++index) {
    const SearchBuffer &buffer = buffers[index];
    if (kept > first) {
      SearchBuffer &last = buffers[kept - 1];
      if (last.start == buffer.start && last.end == buffer.end &&
          last.fixedOffset + last.bytes == buffer.fixedOffset) {
        last.bytes += buffer.bytes;
        continue;
      }
    }
    buffers[kept++] = buffer;
  }
  buffers.truncate(kept);
}

std::pair<SmallVector<unsigned>, SmallVector<unsigned>>
WindowPlacer::getOutsidePoints(const WindowSearch &search,
                               ArrayRef<std::optional<Place>> fixed) const {
  // A window tensor covers the points of those it meets, and those
  // between. Before the window, by end: a window tensor meets those ending
  // at or after its start, the ones nearest the window. After it, by
  // start: those starting at or before its end. So it meets every one
  // between too.
  SmallVector<unsigned> before, after;
  auto addOutside = [&](unsigned other) {
    (time.ranks[other].second < search.window.first ? before : after)
        .push_back(other);
  };
  for (unsigned other : search.outside) {
    if (meets(search.window, other) || !getAboveBase(other, search.base, fixed))
      continue;
    if (llvm::none_of(search.free,
                      [&](unsigned index) { return time.meet(index, other); }))
      continue;
    addOutside(other);
  }
  for (unsigned other : search.far)
    addOutside(other);
  llvm::sort(before, [&](unsigned a, unsigned b) {
    return std::make_pair(time.ranks[a].second, a) <
           std::make_pair(time.ranks[b].second, b);
  });
  llvm::sort(after, [&](unsigned a, unsigned b) {
    return std::make_pair(time.ranks[a].first, a) <
           std::make_pair(time.ranks[b].first, b);
  });
  return {std::move(before), std::move(after)};
}

WindowPlacer::WindowBuffers
WindowPlacer::getWindowBuffers(const WindowSearch &search,
                               ArrayRef<std::optional<Place>> fixed) const {
  // Lambdas capture no structured bindings in C++17.
  auto outside = getOutsidePoints(search, fixed);
  ArrayRef<unsigned> before = outside.first, after = outside.second;
  WindowBuffers result;
  SmallVector<SearchBuffer> &buffers = result.buffers;
  unsigned shift = before.size();
  unsigned windowFirst = search.window.first, windowLast = search.window.last;
  unsigned afterFirst = shift + windowLast - windowFirst + 1;
  auto addBuffer = [&](unsigned index, int64_t fixedOffset, int64_t bytes) {
    auto [first, last] = time.ranks[index];
    SearchBuffer buffer{std::max(first, windowFirst) - windowFirst + shift,
                        std::min(last, windowLast) - windowFirst + shift, bytes,
                        fixedOffset};
    for (auto [point, other] : llvm::enumerate(before))
      if (time.meet(index, other))
        buffer.start = std::min<unsigned>(buffer.start, point);
    for (auto [point, other] : llvm::enumerate(after))
      if (time.meet(index, other))
        buffer.end = std::max<unsigned>(buffer.end, afterFirst + point);
    buffers.push_back(buffer);
  };
  for (unsigned index : search.free)
    addBuffer(index, -1, nodes[index].bytes);
  for (unsigned index : search.fixedIn)
    if (auto place = getAboveBase(index, search.base, fixed))
      addBuffer(index, place->first, place->second);
  mergeTouchingFixed(buffers, search.free.size());
  // A far tensor also covers the points of those it meets on its side (a
  // run up to its own: by the argument of getOutsidePoints, with it in the
  // window's place). Fixed ones keep one point: far ones come only where
  // no tensor is pinned.
  auto addOutsideBuffer = [&](unsigned other, unsigned first, unsigned last) {
    if (fixed[other]) {
      auto [offset, bytes] = *getAboveBase(other, search.base, fixed);
      buffers.push_back({first, last, bytes, offset});
      return;
    }
    result.farBuffers.push_back({other, buffers.size()});
    buffers.push_back({first, last, nodes[other].bytes, -1});
  };
  for (auto [point, other] : llvm::enumerate(before)) {
    unsigned first = point;
    while (!fixed[other] && first > 0 && time.meet(other, before[first - 1]))
      --first;
    addOutsideBuffer(other, first, point);
  }
  for (auto [point, other] : llvm::enumerate(after)) {
    unsigned last = point;
    while (!fixed[other] && last + 1 < after.size() &&
           time.meet(other, after[last + 1]))
      ++last;
    addOutsideBuffer(other, afterFirst + unsigned(point), afterFirst + last);
  }
  return result;
}

bool WindowPlacer::searchWindow(
    const WindowSearch &search, MutableArrayRef<std::optional<Place>> fixed,
    SmallVectorImpl<std::pair<unsigned, int64_t>> &farAt,
    WindowPlacement &result) {
  WindowBuffers window = getWindowBuffers(search, fixed);
  SearchResult found = searchPlacement(
      window.buffers, search.height - search.base,
      std::min(maxSearchWork - result.searchWork, searchCap), threads);
  result.searchWork += found.work;
  orderSearchWork = std::max(orderSearchWork, found.work);
  if (!found.offsets)
    return false;
  ++result.windowsPlaced;
  ArrayRef<int64_t> offsets = *found.offsets;
  for (auto [index, address] :
       llvm::zip_equal(search.free, offsets.take_front(search.free.size())))
    fixed[index] = Place{0, search.base + address};
  for (auto [index, position] : window.farBuffers)
    farAt.push_back({index, search.base + offsets[position]});
  return true;
}

bool WindowPlacer::placeAroundPinned(
    const Window &window, const WindowTensors &tensors, int64_t height,
    MutableArrayRef<std::optional<Place>> fixed, WindowPlacement &result) {
  SmallVector<unsigned> through(tensors.common);
  llvm::append_range(through, tensors.whole.front());
  if (!stackAroundPinned(through, height, fixed))
    return false;
  SmallVector<unsigned> fixedIn(tensors.pinnedIn);
  llvm::append_range(fixedIn, through);
  SmallVector<std::pair<unsigned, int64_t>> noFar;
  return searchWindow(
      {window, tensors.partial.front(), fixedIn, pinnedNodes, {}, 0, height},
      fixed, noFar, result);
}

bool WindowPlacer::stackAroundPinned(
    MutableArrayRef<unsigned> stacked, int64_t height,
    MutableArrayRef<std::optional<Place>> fixed) {
  sortForStack(stacked, {StackOrder::LongestLived});
  // Each goes at the lowest offset above the last that the pinned ones it
  // meets leave free (pinned ones by address: one pass each).
  SmallVector<unsigned> byAddress(pinnedNodes);
  llvm::sort(byAddress, [&](unsigned a, unsigned b) {
    return fixed[a]->address < fixed[b]->address;
  });
  int64_t top = 0;
  for (unsigned index : stacked) {
    int64_t offset = top, bytes = nodes[index].bytes;
    for (unsigned other : byAddress) {
      int64_t first = fixed[other]->address, end = first + nodes[other].bytes;
      if (first >= offset + bytes)
        break;
      if (end > offset && time.meet(index, other))
        offset = end;
    }
    if (offset > height - bytes)
      return false;
    fixed[index] = Place{0, offset};
    top = offset + bytes;
  }
  return true;
}

Placement WindowPlacer::placeOthers(ArrayRef<Window> windows, int64_t height,
                                    ArrayRef<unsigned> early,
                                    ArrayRef<std::optional<Place>> fixed,
                                    MutableArrayRef<unsigned> others,
                                    WindowPlacement &result) {
  // Pinned tensors may lie anywhere and be many: then the index finds room.
  if (sweeps())
    return sweepOthers(windows, height, early, fixed, others, result);
  lastSweeps.reset();
  // Keyed once: a key costs a lookup and a look at every window.
  llvm::DenseMap<unsigned, unsigned> earlyRank;
  for (auto [rank, index] : llvm::enumerate(early))
    earlyRank.try_emplace(index, rank);
  SmallVector<std::tuple<size_t, unsigned, int64_t, unsigned>> keyed;
  for (unsigned index : others)
    keyed.push_back({earlyRank.lookup_or(index, early.size()),
                     getDistance(windows, index).first, -nodes[index].bytes,
                     index});
  llvm::sort(keyed);
  for (auto [position, key] : llvm::enumerate(keyed))
    others[position] = std::get<3>(key);
  return placeInOrder(graph, partitions, height, fixed, others,
                      result.placeWork);
}

SmallVector<unsigned>
WindowPlacer::sortByRank(function_ref<unsigned(unsigned)> rank) const {
  SmallVector<unsigned> begins(time.points + 1, 0);
  for (unsigned index = 0; index < nodes.size(); ++index)
    ++begins[rank(index) + 1];
  for (unsigned point = 0; point < time.points; ++point)
    begins[point + 1] += begins[point];
  SmallVector<unsigned> sorted(nodes.size());
  SmallVector<unsigned> next(ArrayRef(begins).drop_back());
  for (unsigned index = 0; index < nodes.size(); ++index)
    sorted[next[rank(index)]++] = index;
  // Within a rank (a few nodes), by index already: largest first.
  for (unsigned point = 0; point < time.points; ++point)
    std::stable_sort(sorted.begin() + begins[point],
                     sorted.begin() + begins[point + 1],
                     [&](unsigned a, unsigned b) {
                       return nodes[a].bytes > nodes[b].bytes;
                     });
  return sorted;
}

/// A window's own nodes in sweepOthers: its head's and its sweeps'.
static std::array<ArrayRef<unsigned>, 3> getOwn(ArrayRef<unsigned> head,
                                                const SweepRecord &sweep) {
  return {head, sweep.forward, sweep.backward};
}

Placement WindowPlacer::sweepOthers(ArrayRef<Window> windows, int64_t height,
                                    ArrayRef<unsigned> early,
                                    ArrayRef<std::optional<Place>> fixed,
                                    ArrayRef<unsigned> others,
                                    WindowPlacement &result) {
  if (byStart.empty()) {
    byStart =
        sortByRank([&](unsigned index) { return time.ranks[index].first; });
    byEnd = sortByRank([&](unsigned index) {
      return time.points - 1 - time.ranks[index].second;
    });
  }
  // Each window's own are the others nearest it: the early ones first
  // (once each, as first listed), then those after it by start, and those
  // before it by end, latest first: two sweeps in time away from it, which
  // never meet.
  SmallVector<SweepRecord> sweeps(windows.size());
  SmallVector<SmallVector<unsigned>> heads(windows.size());
  BitVector isOther(nodes.size()), inHead(nodes.size());
  SmallVector<unsigned> nearest(nodes.size(), 0);
  for (unsigned index : others) {
    isOther.set(index);
    nearest[index] = getDistance(windows, index).second;
  }
  for (unsigned index : early)
    if (isOther.test(index) && !inHead.test(index)) {
      inHead.set(index);
      heads[nearest[index]].push_back(index);
    }
  for (unsigned index : byStart)
    if (isOther.test(index) && !inHead.test(index) &&
        time.ranks[index].first > windows[nearest[index]].last)
      sweeps[nearest[index]].forward.push_back(index);
  for (unsigned index : byEnd)
    if (isOther.test(index) && !inHead.test(index) &&
        time.ranks[index].first <= windows[nearest[index]].last)
      sweeps[nearest[index]].backward.push_back(index);
  // The last order's sweeps show what a sweep placed alike only if every
  // node it now sees placed before a node was there then too. Around one
  // window they were: one placed later then lay before the window (the
  // backward sweep came second) and meets no node after it. With several,
  // the windows before must have placed the same: the same windows and
  // far tensors.
  bool copies = lastSweeps && lastSweeps->records.size() == windows.size() &&
                (windows.size() == 1 ||
                 (lastSweeps->farCount == farTensors.size() &&
                  llvm::equal(lastSweeps->windows, windows,
                              [](const Window &a, const Window &b) {
                                return a.first == b.first && a.last == b.last;
                              })));
  Placement coloring;
  coloring.placements.assign(fixed.begin(), fixed.end());
  for (auto [position, window] : llvm::enumerate(windows)) {
    SweepRecord &sweep = sweeps[position];
    sweep.limit = height;
    Placement placed =
        sweepWindow(window, height, coloring.placements, heads[position], sweep,
                    copies ? &lastSweeps->records[position] : nullptr, result);
    for (ArrayRef<unsigned> own : getOwn(heads[position], sweep))
      for (unsigned index : own)
        coloring.placements[index] = placed.placements[index];
    llvm::append_range(coloring.spilled, placed.spilled);
    coloring.peakBytes = std::max(coloring.peakBytes, placed.peakBytes);
  }
  llvm::sort(coloring.spilled);
  // Its places join the records only if the order fails (tryWindows): a
  // placement that succeeds is the result, and no order follows it.
  lastSweeps = LastSweeps{SmallVector<Window>(windows), farTensors.size(),
                          std::move(sweeps)};
  return coloring;
}

Placement WindowPlacer::sweepWindow(const Window &window, int64_t height,
                                    ArrayRef<std::optional<Place>> placed,
                                    ArrayRef<unsigned> head,
                                    const SweepRecord &sweep,
                                    const SweepRecord *previous,
                                    WindowPlacement &result) {
  // Over the points its own span, the placed tensors that meet the window
  // are where the sweeps start; the others are the head's, where they are.
  Window span{~0u, 0};
  for (ArrayRef<unsigned> own : getOwn(head, sweep))
    for (unsigned index : own) {
      span.first = std::min(span.first, time.ranks[index].first);
      span.last = std::max(span.last, time.ranks[index].second);
    }
  SmallVector<std::optional<Place>> fixed(placed.size());
  SmallVector<std::pair<unsigned, int64_t>> headAt;
  for (auto [index, place] : llvm::enumerate(placed)) {
    if (!place)
      continue;
    if (meets(window, index))
      fixed[index] = place;
    else if (meets(span, index))
      headAt.push_back({unsigned(index), place->address});
  }
  return placeSweeping(
      graph, time,
      {height, fixed, headAt, head, sweep.forward, sweep.backward, previous},
      result.placeWork, threads);
}

std::pair<unsigned, unsigned>
WindowPlacer::getDistance(ArrayRef<Window> windows, unsigned index) const {
  auto [first, last] = time.ranks[index];
  std::pair<unsigned, unsigned> nearest{~0u, 0};
  for (auto [position, window] : llvm::enumerate(windows)) {
    unsigned distance =
        first > window.last ? first - window.last : window.first - last;
    nearest = std::min(nearest, {distance, unsigned(position)});
  }
  return nearest;
}

/// Makes the two of `windows` (in time order) least far apart one.
static void mergeNearest(SmallVectorImpl<Window> &windows) {
  assert(windows.size() > 1 && "one window is a separate problem");
  unsigned nearest = 0;
  for (unsigned position = 1; position + 1 < windows.size(); ++position)
    if (windows[position + 1].first - windows[position].last <
        windows[nearest + 1].first - windows[nearest].last)
      nearest = position;
  windows[nearest].last = windows[nearest + 1].last;
  windows.erase(windows.begin() + nearest + 1);
}

/// Grows each of `windows` by `extent` on each side, merging those that
/// then meet.
static void widen(SmallVectorImpl<Window> &windows, unsigned extent,
                  unsigned points) {
  SmallVector<Window> merged;
  for (Window window : windows) {
    window.first -= std::min(window.first, extent);
    window.last = unsigned(
        std::min<uint64_t>(points - 1, uint64_t(window.last) + extent));
    if (!merged.empty() && window.first <= merged.back().last + 1)
      merged.back().last = std::max(merged.back().last, window.last);
    else
      merged.push_back(window);
  }
  windows = std::move(merged);
}

SmallVector<Window> WindowPlacer::getFullWindows(int64_t full) const {
  // The points above `full`, in runs: those further apart than the
  // windows first grow are windows of their own.
  SmallVector<Window> windows;
  for (unsigned point = 0; point < time.points; ++point) {
    if (loads[point] <= full)
      continue;
    if (!windows.empty() && point - windows.back().last <= 2 * kFirstExtent)
      windows.back().last = point;
    else
      windows.push_back({point, point});
  }
  // Each window costs a search and a look at every tensor.
  if (windows.size() > kMaxWindows)
    windows = {{windows.front().first, windows.back().last}};
  return windows;
}

void WindowPlacer::capSearchWork(bool widened) {
  // A widened window's search that takes many times the last order's
  // seldom ends: it then falls back sooner.
  searchCap = maxSearchWork / 8;
  if (widened)
    searchCap = std::min(
        searchCap,
        std::max(llvm::SaturatingMultiply(kWidenedGrowth, orderSearchWork),
                 maxSearchWork / 64));
  orderSearchWork = 0;
}

void WindowPlacer::growToUnplaced(SmallVector<Window> &windows,
                                  ArrayRef<unsigned> unplaced, int64_t full,
                                  SmallVectorImpl<unsigned> &early) {
  // A tensor first fit left out where many bytes are free found no
  // hole large enough in that order: it goes first. One left out next
  // to a window where few are, or again though it went first: the
  // window grows up to its near edge (so that the search places it),
  // and further each time. Growing up to one that went first and lies
  // further away than the window is wide would give the search more
  // tensors than it can place: it joins the search at points of its own
  // (far), where nothing pinned needs the index instead of the sweep.
  SmallVector<Window> grown(windows);
  for (unsigned index : unplaced) {
    auto [first, last] = time.ranks[index];
    int64_t busiest =
        *std::max_element(loads.begin() + first, loads.begin() + last + 1);
    auto [distance, position] = getDistance(windows, index);
    const Window &window = windows[position];
    bool wentFirst = llvm::is_contained(early, index);
    bool roomy = busiest <= full && !wentFirst;
    bool distant = distance > window.last - window.first + 1;
    if (wentFirst && distant && sweeps()) {
      llvm::erase(early, index);
      farTensors.push_back(index);
    } else if (roomy || distant)
      early.push_back(index);
    else if (first > window.last)
      grown[position].last = std::max(grown[position].last, first);
    else
      grown[position].first = std::min(grown[position].first, last);
  }
  windows = std::move(grown);
}

std::optional<Placement> WindowPlacer::fitUnder(int64_t height, int64_t margin,
                                                WindowPlacement &result) {
  SmallVector<Window> windows = getFullWindows(height - margin);
  if (windows.empty())
    return std::nullopt;
  // Tensors that first fit left out in a roomy place, first in the order.
  SmallVector<unsigned> early;
  // Whether the windows still grow by `extent` each order.
  bool widening = true;
  for (unsigned extent = kFirstExtent;; extent *= 2) {
    SmallVector<Window> unwidened(windows);
    widen(windows, widening ? extent : 0, time.points);
    capSearchWork(widening && extent > kFirstExtent);
    std::optional<Placement> placed;
    SmallVector<unsigned> unplaced;
    Outcome outcome =
        tryWindows(windows, height, early, result, placed, unplaced);
    // Windows that are not separate problems: the nearest two become one
    // until they are (one window always is).
    while (outcome == Outcome::Entangled) {
      mergeNearest(windows);
      outcome = tryWindows(windows, height, early, result, placed, unplaced);
    }
    if (outcome == Outcome::Placed)
      return placed;
    // The search placed smaller windows before and fails on these (or they
    // hold too many tensors): those stay (with what tensors left out asked
    // for), and grow no more but up to a tensor left out.
    if ((outcome == Outcome::SearchFailed || outcome == Outcome::TooLarge) &&
        widening && result.windowsPlaced > 0 &&
        result.searchWork < maxSearchWork && result.orders < maxOrders) {
      widening = false;
      windows = std::move(unwidened);
      continue;
    }
    // A larger window holds a smaller one's problem: where the search
    // failed on this one, it would fail there too, or run out of work.
    bool whole = windows.size() == 1 && windows.front().first == 0 &&
                 windows.front().last == time.points - 1;
    // Many left out: the trouble is not around the windows (and finding
    // where each one is full costs its whole live range).
    if (outcome != Outcome::OthersFailed || whole ||
        unplaced.size() > kMaxUnplaced || result.searchWork >= maxSearchWork ||
        result.orders >= maxOrders)
      return std::nullopt;
    growToUnplaced(windows, unplaced, height - margin, early);
    // Grown windows may meet: widen by nothing merges them.
    widen(windows, 0, time.points);
  }
}

/// The room above the bound the window search tries first when it places
/// no window at the bound, and last (fractions of the bound), and the
/// factor from one try's room to the next.
static constexpr int64_t kFirstSlack = 65536, kLastSlack = 4096,
                         kSlackGrowth = 4;

/// Where the search places no window at `bound`, a little room may be all
/// it lacks: tries again a 65536th of the bound higher, then a 16384th and
/// a 4096th (within the capacity), over the same points (the margin grows
/// as much), each try a window search of its own with the work left.
/// Adds every try's work, orders and windows to `result`.
static void placeWithRoom(const Problem &graph,
                          ArrayRef<std::optional<Place>> pinned,
                          const WindowSearchOptions &options, int64_t bound,
                          int64_t margin, WindowPlacement &result) {
  int64_t capacity = options.capacity;
  uint64_t maxSearchWork = options.workLimit;
  int64_t lastHeight = bound;
  for (int64_t slack = bound / kFirstSlack;
       !result.coloring && slack > 0 && slack <= bound / kLastSlack &&
       result.searchWork < maxSearchWork;
       slack *= kSlackGrowth) {
    int64_t height = bound + std::min(slack, capacity - bound);
    if (height == lastHeight)
      return;
    lastHeight = height;
    WindowPlacer higher(graph, options.partitions, pinned,
                        maxSearchWork - result.searchWork, options.maxOrders,
                        options.threads);
    if (!higher.computeLoads())
      return;
    WindowPlacement tried;
    tried.coloring = higher.fitUnder(height, margin + (height - bound), tried);
    result.searchWork += tried.searchWork;
    result.placeWork += tried.placeWork;
    result.orders += tried.orders;
    result.windowsPlaced += tried.windowsPlaced;
    result.coloring = std::move(tried.coloring);
  }
}

WindowPlacement
walrus::placement::placeByWindowSearch(const Problem &graph,
                                       ArrayRef<std::optional<Place>> pinned,
                                       const WindowSearchOptions &options) {
  WindowPlacement result;
  if (!graph.isOneDimensional())
    return result;
  WindowPlacer placer(graph, options.partitions, pinned, options.workLimit,
                      options.maxOrders, options.threads);
  if (!placer.computeLoads() || placer.getAreaBound() > options.capacity)
    return result;
  // Around the points within a thousandth of the bound: about what first
  // fit loses on dense traces.
  int64_t bound = placer.getAreaBound(), margin = bound / 1024 + 1;
  result.coloring = placer.fitUnder(bound, margin, result);
  if (!result.coloring && result.windowsPlaced == 0)
    placeWithRoom(graph, pinned, options, bound, margin, result);
  return result;
}
