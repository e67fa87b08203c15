//===- MiniMalloc.h - Static allocation problems in MiniMalloc CSV -*- C++
//-*-===//
//
// The interchange format of the public static-allocation benchmarks
// (MiniMalloc, ASPLOS 2023): one buffer per row, `id,lower,upper,size`, live
// over [lower, upper), `size` bytes in every one of the 128 partitions.
// Importing builds a BIR function whose SBUF tensors have exactly those
// live ranges; exporting reads the -sb-alloc result back as
// `id,lower,upper,size,offset`.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_TARGET_MINIMALLOC_H
#define WALRUS_TARGET_MINIMALLOC_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace walrus {

/// The imported function's tables, in row order: the buffer ids (the names
/// of their tensors) and each buffer's `lower, upper` pair.
inline constexpr llvm::StringLiteral kMiniMallocIdsAttrName = "minimalloc.ids";
inline constexpr llvm::StringLiteral kMiniMallocLifetimesAttrName =
    "minimalloc.lifetimes";

/// Parses the main buffer of `sourceMgr` as MiniMalloc CSV. Emits a
/// diagnostic located at the offending line and returns null on bad input.
/// The module's target has `capacity` bytes per partition of SBUF, or,
/// when it is 0, the sum of all sizes (room for any placement: the
/// instances use capacities far above a real SBUF's).
mlir::OwningOpRef<mlir::ModuleOp>
importMiniMallocCsv(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context,
                    int64_t capacity = 0);

/// Writes the placement of every imported buffer. Fails with a diagnostic
/// on a buffer that has no address or was spilled.
mlir::LogicalResult exportMiniMallocCsv(mlir::ModuleOp module,
                                        llvm::raw_ostream &output);

/// Registers `--import-minimalloc-csv` and `--export-minimalloc-csv` with
/// MLIR's translation registry (walrus-translate).
void registerMiniMallocTranslations();

} // namespace walrus

#endif // WALRUS_TARGET_MINIMALLOC_H
