//===- walrus-fuzz-capi.cpp - libFuzzer target over the C API -------------===//
//
// What a C embedder does with a module it was handed: parse it, walk its
// kernels' functions for their allocation and timeline, run the Walrus
// pipeline through a parsed pass pipeline, and walk them again. Only the C
// API is called (the nesting check aside, which the tools make before
// MLIR's parser, whose recursion is MLIR's). Any input may be refused with
// a diagnostic; nothing may crash.
//
//===----------------------------------------------------------------------===//

#include "Walrus-c/Walrus.h"
#include "Walrus/Dialect/BIR/IR/SourceLimits.h"

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <string>

/// One context for every input, with the dialects and passes a host
/// compiler registers; diagnostics are expected and dropped.
static MlirContext getContext() {
  static MlirContext context = [] {
    MlirDialectRegistry registry = mlirDialectRegistryCreate();
    mlirDialectHandleInsertDialect(mlirGetDialectHandle__bir__(), registry);
    walrusRegisterHostDialects(registry);
    MlirContext created = mlirContextCreateWithRegistry(registry, false);
    mlirDialectRegistryDestroy(registry);
    walrusRegisterPasses();
    walrusRegisterPipelines();
    mlirContextAttachDiagnosticHandler(
        created,
        [](MlirDiagnostic, void *) { return mlirLogicalResultSuccess(); },
        nullptr, nullptr);
    return created;
  }();
  return context;
}

/// Asks for each function's allocation, and for the timeline of the first
/// function at cores in and out of range (one call estimates the whole
/// kernel: every function's would cost the cores squared).
static void inspect(MlirOperation func, void *userData) {
  WalrusAllocation allocation = walrusAllocationGet(func);
  if (!walrusAllocationIsNull(allocation)) {
    for (intptr_t i = 0; i < walrusAllocationGetNumTensors(allocation); ++i)
      (void)walrusAllocationGetTensor(allocation, i);
    walrusAllocationDestroy(allocation);
  }
  bool &first = *static_cast<bool *>(userData);
  if (!first)
    return;
  first = false;
  for (int64_t core : {int64_t(0), int64_t(-1), int64_t(1) << 40})
    (void)walrusTimelineGet(func, core);
}

/// Every kernel's timelines, each kernel estimated once.
static void walkTimelines(MlirOperation op) {
  (void)walrusWalkTimelines(
      op, [](MlirOperation, WalrusCoreTimeline, void *) {}, nullptr);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MlirContext context = getContext();
  std::string text(reinterpret_cast<const char *>(data), size);
  if (walrus::findTooDeepBracket(text))
    return 0;
  MlirModule module = mlirModuleCreateParse(
      context, mlirStringRefCreate(text.data(), text.size()));
  if (mlirModuleIsNull(module))
    return 0;
  MlirOperation op = mlirModuleGetOperation(module);
  bool first = true;
  (void)walrusWalkKernelFunctions(op, inspect, &first);
  walkTimelines(op);
  MlirPassManager pm = mlirPassManagerCreate(context);
  if (mlirLogicalResultIsSuccess(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString("builtin.module(walrus-pipeline)"),
          [](MlirStringRef, void *) {}, nullptr)) &&
      mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op))) {
    first = true;
    (void)walrusWalkKernelFunctions(op, inspect, &first);
    walkTimelines(op);
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return 0;
}
