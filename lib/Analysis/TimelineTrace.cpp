//===- TimelineTrace.cpp - A timeline as Chrome trace events --------------===//
//
// The Chrome trace-event format ("Trace Event Format", Google) draws
// complete events ("X") of one thread as a stack, so two that overlap
// without nesting break it. Compute engines issue in order, so theirs never
// overlap; a transfer holds several DMA engines at once and its fixed
// latency overlaps the next transfers, so it is drawn on each DMA engine it
// holds and its latency on tracks of their own, assigned greedily.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/TimelineTrace.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <map>
#include <memory>
#include <queue>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// Thread ids: the compute engines, then each DMA engine, then the tracks
/// of transfers' latencies.
constexpr int64_t kFirstDmaTid = kNumEngines - 1;
constexpr int64_t kFirstLatencyTid = kFirstDmaTid + kMaxDmaEngines;

/// Nanoseconds, rounded: events that abut in the model abut in the trace.
int64_t toNs(double ns) { return std::llround(ns); }

/// What the trace says about an instruction wherever it runs.
struct InstructionText {
  std::string text, location;
};

class TraceWriter {
public:
  explicit TraceWriter(llvm::json::OStream &json) : json(json) {}
  void writeCore(const CoreTimeline &core, int64_t kernel);

private:
  void writeNames(const CoreTimeline &core, int64_t kernel, uint64_t queues,
                  int64_t latencyTracks);
  void writeSlice(StringRef name, int64_t tid, int64_t start, int64_t end,
                  llvm::function_ref<void()> args);
  void writeArgs(const TimelineEvent &event, int64_t index);
  void writeFlows(const CoreTimeline &core, ArrayRef<int64_t> latencyTrackOf);
  void writeCounters(const CoreTimeline &core);
  void writeTime(StringRef key, int64_t ns);
  void writeDuration(int64_t ns);
  const InstructionText &getText(Operation *op);

  llvm::json::OStream &json;
  int64_t pid = 0, nextFlow = 1;
  llvm::DenseMap<Operation *, InstructionText> texts;
  /// One printing state per function: SSA names as the function prints.
  llvm::DenseMap<Operation *, std::unique_ptr<AsmState>> states;
};
} // namespace

/// Microseconds (the format's unit), exactly the nanoseconds given.
void TraceWriter::writeTime(StringRef key, int64_t ns) {
  json.attributeBegin(key);
  json.rawValue(llvm::formatv("{0}.{1:d3}", ns / 1000, ns % 1000).str());
  json.attributeEnd();
}

/// A duration of `ns` nanoseconds less one picosecond: viewers add a
/// slice's duration to its start in binary floating point, where 15.453 +
/// 0.478 can exceed 15.931, the start of the next slice.
void TraceWriter::writeDuration(int64_t ns) {
  json.attributeBegin("dur");
  int64_t ps = ns > 0 ? ns * 1000 - 1 : 0;
  json.rawValue(llvm::formatv("{0}.{1:d6}", ps / 1000000, ps % 1000000).str());
  json.attributeEnd();
}

const InstructionText &TraceWriter::getText(Operation *op) {
  auto [entry, inserted] = texts.try_emplace(op);
  if (!inserted)
    return entry->second;
  Operation *func = op->getParentOfType<FuncOp>();
  std::unique_ptr<AsmState> &state = states[func];
  if (!state)
    state = std::make_unique<AsmState>(func);
  llvm::raw_string_ostream text(entry->second.text);
  op->print(text, *state);
  llvm::raw_string_ostream location(entry->second.location);
  op->getLoc().print(location);
  return entry->second;
}

/// Where an access starting at element `start` of `memloc` lies.
static std::string describeAccess(const Access &access, int64_t start) {
  Value root = access.getMemloc();
  while (auto view = root.getDefiningOp<ViewOp>())
    root = view.getSource();
  auto memloc = root.getDefiningOp<MemlocOp>();
  MemoryType type = access.getMemoryType();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (access.writes() ? "write " : "read ")
     << (memloc ? memloc.getName() : StringRef("?")) << " "
     << stringifyMemorySpace(type.getMemorySpace()).upper();
  int64_t bytes = type.getElementBytes();
  if (!type.isOnChip()) {
    os << " byte " << start * bytes;
    return text;
  }
  int64_t free = std::max<int64_t>(1, type.getFreeSize());
  int64_t partition = start / free, column = start % free;
  if (memloc && memloc.getAddress())
    os << " partition " << partition + memloc.getBasePartition().value_or(0)
       << " byte " << int64_t(*memloc.getAddress()) + column * bytes;
  else
    os << " partition " << partition << " byte " << column * bytes;
  return text;
}

