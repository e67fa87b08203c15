//===- PrintBirTimeline.cpp - The -print-bir-timeline pass ----------------===//
//
// Estimates how long each kernel would take on the engine timing model
// (Walrus/Analysis/Timeline.h): a remark per core and per kernel, a JSON
// report and a Chrome trace on request. The IR is left unchanged.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Timeline.h"
#include "Walrus/Analysis/TimelineTrace.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Support/FileOutput.h"
#include "Walrus/Support/ListedOptions.h"
#include "Walrus/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

namespace walrus {
#define GEN_PASS_DEF_PRINTBIRTIMELINE
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
using Kernel = TimedKernel;

/// A number of the model an option may set: 0 leaves the target's, any
/// other value must lie in [min, max] (finite and positive, so that every
/// time the model computes from it stays finite).
struct ModelNumber {
  const Pass::Option<double> &option;
  double TimingModel::*field;
  double scale, min, max;
};

struct PrintBirTimelinePass
    : ListedOptions<walrus::impl::PrintBirTimelineBase<PrintBirTimelinePass>> {
  using ListedOptions::ListedOptions;
  void runOnOperation() override;

private:
  LogicalResult checkOptions();
  SmallVector<ModelNumber> getModelNumbers();
  TimingModel getModel(TargetAttr target);
  void remark(const Kernel &kernel, const KernelTimeline &timeline);
  LogicalResult writeFile(StringRef path,
                          llvm::function_ref<void(llvm::raw_ostream &)> write);
};

} // namespace

/// The model numbers the options set, each with its valid range.
SmallVector<ModelNumber> PrintBirTimelinePass::getModelNumbers() {
  using M = TimingModel;
  return {
      {peGhz, &M::peGhz, 1, 1e-3, 1e3},
      {actGhz, &M::actGhz, 1, 1e-3, 1e3},
      {dveGhz, &M::dveGhz, 1, 1e-3, 1e3},
      {poolGhz, &M::poolGhz, 1, 1e-3, 1e3},
      {dmaBytesPerNs, &M::dmaBytesPerNsPerEngine, 1, 1e-3, 1e6},
      {dmaFixedNs, &M::dmaFixedNs, 1, 1e-6, 1e9},
      {dmaPacketBytes, &M::dmaPacketBytes, 1, 1e-6, 1e9},
      {overheadCycles, &M::instructionOverheadCycles, 1, 1e-6, 1e9},
      {twoInputCycles, &M::twoInputCycles, 1, 1e-6, 1e9},
      {divideCycles, &M::divideCycles, 1, 1e-6, 1e9},
      {matmulMinCycles, &M::matmulMinCycles, 1, 1e-6, 1e9},
      {fp32Factor, &M::fp32Factor, 1, 1e-3, 1e3},
      {stationaryLoadSpeedup, &M::stationaryLoadSpeedup, 1, 1e-3, 1e6},
      {dmaPartitionsPerEngine, &M::dmaPartitionsPerEngine, 1, 1e-3, 1e6},
      {peBf16Tflops, &M::peBf16FlopsPerNs, 1000, 1e-3, 1e6},
      {peFp32Tflops, &M::peFp32FlopsPerNs, 1000, 1e-3, 1e6},
  };
}

/// `value` as people write it (0.001, 1e+09, -1, nan).
static std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

LogicalResult PrintBirTimelinePass::checkOptions() {
  auto fail = [&](const Twine &message) {
    return emitError(getOperation()->getLoc(), "print-bir-timeline: ")
           << message;
  };
  if (maxInstructions < 1)
    return fail("max-instructions must be positive, not " +
                Twine(int64_t(maxInstructions)));
  if (dmaEngines > kMaxDmaEngines)
    return fail("dma-engines must be 0 (the target's) or in [1, " +
                Twine(kMaxDmaEngines) + "], not " +
                Twine(unsigned(dmaEngines)));
  for (const ModelNumber &number : getModelNumbers()) {
    double value = number.option;
    if (value == 0 || (value >= number.min && value <= number.max))
      continue;
    return fail(number.option.getArgStr() +
                " must be 0 (the target's) or in [" + formatNumber(number.min) +
                ", " + formatNumber(number.max) + "], not " +
                formatNumber(value));
  }
  return success();
}

