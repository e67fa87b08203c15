//===- FreeGaps.cpp - Free byte ranges, lowest fit first -----------------===//

#include "Dense/FreeGaps.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

using namespace walrus;
using namespace walrus::placement;

FreeGaps::FreeGaps(int64_t limit) {
  if (limit > 0)
    blocks.push_back(Block{{{0, limit}}, limit});
}

size_t FreeGaps::findBlock(int64_t offset) const {
  auto after = llvm::partition_point(blocks, [&](const Block &block) {
    return block.gaps.front().first <= offset;
  });
  return after == blocks.begin() ? 0 : after - blocks.begin() - 1;
}

std::optional<int64_t> FreeGaps::findFrom(int64_t from, int64_t bytes,
                                          uint64_t &work) const {
  for (size_t index = findBlock(from); index < blocks.size(); ++index) {
    ++work;
    const Block &block = blocks[index];
    if (block.largest < bytes)
      continue;
    auto gap = llvm::partition_point(
        block.gaps, [&](const Gap &gap) { return gap.second <= from; });
    for (; gap != block.gaps.end(); ++gap) {
      ++work;
      int64_t first = std::max(gap->first, from);
      if (gap->second - first >= bytes)
        return first;
    }
  }
  return std::nullopt;
}

void FreeGaps::refresh(size_t index) {
  Block &block = blocks[index];
  block.largest = 0;
  for (auto [first, end] : block.gaps)
    block.largest = std::max(block.largest, end - first);
}

void FreeGaps::rebalance(size_t index) {
  Block &block = blocks[index];
  if (block.gaps.empty()) {
    blocks.erase(blocks.begin() + index);
    return;
  }
  if (block.gaps.size() <= 2 * kBlockGaps)
    return;
  Block upper;
  upper.gaps.assign(block.gaps.begin() + kBlockGaps, block.gaps.end());
  block.gaps.truncate(kBlockGaps);
  blocks.insert(blocks.begin() + index + 1, std::move(upper));
  refresh(index);
  refresh(index + 1);
}

void FreeGaps::take(int64_t first, int64_t end) {
  size_t index = findBlock(first);
  assert(index < blocks.size() && "taking bytes that are not free");
  auto &gaps = blocks[index].gaps;
  auto gap = std::prev(llvm::partition_point(
      gaps, [&](const Gap &gap) { return gap.first <= first; }));
  assert(gap->first <= first && gap->second >= end &&
         "taking bytes that are not free");
  int64_t gapEnd = gap->second;
  if (gap->first < first) {
    gap->second = first;
    if (end < gapEnd)
      gaps.insert(std::next(gap), {end, gapEnd});
  } else if (end < gapEnd) {
    gap->first = end;
  } else {
    gaps.erase(gap);
  }
  refresh(index);
  rebalance(index);
}

void FreeGaps::release(int64_t first, int64_t end) {
  if (blocks.empty()) {
    blocks.push_back(Block{{{first, end}}, end - first});
    return;
  }
  // The gaps either side: the last that starts before `first` (none when
  // the first block starts after it) and the one after that.
  size_t index = findBlock(first);
  auto &gaps = blocks[index].gaps;
  size_t position =
      llvm::partition_point(
          gaps, [&](const Gap &gap) { return gap.first <= first; }) -
      gaps.begin();
  std::optional<Place> before, after;
  if (position > 0)
    before = Place{index, position - 1};
  if (position < gaps.size())
    after = Place{index, position};
  else if (index + 1 < blocks.size())
    after = Place{index + 1, 0};
  bool joinsBefore = before && at(*before).second == first;
  bool joinsAfter = after && at(*after).first == end;
  auto grow = [&](Place place) {
    Gap &gap = at(place);
    Block &block = blocks[place.block];
    block.largest = std::max(block.largest, gap.second - gap.first);
  };
  if (joinsBefore && joinsAfter) {
    // Within a block the merged gap outgrows the one that leaves; across
    // two, the later block may lose its largest or its last gap.
    at(*before).second = at(*after).second;
    grow(*before);
    auto &afterGaps = blocks[after->block].gaps;
    afterGaps.erase(afterGaps.begin() + after->gap);
    if (after->block != before->block) {
      refresh(after->block);
      rebalance(after->block);
    }
  } else if (joinsBefore) {
    at(*before).second = end;
    grow(*before);
  } else if (joinsAfter) {
    at(*after).first = first;
    grow(*after);
  } else {
    gaps.insert(gaps.begin() + position, {first, end});
    grow(Place{index, position});
    rebalance(index);
  }
}
