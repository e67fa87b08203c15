//===- PrintBirTimeline.cpp - The -print-bir-timeline pass ----------------===//
//
// Estimates how long each kernel would take on the engine timing model
// (Walrus/Analysis/Timeline.h): a remark per core and per kernel, a JSON
// report and a Chrome trace on request. The IR is left unchanged.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Timeline.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace walrus {
#define GEN_PASS_DEF_PRINTBIRTIMELINE
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
using Kernel = TimedKernel;

struct PrintBirTimelinePass
    : walrus::impl::PrintBirTimelineBase<PrintBirTimelinePass> {
  using PrintBirTimelineBase::PrintBirTimelineBase;
  void runOnOperation() override;

private:
  TimingModel getModel(TargetAttr target);
  void remark(const Kernel &kernel, const KernelTimeline &timeline);
  LogicalResult writeFile(StringRef path, const llvm::json::Value &value);
};
} // namespace

TimingModel PrintBirTimelinePass::getModel(TargetAttr target) {
  TimingModel model = TimingModel::forTarget(target);
  auto override = [](double &field, double option) {
    if (option > 0)
      field = option;
  };
  override(model.peGhz, peGhz);
  override(model.actGhz, actGhz);
  override(model.dveGhz, dveGhz);
  override(model.poolGhz, poolGhz);
  override(model.dmaBytesPerNsPerEngine, dmaBytesPerNs);
  override(model.dmaFixedNs, dmaFixedNs);
  override(model.dmaPacketBytes, dmaPacketBytes);
  override(model.instructionOverheadCycles, overheadCycles);
  override(model.matmulMinCycles, matmulMinCycles);
  override(model.fp32Factor, fp32Factor);
  override(model.stationaryLoadSpeedup, stationaryLoadSpeedup);
  override(model.dmaPartitionsPerEngine, dmaPartitionsPerEngine);
  override(model.peBf16FlopsPerNs, peBf16Tflops * 1000);
  override(model.peFp32FlopsPerNs, peFp32Tflops * 1000);
  if (dmaEngines > 0)
    model.dmaEngines = dmaEngines;
  return model;
}

/// Microseconds, for people.
static std::string us(double ns) {
  return llvm::formatv("{0:f3} us", ns / 1000).str();
}

void PrintBirTimelinePass::remark(const Kernel &kernel,
                                  const KernelTimeline &timeline) {
  const CoreTimeline *slowest = nullptr;
  for (const CoreTimeline &core : timeline.cores) {
    if (!slowest || core.finish > slowest->finish)
      slowest = &core;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "print-bir-timeline: @" << core.module << " (core " << core.core
       << "): " << us(core.finish) << ", " << core.instructions
       << " instruction(s);";
    for (unsigned engine = 0; engine < kNumEngines; ++engine)
      os << " " << getEngineName(Engine(engine)) << " " << us(core.busy[engine])
         << " ("
         << llvm::formatv("{0:f0}", core.finish > 0
                                        ? 100 * core.busy[engine] / core.finish
                                        : 0.0)
         << "%)";
    os << "; bound by "
       << (core.instructions ? getEngineName(core.bound) : "nothing (idle)")
       << "; critical path " << core.criticalInstructions << " instruction(s):";
    for (unsigned engine = 0; engine < kNumEngines; ++engine)
      if (core.critical[engine] > 0)
        os << " " << getEngineName(Engine(engine)) << " "
           << us(core.critical[engine]);
    os << "; DMA " << llvm::formatv("{0:f0}", core.dmaBytes) << " B at "
       << llvm::formatv("{0:f1}",
                        core.finish > 0 ? core.dmaBytes / core.finish : 0.0)
       << " GB/s; " << llvm::formatv("{0:f0}", core.flops) << " FLOP; roofline "
       << us(core.rooflineNs) << " (estimate "
       << llvm::formatv("{0:f2}", core.rooflineNs > 0
                                      ? core.finish / core.rooflineNs
                                      : 0.0)
       << "x); waits " << us(core.barrierWait) << " at barriers";
    emitRemark(kernel[core.core < int64_t(kernel.size()) ? core.core : 0]
                   .second->getParentOp()
                   ->getLoc())
        << text;
  }
  if (slowest)
    emitRemark(kernel.front().second->getParentOp()->getLoc())
        << "print-bir-timeline: kernel of " << timeline.cores.size()
        << " core(s): " << us(slowest->finish) << ", slowest core "
        << slowest->core;
}