TimingModel PrintBirTimelinePass::getModel(TargetAttr target) {
  TimingModel model = TimingModel::forTarget(target);
  for (const ModelNumber &number : getModelNumbers())
    if (double value = number.option; value != 0)
      model.*number.field = value * number.scale;
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
    if (core.criticalDmaLatency > 0)
      os << " DMA latency " << us(core.criticalDmaLatency);
    os << "; DMA " << llvm::formatv("{0:f0}", core.dmaBytes) << " B at "
       << llvm::formatv("{0:f1}",
                        core.finish > 0 ? core.dmaBytes / core.finish : 0.0)
       << " GB/s; " << llvm::formatv("{0:f0}", core.flops) << " FLOP; roofline "
       << us(core.rooflineNs);
    if (core.rooflineLimit != RooflineLimit::None)
      os << " at " << getRooflineLimitName(core.rooflineLimit);
    os << " (estimate "
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

LogicalResult PrintBirTimelinePass::writeFile(
    StringRef path, llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::string error;
  if (succeeded(walrus::writeFile(path, llvm::sys::fs::OF_Text, write, error)))
    return success();
  return getOperation()->emitError() << "print-bir-timeline: " << error;
}

/// Whether every number of `core` is finite: JSON has no infinity or NaN.
static bool isFinite(const CoreTimeline &core) {
  auto finite = [](double value) { return std::isfinite(value); };
  return llvm::all_of(core.busy, finite) &&
         llvm::all_of(core.critical, finite) &&
         llvm::all_of(ArrayRef<double>{core.finish, core.barrierWait,
                                       core.dmaBytes, core.flops, core.peFlops,
                                       core.peFp32Flops, core.rooflineNs,
                                       core.criticalDmaLatency},
                      finite) &&
         llvm::all_of(core.events, [&](const TimelineEvent &event) {
           return finite(event.start) && finite(event.finish);
         });
}

/// One core's summary for the report file.
static llvm::json::Object toJson(const CoreTimeline &core) {
  llvm::json::Object busy, critical;
  for (unsigned engine = 0; engine < kNumEngines; ++engine) {
    busy[getEngineName(Engine(engine))] = core.busy[engine];
    critical[getEngineName(Engine(engine))] = core.critical[engine];
  }
  critical["DMA latency"] = core.criticalDmaLatency;
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
      {"roofline_limit", getRooflineLimitName(core.rooflineLimit)},
      {"pe_fp32_flops", core.peFp32Flops},
      {"barrier_wait_ns", core.barrierWait},
      {"critical_path_ns", std::move(critical)},
      {"critical_path_instructions", core.criticalInstructions}};
}

void PrintBirTimelinePass::runOnOperation() {
  if (failed(checkOptions()))
    return signalPassFailure();
  FailureOr<SmallVector<Kernel>> kernels = findTimedKernels(getOperation());
  if (failed(kernels))
    return signalPassFailure();
  llvm::json::Array reports;
  std::vector<KernelTimeline> timelines;
  int64_t budget = maxInstructions;
  for (const Kernel &kernel : *kernels) {
    TimingModel model =
        getModel(getTarget(kernel.front().second->getParentOp()));
    TimelineLimits limits;
    limits.maxInstructions = budget;
    FailureOr<KernelTimeline> timeline =
        computeTimeline(kernel, model, limits, !traceFile.empty());
    if (failed(timeline))
      return signalPassFailure();
    if (!llvm::all_of(timeline->cores, isFinite)) {
      emitError(kernel.front().second->getParentOp()->getLoc(),
                "print-bir-timeline: the estimate is not a finite number");
      return signalPassFailure();
    }
    if (!traceFile.empty() && timeline->finish() > kMaxTraceNs) {
      emitError(kernel.front().second->getParentOp()->getLoc(),
                "print-bir-timeline: the trace would end past 2^52 ns, "
                "more than its times hold to the nanosecond");
      return signalPassFailure();
    }
    remark(kernel, *timeline);
    llvm::json::Array cores;
    for (const CoreTimeline &core : timeline->cores) {
      budget -= core.instructions;
      cores.push_back(toJson(core));
    }
    reports.push_back(llvm::json::Object{{"finish_ns", timeline->finish()},
                                         {"cores", std::move(cores)}});
    if (!traceFile.empty())
      timelines.push_back(std::move(*timeline));
  }
  auto writeReport = [&](llvm::raw_ostream &os) {
    os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                     {"kernels", std::move(reports)}}))
       << "\n";
  };
  if (!reportFile.empty() && failed(writeFile(reportFile, writeReport)))
    return signalPassFailure();
  auto writeTraceFile = [&](llvm::raw_ostream &os) {
    writeTimelineTrace(timelines, os);
  };
  if (!traceFile.empty() && failed(writeFile(traceFile, writeTraceFile)))
    return signalPassFailure();
  markAllAnalysesPreserved();
}
