//===- Walrus.cpp - C API of Walrus ---------------------------------------===//

#include "Walrus-c/Walrus.h"

#include "Walrus/Walrus.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(BIR, bir, BIRDialect)

void walrusRegisterPasses(void) { registerWalrusPasses(); }
void walrusRegisterPipelines(void) { registerWalrusPipelines(); }

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
  return wrap(PhysicalAccessPatternAttr::get(
      unwrap(context), offset, ArrayRef<int64_t>(steps, rank),
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