void TraceWriter::writeArgs(const TimelineEvent &event, int64_t index) {
  const InstructionText &text = getText(event.op);
  SmallVector<Access> accesses;
  cast<InstructionOpInterface>(event.op).getAccesses(accesses);
  int64_t read = 0, written = 0;
  for (const Access &access : accesses) {
    int64_t bytes = access.getPattern().getNumElements() *
                    access.getMemoryType().getElementBytes();
    (access.writes() ? written : read) += bytes;
  }
  json.attribute("event", index);
  json.attribute("instruction", text.text);
  json.attribute("loc", text.location);
  json.attribute("bytes_read", read);
  json.attribute("bytes_written", written);
  json.attributeArray("accesses", [&] {
    for (size_t position = 0; position < accesses.size(); ++position)
      json.value(
          position < kTracedAccesses
              ? describeAccess(accesses[position], event.accessStarts[position])
              : std::string("(not recorded)"));
  });
}

void TraceWriter::writeSlice(StringRef name, int64_t tid, int64_t start,
                             int64_t end, llvm::function_ref<void()> args) {
  json.object([&] {
    json.attribute("name", name);
    json.attribute("ph", "X");
    json.attribute("pid", pid);
    json.attribute("tid", tid);
    writeTime("ts", start);
    writeDuration(end - start);
    json.attributeObject("args", args);
  });
}

void TraceWriter::writeNames(const CoreTimeline &core, int64_t kernel,
                             uint64_t queues, int64_t latencyTracks) {
  auto metadata = [&](StringRef name, std::optional<int64_t> tid,
                      llvm::json::Value value) {
    json.object([&] {
      json.attribute("name", name);
      json.attribute("ph", "M");
      json.attribute("pid", pid);
      if (tid)
        json.attribute("tid", *tid);
      json.attributeObject("args", [&] {
        json.attribute(name.ends_with("_name") ? "name" : "sort_index",
                       std::move(value));
      });
    });
  };
  // Per-core modules repeat their names (@nc00) from kernel to kernel.
  std::string name = "kernel " + std::to_string(kernel);
  if (!core.kernel.empty())
    name += " @" + core.kernel;
  metadata(
      "process_name", std::nullopt,
      llvm::formatv("{0}: @{1} core {2}", name, core.module, core.core).str());
  metadata("process_sort_index", std::nullopt, pid);
  auto thread = [&](int64_t tid, std::string name) {
    metadata("thread_name", tid, std::move(name));
    metadata("thread_sort_index", tid, tid);
  };
  for (unsigned engine = 0; engine < kNumEngines - 1; ++engine)
    thread(engine, getEngineName(Engine(engine)).str());
  for (unsigned queue = 0; queue < kMaxDmaEngines; ++queue)
    if (queues >> queue & 1)
      thread(kFirstDmaTid + queue, "DMA queue " + std::to_string(queue));
  for (int64_t track = 0; track < latencyTracks; ++track)
    thread(kFirstLatencyTid + track,
           "DMA fixed latency " + std::to_string(track));
}

/// The latency track of each transfer (-1 for other instructions): the
/// first track free when its latency starts, in order of start.
static std::vector<int64_t> assignLatencyTracks(const CoreTimeline &core,
                                                int64_t &tracks) {
  std::vector<int64_t> trackOf(core.events.size(), -1);
  std::vector<std::pair<int64_t, int64_t>> latencies; // (start ns, event)
  for (auto [index, event] : llvm::enumerate(core.events))
    if (event.engine == Engine::DMA)
      latencies.push_back({toNs(event.engineFinish), int64_t(index)});
  llvm::sort(latencies);
  using Free = std::pair<int64_t, int64_t>; // (free at ns, track)
  std::priority_queue<Free, std::vector<Free>, std::greater<Free>> free;
  tracks = 0;
  for (auto [start, index] : latencies) {
    int64_t track;
    if (!free.empty() && free.top().first <= start) {
      track = free.top().second;
      free.pop();
    } else {
      track = tracks++;
    }
    trackOf[index] = track;
    free.push({toNs(core.events[index].finish), track});
  }
  return trackOf;
}

/// An arrow from each instruction of the critical path to the one that
/// waited for it, bound to the slices' middles (a transfer's latency, which
/// is what its dependent waited for).
void TraceWriter::writeFlows(const CoreTimeline &core,
                             ArrayRef<int64_t> latencyTrackOf) {
  auto endpoint = [&](int64_t index, bool from) {
    const TimelineEvent &event = core.events[index];
    int64_t start = toNs(event.start), end = toNs(event.engineFinish);
    int64_t tid = int64_t(event.engine);
    if (event.engine == Engine::DMA) {
      tid = kFirstDmaTid + llvm::countr_zero(event.dmaQueues);
      if (from) {
        tid = kFirstLatencyTid + latencyTrackOf[index];
        start = end, end = toNs(event.finish);
      }
    }
    return std::make_pair(tid, start + (end - start) / 2);
  };
  ArrayRef<int64_t> path = core.criticalEvents;
  for (size_t step = 1; step < path.size(); ++step) {
    auto [fromTid, fromTs] = endpoint(path[step], /*from=*/true);
    auto [toTid, toTs] = endpoint(path[step - 1], /*from=*/false);
    int64_t id = nextFlow++;
    auto flow = [&](StringRef phase, int64_t tid, int64_t ts) {
      json.object([&] {
        json.attribute("name", "critical path");
        json.attribute("cat", "critical");
        json.attribute("ph", phase);
        json.attribute("id", id);
        json.attribute("pid", pid);
        json.attribute("tid", tid);
        writeTime("ts", ts);
        if (phase == "f")
          json.attribute("bp", "e");
      });
    };
    flow("s", fromTid, fromTs);
    flow("f", toTid, std::max(toTs, fromTs));
  }
}

