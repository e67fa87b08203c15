//===- MiniMallocExport.cpp - allocated BIR -> MiniMalloc CSV -------------===//
//
// Reads back the placement -sb-alloc gave each imported buffer. A buffer
// that was spilled no longer exists under its own name (its pieces are
// renamed copies), so it cannot be reported as placed: that is an error,
// as is a buffer without an address. When a buffer spans fewer than all
// partitions (the import's `partitions` column), every row also gets its
// partitions and base partition.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Target/MiniMalloc.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

LogicalResult walrus::exportMiniMallocCsv(ModuleOp module,
                                          llvm::raw_ostream &output) {
  struct Row {
    StringRef id;
    int64_t lower, upper, size, offset, partitions, basePartition;
  };
  SmallVector<Row> rows;
  bool banded = false;
  int64_t targetPartitions = getTarget(module).getSbufPartitions();
  // Errors go to a location, not to an op: walrus-translate would print
  // the op (here the whole module) after them.
  WalkResult walk = module.walk([&](MemlocOp memloc) {
    auto id = memloc->getAttrOfType<StringAttr>("minimalloc.id");
    auto lower = memloc->getAttrOfType<IntegerAttr>("minimalloc.lower");
    auto upper = memloc->getAttrOfType<IntegerAttr>("minimalloc.upper");
    if (!id || !lower || !upper)
      return WalkResult::advance();
    if (memloc.getName() != id.getValue()) {
      emitError(memloc.getLoc()) << "buffer '" << id.getValue()
                         << "' was spilled ('" << memloc.getName()
                         << "' is one of its pieces): it has no single offset";
      return WalkResult::interrupt();
    }
    std::optional<uint64_t> address = memloc.getAddress();
    if (!address) {
      emitError(memloc.getLoc()) << "buffer '" << id.getValue()
                         << "' has no address: run -sb-alloc first";
      return WalkResult::interrupt();
    }
    MemoryType type = memloc.getMemoryType();
    rows.push_back({id.getValue(), lower.getInt(), upper.getInt(),
                    type.getFreeSize(), int64_t(*address),
                    type.getPartitions(),
                    int64_t(memloc.getBasePartition().value_or(0))});
    banded |= type.getPartitions() != targetPartitions;
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (rows.empty())
    return emitError(module.getLoc())
           << "no MiniMalloc buffers: the input was not made by "
              "--import-minimalloc-csv";
  output << "id,lower,upper,size,offset"
         << (banded ? ",partitions,base_partition" : "") << '\n';
  for (const Row &row : rows) {
    output << row.id << ',' << row.lower << ',' << row.upper << ','
           << row.size << ',' << row.offset;
    if (banded)
      output << ',' << row.partitions << ',' << row.basePartition;
    output << '\n';
  }
  return success();
}
