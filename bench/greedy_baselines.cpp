//===- greedy_baselines.cpp - The production allocators' greedy family ----===//
//
// Reference points for bench/minimalloc.py, in C++ so that their times
// compare with -sb-alloc's: reads a MiniMalloc CSV (id,lower,upper,size)
// and prints, per baseline, `name height seconds`:
//   best-fit   size-descending best fit (TFLite, XLA kSpatial)
//   first-fit  size-descending first fit (TFLM)
//   temporal   start-time order, best fit (XLA kTemporal)
// Placed buffers are bucketed by time (llvm::IntervalMap cannot hold
// overlapping intervals), as in bench/minimalloc.py's instances lifetimes
// are short next to the horizon.
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

/// Placed buffers bucketed by time, to find those overlapping a lifetime
/// without scanning them all.
class Placed {
public:
  explicit Placed(int64_t width) : width(width) {}
  void add(const Buffer &buffer, int64_t offset) {
    for (int64_t b = buffer.lower / width; b <= (buffer.upper - 1) / width; ++b)
      buckets[b].push_back({buffer, offset});
  }
  /// The [offset, end) ranges of placed buffers live with `buffer`.
  void overlapping(const Buffer &buffer,
                   llvm::SmallVectorImpl<std::pair<int64_t, int64_t>> &out) {
    for (int64_t b = buffer.lower / width; b <= (buffer.upper - 1) / width; ++b)
      for (auto &[other, offset] : buckets[b])
        if (other.lower < buffer.upper && buffer.lower < other.upper)
          out.push_back({offset, offset + other.size});
    llvm::sort(out);
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  void resize(int64_t horizon) { buckets.resize(horizon / width + 1); }

private:
  int64_t width;
  std::vector<std::vector<std::pair<Buffer, int64_t>>> buckets;
};

int64_t place(llvm::ArrayRef<Buffer> buffers, llvm::ArrayRef<unsigned> order,
              bool bestFit) {
  int64_t horizon = 1;
  for (const Buffer &buffer : buffers)
    horizon = std::max(horizon, buffer.upper);
  Placed placed(std::max<int64_t>(1, horizon / 1024));
  placed.resize(horizon);
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
    placed.add(buffer, choice);
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
    return std::make_pair(buffers[a].lower, a) < std::make_pair(buffers[b].lower, b);
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
