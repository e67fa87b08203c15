/*===- Walrus.h - C API of Walrus ---------------------------------*- C -*-===*\
|*                                                                            *|
|* In MLIR's C API style: the bir dialect handle, pass and pipeline           *|
|* registration, and constructors and accessors for the core types and        *|
|* attributes. Link libWalrusCAPI.so, which also carries MLIR's own IR and    *|
|* Pass C API (Debian ships those only as static archives).                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef WALRUS_C_WALRUS_H
#define WALRUS_C_WALRUS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// mlirGetDialectHandle__bir__(): register or load the bir dialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(BIR, bir);

/// Registers -expand-replication ... -sb-alloc and the helper passes.
MLIR_CAPI_EXPORTED void walrusRegisterPasses(void);
/// Registers -walrus-pipeline.
MLIR_CAPI_EXPORTED void walrusRegisterPipelines(void);

/*===-- Types -------------------------------------------------------------===*/

/// !bir.sbuf / !bir.psum / !bir.dram of `shape` (partition dimension first
/// for on-chip memories) and `elementType`.
MLIR_CAPI_EXPORTED MlirType walrusSbufTypeGet(MlirContext context,
                                              intptr_t rank,
                                              const int64_t *shape,
                                              MlirType elementType);
MLIR_CAPI_EXPORTED MlirType walrusPsumTypeGet(MlirContext context,
                                              intptr_t rank,
                                              const int64_t *shape,
                                              MlirType elementType);
MLIR_CAPI_EXPORTED MlirType walrusDramTypeGet(MlirContext context,
                                              intptr_t rank,
                                              const int64_t *shape,
                                              MlirType elementType);
MLIR_CAPI_EXPORTED bool walrusTypeIsAMemoryType(MlirType type);
/// Partitions (on-chip) and bytes per partition of a memory type.
MLIR_CAPI_EXPORTED int64_t walrusMemoryTypeGetPartitions(MlirType type);
MLIR_CAPI_EXPORTED int64_t walrusMemoryTypeGetBytesPerPartition(MlirType type);

/*===-- Attributes --------------------------------------------------------===*/

/// #bir.ap<offset, [[steps[i], nums[i]], ...]>.
MLIR_CAPI_EXPORTED MlirAttribute walrusAccessPatternGet(
    MlirContext context, int64_t offset, intptr_t rank, const int64_t *steps,
    const int64_t *nums);
MLIR_CAPI_EXPORTED bool walrusAttributeIsAnAccessPattern(MlirAttribute attr);
/// Elements the pattern touches.
MLIR_CAPI_EXPORTED int64_t
walrusAccessPatternGetNumElements(MlirAttribute attr);

/// #bir.target<"trn1" | "trn2" | "trn3">; a null attribute for other names.
MLIR_CAPI_EXPORTED MlirAttribute walrusTargetGetPreset(MlirContext context,
                                                       MlirStringRef name);
MLIR_CAPI_EXPORTED int64_t walrusTargetGetSbufPartitions(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
walrusTargetGetSbufBytesPerPartition(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif // WALRUS_C_WALRUS_H
