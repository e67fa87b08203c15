//===- greedy_baselines.cpp - The production allocators' greedy family ----===//
//
// Reference points for bench/minimalloc.py, in C++ so that their times
// compare with -sb-alloc's: reads a MiniMalloc CSV (id,lower,upper,size)
// and prints, per baseline, `name height seconds`:
//   best-fit   size-descending best fit (TFLite, XLA kSpatial)
//   first-fit  size-descending first fit (TFLM)
//   temporal   start-time order, best fit (XLA kTemporal)
// Placed buffers are found through an interval index (a segment tree over
// time), so each query costs the buffers live with the new one, not the
// long-lived ones again per time bucket.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <tuple>
#include <vector>

namespace {
struct Buffer {
  int64_t lower, upper, size;
};

/// Placed buffers indexed by a segment tree over time (each stored at the
/// O(log T) nodes its lifetime covers whole), as XLA's BufferIntervalTree
/// is used: a query lists exactly the placed buffers live with a new one,
/// however long-lived they are.
class Placed {
public:
  Placed(llvm::ArrayRef<Buffer> buffers, int64_t horizon)
      : buffers(buffers), horizon(std::max<int64_t>(horizon, 1)),
        stored(4 * this->horizon), below(4 * this->horizon, 0),
        seen(buffers.size(), 0), offsets(buffers.size(), 0) {}
  void add(unsigned index, int64_t offset) {
    offsets[index] = offset;
    add(1, 0, horizon, index);
  }
  /// The [offset, end) ranges of placed buffers live with `buffer`, sorted.
  void overlapping(const Buffer &buffer,
                   llvm::SmallVectorImpl<std::pair<int64_t, int64_t>> &out) {
    ++stamp;
    query(1, 0, horizon, buffer, out);
    llvm::sort(out);
  }

private:
  void add(unsigned node, int64_t low, int64_t high, unsigned index) {
    const Buffer &buffer = buffers[index];
    if (buffer.upper <= low || buffer.lower >= high)
      return;
    ++below[node];
    if (buffer.lower <= low && high <= buffer.upper) {
      stored[node].push_back(index);
      return;
    }
    int64_t middle = low + (high - low) / 2;
    add(2 * node, low, middle, index);
    add(2 * node + 1, middle, high, index);
  }
  void query(unsigned node, int64_t low, int64_t high, const Buffer &buffer,
             llvm::SmallVectorImpl<std::pair<int64_t, int64_t>> &out) {
    if (buffer.upper <= low || buffer.lower >= high || below[node] == 0)
      return;
    for (unsigned other : stored[node])
      if (seen[other] != stamp) {
        seen[other] = stamp;
        out.push_back({offsets[other], offsets[other] + buffers[other].size});
      }
    if (high - low == 1)
      return;
    int64_t middle = low + (high - low) / 2;
    query(2 * node, low, middle, buffer, out);
    query(2 * node + 1, middle, high, buffer, out);
  }

  llvm::ArrayRef<Buffer> buffers;
  int64_t horizon;
  std::vector<std::vector<unsigned>> stored;
  std::vector<unsigned> below;
  std::vector<unsigned> seen;
  std::vector<int64_t> offsets;
  unsigned stamp = 0;
};

int64_t place(llvm::ArrayRef<Buffer> buffers, llvm::ArrayRef<unsigned> order,
              bool bestFit) {
  int64_t horizon = 1;
  for (const Buffer &buffer : buffers)
    horizon = std::max(horizon, buffer.upper);
  Placed placed(buffers, horizon);
  int64_t height = 0;
  llvm::SmallVector<std::pair<int64_t, int64_t>> taken;
  for (unsigned index : order) {
    const Buffer &buffer = buffers[index];
    taken.clear();
    placed.overlapping(buffer, taken);
    taken.push_back({INT64_MAX, INT64_MAX});
    int64_t start = 0, choice = -1, choiceGap = INT64_MAX;
    for (auto [first, end] : taken) {
      int64_t gap = first - start;
      if (gap >= buffer.size && (choice < 0 || gap < choiceGap)) {
        choice = start;
        choiceGap = gap;
        if (!bestFit)
          break;
      }
      start = std::max(start, end);
    }
    placed.add(index, choice);
    height = std::max(height, choice + buffer.size);
  }
  return height;
}
} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: greedy-baselines problem.csv\n";
    return 2;
  }
  auto file = llvm::MemoryBuffer::getFile(argv[1]);
  if (!file) {
    llvm::errs() << argv[1] << ": " << file.getError().message() << "\n";
    return 1;
  }
  std::vector<Buffer> buffers;
  llvm::SmallVector<llvm::StringRef> fields;
  llvm::StringRef rest = (*file)->getBuffer();
  while (!rest.empty()) {
    auto [line, next] = rest.split('\n');
    rest = next;
    fields.clear();
    line.trim().split(fields, ',');
    Buffer buffer;
    if (fields.size() < 4 || fields[1].getAsInteger(10, buffer.lower) ||
        fields[2].getAsInteger(10, buffer.upper) ||
        fields[3].getAsInteger(10, buffer.size))
      continue; // the header (bench/minimalloc.py validates instances)
    buffers.push_back(buffer);
  }
  std::vector<unsigned> bySize(buffers.size()), byStart(buffers.size());
  for (unsigned i = 0; i < buffers.size(); ++i)
    bySize[i] = byStart[i] = i;
  llvm::sort(bySize, [&](unsigned a, unsigned b) {
    const Buffer &x = buffers[a], &y = buffers[b];
    return std::make_tuple(-x.size, x.lower - x.upper, a) <
           std::make_tuple(-y.size, y.lower - y.upper, b);
  });
  llvm::sort(byStart, [&](unsigned a, unsigned b) {
    return std::make_pair(buffers[a].lower, a) <
           std::make_pair(buffers[b].lower, b);
  });
  struct Baseline {
    const char *name;
    const std::vector<unsigned> &order;
    bool bestFit;
  };
  for (const Baseline &baseline : {Baseline{"best-fit", bySize, true},
                                   Baseline{"first-fit", bySize, false},
                                   Baseline{"temporal", byStart, true}}) {
    auto start = std::chrono::steady_clock::now();
    int64_t height = place(buffers, baseline.order, baseline.bestFit);
    std::chrono::duration<double> seconds =
        std::chrono::steady_clock::now() - start;
    llvm::outs() << baseline.name << " " << height << " "
                 << llvm::format("%.4f", seconds.count()) << "\n";
  }
  return 0;
}
