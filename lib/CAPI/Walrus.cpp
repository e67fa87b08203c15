//===- Walrus.cpp - C API of Walrus ---------------------------------------===//

#include "Walrus-c/Walrus.h"

#include "Walrus/Analysis/Allocation.h"
#include "Walrus/Analysis/Timeline.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Walrus.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(BIR, bir, BIRDialect)

void walrusRegisterPasses(void) {
  registerWalrusPasses();
  registerWalrusConversionPasses();
}
void walrusRegisterPipelines(void) { registerWalrusPipelines(); }

void walrusRegisterHostDialects(MlirDialectRegistry registry) {
  registerHostDialects(*unwrap(registry));
}

MlirLogicalResult walrusWalkKernelFunctions(
    MlirOperation op, void (*callback)(MlirOperation, void *), void *userData) {
  if (failed(forEachKernelFunc(unwrap(op), [&](FuncOp func) {
        callback(wrap(func.getOperation()), userData);
      })))
    return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}

template <typename TypeT>
static MlirType getMemoryType(MlirContext context, intptr_t rank,
                              const int64_t *shape, MlirType elementType) {
  return wrap(TypeT::get(unwrap(context), ArrayRef<int64_t>(shape, rank),
                         unwrap(elementType)));
}

MlirType walrusSbufTypeGet(MlirContext context, intptr_t rank,
                           const int64_t *shape, MlirType elementType) {
  return getMemoryType<SbufType>(context, rank, shape, elementType);
}
MlirType walrusPsumTypeGet(MlirContext context, intptr_t rank,
                           const int64_t *shape, MlirType elementType) {
  return getMemoryType<PsumType>(context, rank, shape, elementType);
}
MlirType walrusDramTypeGet(MlirContext context, intptr_t rank,
                           const int64_t *shape, MlirType elementType) {
  return getMemoryType<DramType>(context, rank, shape, elementType);
}

bool walrusTypeIsAMemoryType(MlirType type) {
  return isa<MemoryType>(unwrap(type));
}
int64_t walrusMemoryTypeGetPartitions(MlirType type) {
  MemoryType memory = cast<MemoryType>(unwrap(type));
  return memory.isOnChip() ? memory.getPartitions() : 0;
}
int64_t walrusMemoryTypeGetBytesPerPartition(MlirType type) {
  return cast<MemoryType>(unwrap(type)).getBytesPerPartition();
}

MlirAttribute walrusAccessPatternGet(MlirContext context, int64_t offset,
                                     intptr_t rank, const int64_t *steps,
                                     const int64_t *nums) {
  return wrap(PhysicalAccessPatternAttr::get(unwrap(context), offset,
                                             ArrayRef<int64_t>(steps, rank),
                                             ArrayRef<int64_t>(nums, rank)));
}
bool walrusAttributeIsAnAccessPattern(MlirAttribute attr) {
  return isa<AccessPatternAttr>(unwrap(attr));
}
int64_t walrusAccessPatternGetNumElements(MlirAttribute attr) {
  return cast<AccessPatternAttr>(unwrap(attr)).getNumElements();
}

MlirAttribute walrusTargetGetPreset(MlirContext context, MlirStringRef name) {
  return wrap(TargetAttr::getPreset(unwrap(context), unwrap(name)));
}
int64_t walrusTargetGetSbufPartitions(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getSbufPartitions();
}
int64_t walrusTargetGetSbufBytesPerPartition(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getSbufBytesPerPartition();
}

static FunctionAllocation *unwrap(WalrusAllocation allocation) {
  return static_cast<FunctionAllocation *>(allocation.ptr);
}

WalrusAllocation walrusAllocationGet(MlirOperation func) {
  auto birFunc = dyn_cast<FuncOp>(unwrap(func));
  if (!birFunc)
    return {nullptr};
  return {new FunctionAllocation(getAllocation(birFunc))};
}
void walrusAllocationDestroy(WalrusAllocation allocation) {
  delete unwrap(allocation);
}
MlirStringRef walrusAllocationGetFunction(WalrusAllocation allocation) {
  const std::string &name = unwrap(allocation)->function;
  return mlirStringRefCreate(name.data(), name.size());
}
int64_t walrusAllocationGetCore(WalrusAllocation allocation) {
  return unwrap(allocation)->core.value_or(-1);
}
intptr_t walrusAllocationGetNumTensors(WalrusAllocation allocation) {
  return unwrap(allocation)->tensors.size();
}
WalrusTensorPlacement walrusAllocationGetTensor(WalrusAllocation allocation,
                                                intptr_t index) {
  const TensorPlacement &tensor = unwrap(allocation)->tensors[index];
  const std::string &name = tensor.tensors.front();
  return {mlirStringRefCreate(name.data(), name.size()),
          tensor.partitions,
          tensor.bytes,
          tensor.basePartition.value_or(-1),
          tensor.address.value_or(-1),
          tensor.start.value_or(-1),
          tensor.end.value_or(-1)};
}
int64_t walrusAllocationGetPeak(WalrusAllocation allocation) {
  return unwrap(allocation)->peak.value_or(-1);
}
int64_t walrusAllocationGetLowerBound(WalrusAllocation allocation) {
  return unwrap(allocation)->lowerBound;
}
int64_t walrusAllocationGetSpills(WalrusAllocation allocation) {
  return unwrap(allocation)->spills;
}

/// `timeline` for C.
static WalrusCoreTimeline toC(const CoreTimeline &timeline) {
  WalrusCoreTimeline result{};
  result.valid = true;
  result.core = timeline.core;
  result.finishNs = timeline.finish;
  for (unsigned engine = 0; engine < kNumEngines; ++engine)
    result.busyNs[engine] = timeline.busy[engine];
  result.bound = timeline.instructions ? int32_t(timeline.bound) : -1;
  result.dmaBytes = timeline.dmaBytes;
  result.flops = timeline.flops;
  result.rooflineNs = timeline.rooflineNs;
  result.barrierWaitNs = timeline.barrierWait;
  result.instructions = timeline.instructions;
  return result;
}

WalrusCoreTimeline walrusTimelineGet(MlirOperation func, int64_t core) {
  auto birFunc = dyn_cast<FuncOp>(unwrap(func));
  if (!birFunc)
    return WalrusCoreTimeline{};
  FailureOr<CoreTimeline> timeline = getFunctionTimeline(birFunc, core);
  return succeeded(timeline) ? toC(*timeline) : WalrusCoreTimeline{};
}

MlirLogicalResult walrusWalkTimelines(
    MlirOperation op,
    void (*callback)(MlirOperation func, WalrusCoreTimeline timeline,
                     void *userData),
    void *userData) {
  return wrap(walkKernelTimelines(
      unwrap(op), [&](FuncOp func, const CoreTimeline &timeline) {
        callback(wrap(func.getOperation()), toC(timeline), userData);
      }));
}