LogicalResult PrintBirTimelinePass::writeFile(StringRef path,
                                              const llvm::json::Value &value) {
  std::error_code code;
  llvm::raw_fd_ostream os(path, code, llvm::sys::fs::OF_Text);
  if (code)
    return getOperation()->emitError() << "print-bir-timeline: cannot write '"
                                       << path << "': " << code.message();
  os << llvm::formatv("{0:2}", value) << "\n";
  return success();
}

/// One core's summary for the report file.
static llvm::json::Object toJson(const CoreTimeline &core) {
  llvm::json::Object busy, critical;
  for (unsigned engine = 0; engine < kNumEngines; ++engine) {
    busy[getEngineName(Engine(engine))] = core.busy[engine];
    critical[getEngineName(Engine(engine))] = core.critical[engine];
  }
  return llvm::json::Object{
      {"module", core.module},
      {"core", core.core},
      {"finish_ns", core.finish},
      {"instructions", core.instructions},
      {"busy_ns", std::move(busy)},
      {"bound", core.instructions ? llvm::json::Value(getEngineName(core.bound))
                                  : llvm::json::Value(nullptr)},
      {"dma_bytes", core.dmaBytes},
      {"flops", core.flops},
      {"roofline_ns", core.rooflineNs},
      {"barrier_wait_ns", core.barrierWait},
      {"critical_path_ns", std::move(critical)},
      {"critical_path_instructions", core.criticalInstructions}};
}

/// Chrome trace events (microseconds): a process per core, a thread per
/// engine and per DMA engine.
static void appendTrace(const CoreTimeline &core, int64_t kernelIndex,
                        llvm::json::Array &events) {
  int64_t pid = kernelIndex * 1000 + core.core;
  events.push_back(llvm::json::Object{
      {"name", "process_name"},
      {"ph", "M"},
      {"pid", pid},
      {"args", llvm::json::Object{{"name", core.module + " core " +
                                               std::to_string(core.core)}}}});
  for (unsigned track = 0; track < kNumEngines - 1 + 16; ++track) {
    std::string name = track < kNumEngines - 1
                           ? getEngineName(Engine(track)).str()
                           : "DMA " + std::to_string(track - (kNumEngines - 1));
    events.push_back(
        llvm::json::Object{{"name", "thread_name"},
                           {"ph", "M"},
                           {"pid", pid},
                           {"tid", track},
                           {"args", llvm::json::Object{{"name", name}}}});
  }
  for (const TimelineEvent &event : core.events) {
    unsigned tid = event.engine == Engine::DMA ? kNumEngines - 1 + event.queue
                                               : unsigned(event.engine);
    std::string location;
    llvm::raw_string_ostream os(location);
    event.op->getLoc().print(os);
    events.push_back(
        llvm::json::Object{{"name", event.op->getName().getStringRef()},
                           {"ph", "X"},
                           {"pid", pid},
                           {"tid", tid},
                           {"ts", event.start / 1000},
                           {"dur", (event.finish - event.start) / 1000},
                           {"args", llvm::json::Object{{"loc", location}}}});
  }
}

void PrintBirTimelinePass::runOnOperation() {
  if (maxInstructions < 1)
    return emitError(getOperation()->getLoc(),
                     "print-bir-timeline: max-instructions must be positive"),
           signalPassFailure();
  if (dmaEngines > 1024)
    return emitError(getOperation()->getLoc(),
                     "print-bir-timeline: dma-engines must be at most 1024"),
           signalPassFailure();
  FailureOr<SmallVector<Kernel>> kernels = findTimedKernels(getOperation());
  if (failed(kernels))
    return signalPassFailure();
  llvm::json::Array reports, events;
  int64_t budget = maxInstructions;
  for (auto [index, kernel] : llvm::enumerate(*kernels)) {
    TimingModel model =
        getModel(getTarget(kernel.front().second->getParentOp()));
    FailureOr<KernelTimeline> timeline =
        computeTimeline(kernel, model, budget, !traceFile.empty());
    if (failed(timeline))
      return signalPassFailure();
    remark(kernel, *timeline);
    llvm::json::Array cores;
    for (const CoreTimeline &core : timeline->cores) {
      budget -= core.instructions;
      cores.push_back(toJson(core));
      appendTrace(core, index, events);
    }
    reports.push_back(llvm::json::Object{{"finish_ns", timeline->finish()},
                                         {"cores", std::move(cores)}});
  }
  if (!reportFile.empty() &&
      failed(writeFile(reportFile,
                       llvm::json::Object{{"kernels", std::move(reports)}})))
    return signalPassFailure();
  if (!traceFile.empty() &&
      failed(writeFile(traceFile,
                       llvm::json::Object{{"traceEvents", std::move(events)},
                                          {"displayTimeUnit", "ns"}})))
    return signalPassFailure();
  markAllAnalysesPreserved();
}