/// The bytes of on-chip memory locations in use: each from its first
/// access's start to its last access's end.
void TraceWriter::writeCounters(const CoreTimeline &core) {
  struct Span {
    int64_t start, end, bytes;
    MemorySpace space;
  };
  llvm::DenseMap<Value, Span> spans;
  SmallVector<Access> accesses;
  for (const TimelineEvent &event : core.events) {
    accesses.clear();
    cast<InstructionOpInterface>(event.op).getAccesses(accesses);
    for (const Access &access : accesses) {
      MemoryType type = access.getMemoryType();
      if (!type.isOnChip())
        continue;
      Value root = access.getMemloc();
      while (auto view = root.getDefiningOp<ViewOp>())
        root = view.getSource();
      auto rootType = cast<MemoryType>(root.getType());
      auto [entry, inserted] = spans.try_emplace(
          root, Span{toNs(event.start), toNs(event.finish),
                     rootType.getNumElements() * rootType.getElementBytes(),
                     rootType.getMemorySpace()});
      entry->second.start = std::min(entry->second.start, toNs(event.start));
      entry->second.end = std::max(entry->second.end, toNs(event.finish));
    }
  }
  // (time, SBUF change, PSUM change), summed per time.
  std::map<int64_t, std::pair<int64_t, int64_t>> changes;
  for (const auto &[root, span] : spans) {
    bool sbuf = span.space == MemorySpace::SBUF;
    (sbuf ? changes[span.start].first : changes[span.start].second) +=
        span.bytes;
    (sbuf ? changes[span.end].first : changes[span.end].second) -= span.bytes;
  }
  auto counter = [&](StringRef name, int64_t time, int64_t value) {
    json.object([&] {
      json.attribute("name", name);
      json.attribute("ph", "C");
      json.attribute("pid", pid);
      writeTime("ts", time);
      json.attributeObject("args", [&] { json.attribute("bytes", value); });
    });
  };
  int64_t sbuf = 0, psum = 0;
  for (const auto &entry : changes) {
    sbuf += entry.second.first, psum += entry.second.second;
    counter("SBUF bytes in use", entry.first, sbuf);
    counter("PSUM bytes in use", entry.first, psum);
  }
}

void TraceWriter::writeCore(const CoreTimeline &core, int64_t kernel) {
  ++pid;
  uint64_t queues = 0;
  for (const TimelineEvent &event : core.events)
    queues |= event.dmaQueues;
  int64_t latencyTracks = 0;
  std::vector<int64_t> latencyTrackOf =
      assignLatencyTracks(core, latencyTracks);
  writeNames(core, kernel, queues, latencyTracks);
  for (size_t position = 0; position < core.events.size(); ++position) {
    const TimelineEvent &event = core.events[position];
    int64_t index = int64_t(position);
    StringRef name = event.op->getName().getStringRef();
    int64_t start = toNs(event.start), end = toNs(event.engineFinish);
    if (event.engine != Engine::DMA) {
      writeSlice(name, int64_t(event.engine), start, end,
                 [&] { writeArgs(event, index); });
      continue;
    }
    // The transfer on each DMA engine it holds, its details on the first.
    unsigned first = llvm::countr_zero(event.dmaQueues);
    for (unsigned queue = first; queue < kMaxDmaEngines; ++queue) {
      if (!(event.dmaQueues >> queue & 1))
        continue;
      writeSlice(name, kFirstDmaTid + queue, start, end, [&] {
        if (queue == first)
          return writeArgs(event, index);
        json.attribute("event", index);
        json.attribute("transfer",
                       "details on DMA queue " + std::to_string(first));
      });
    }
    writeSlice("fixed latency", kFirstLatencyTid + latencyTrackOf[index], end,
               toNs(event.finish), [&] { json.attribute("event", index); });
  }
  writeFlows(core, latencyTrackOf);
  writeCounters(core);
}

void walrus::writeTimelineTrace(ArrayRef<KernelTimeline> kernels,
                                llvm::raw_ostream &os) {
  llvm::json::OStream json(os);
  TraceWriter writer(json);
  json.object([&] {
    json.attributeArray("traceEvents", [&] {
      for (auto [index, kernel] : llvm::enumerate(kernels))
        for (const CoreTimeline &core : kernel.cores)
          writer.writeCore(core, int64_t(index));
    });
    json.attribute("displayTimeUnit", "ns");
  });
  os << "\n";
}
