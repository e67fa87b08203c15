/*===- Walrus.h - C API of Walrus ---------------------------------*- C -*-===*\
|*                                                                            *|
|* In MLIR's C API style: the bir dialect handle, pass and pipeline           *|
|* registration, the host dialects, constructors and accessors for the core   *|
|* types and attributes, and allocation results. libWalrusCAPI.so exports     *|
|* only these; MLIR's own C API (IR, passes, the host dialects' handles)      *|
|* comes from libWalrusMLIRCAPI.so, built from the static archives Debian     *|
|* ships. Link both (CMake: Walrus::WalrusCAPI Walrus::WalrusMLIRCAPI).      *|
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

/// Registers the upstream dialects of a host module (func, arith, math, scf,
/// memref, tensor, linalg, bufferization) with the external models
/// one-shot bufferization and tiling need, as walrus-opt does. Their
/// dialect handles (mlirGetDialectHandle__func__() ...) are in
/// libWalrusMLIRCAPI.so.
MLIR_CAPI_EXPORTED void
walrusRegisterHostDialects(MlirDialectRegistry registry);

/// Calls `callback` on every bir.func of the kernels at or under `op`,
/// wherever they sit (docs/Rationale.md, "Where kernels are"), in program
/// order. Fails, with the error emitted on the context, when a kernel
/// module sits where no pass can handle it.
MLIR_CAPI_EXPORTED MlirLogicalResult walrusWalkKernelFunctions(
    MlirOperation op, void (*callback)(MlirOperation func, void *userData),
    void *userData);

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
MLIR_CAPI_EXPORTED MlirAttribute walrusAccessPatternGet(MlirContext context,
                                                        int64_t offset,
                                                        intptr_t rank,
                                                        const int64_t *steps,
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

/*===-- Allocation results ------------------------------------------------===*/

/// The SBUF allocation of one function (C++: walrus::getAllocation).
typedef struct WalrusAllocation {
  void *ptr;
} WalrusAllocation;

/// One SBUF tensor's rectangle over its live range.
typedef struct WalrusTensorPlacement {
  MlirStringRef tensor; ///< valid while the allocation lives
  int64_t partitions;
  int64_t bytes;         ///< per partition
  int64_t basePartition; ///< -1 when not placed
  int64_t address;       ///< -1 when not placed
  int64_t start, end;    ///< program points; -1 when never accessed
} WalrusTensorPlacement;

/// The allocation `func` (a bir.func) carries; null for another op.
MLIR_CAPI_EXPORTED WalrusAllocation walrusAllocationGet(MlirOperation func);
MLIR_CAPI_EXPORTED void walrusAllocationDestroy(WalrusAllocation allocation);
static inline bool walrusAllocationIsNull(WalrusAllocation allocation) {
  return !allocation.ptr;
}
/// "@kernel::@nc00::@main".
MLIR_CAPI_EXPORTED MlirStringRef
walrusAllocationGetFunction(WalrusAllocation allocation);
/// The core of a split program; -1 for a symbolic one.
MLIR_CAPI_EXPORTED int64_t walrusAllocationGetCore(WalrusAllocation allocation);
MLIR_CAPI_EXPORTED intptr_t
walrusAllocationGetNumTensors(WalrusAllocation allocation);
MLIR_CAPI_EXPORTED WalrusTensorPlacement
walrusAllocationGetTensor(WalrusAllocation allocation, intptr_t index);
/// Highest byte placed, per partition; -1 while a tensor has no place.
MLIR_CAPI_EXPORTED int64_t walrusAllocationGetPeak(WalrusAllocation allocation);
/// No placement peaks lower (bytes per partition).
MLIR_CAPI_EXPORTED int64_t
walrusAllocationGetLowerBound(WalrusAllocation allocation);
/// Tensors -sb-alloc spilled to DRAM.
MLIR_CAPI_EXPORTED int64_t
walrusAllocationGetSpills(WalrusAllocation allocation);

/*===-- Timeline estimates ------------------------------------------------===*/

/// One core's estimate on the engine timing model (docs/TimingModel.md).
typedef struct WalrusCoreTimeline {
  bool valid; ///< false when the function could not be timed
  int64_t core;
  double finishNs;
  double busyNs[5]; ///< PE, ACT, DVE, Pool, DMA
  int32_t bound;    ///< the busiest engine, an index into busyNs; -1 idle
  double dmaBytes, flops, rooflineNs, barrierWaitNs;
  int64_t instructions; ///< executed
} WalrusCoreTimeline;

/// The estimate for the core that runs `func` (a bir.func): its own core
/// after the split, core `core` of a symbolic program; invalid for another
/// op or a program the model cannot time (its error goes to the context's
/// diagnostic handlers).
MLIR_CAPI_EXPORTED WalrusCoreTimeline walrusTimelineGet(MlirOperation func,
                                                        int64_t core);

/// Calls `callback` with each core's function (a bir.func) and estimate,
/// for every kernel at or under `op`, estimating each kernel once
/// (walrusTimelineGet on every function of a kernel of C cores estimates
/// it C times). Failure when a kernel could not be timed: its error goes to
/// the context's diagnostic handlers and its cores are not called back.
MLIR_CAPI_EXPORTED MlirLogicalResult walrusWalkTimelines(
    MlirOperation op,
    void (*callback)(MlirOperation func, WalrusCoreTimeline timeline,
                     void *userData),
    void *userData);

#ifdef __cplusplus
}
#endif

#endif // WALRUS_C_WALRUS_H
