//===- MiniMallocExport.cpp - allocated BIR -> MiniMalloc CSV -------------===//
//
// Reads back the placement -sb-alloc gave each imported buffer. A buffer
// that was spilled no longer exists under its own name (its pieces are
// renamed copies), so it cannot be reported as placed: that is an error,
// as is a buffer without an address.
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
  std::string rows;
  llvm::raw_string_ostream rowStream(rows);
  bool found = false;
  WalkResult walk = module.walk([&](MemlocOp memloc) {
    auto id = memloc->getAttrOfType<StringAttr>("minimalloc.id");
    auto lower = memloc->getAttrOfType<IntegerAttr>("minimalloc.lower");
    auto upper = memloc->getAttrOfType<IntegerAttr>("minimalloc.upper");
    if (!id || !lower || !upper)
      return WalkResult::advance();
    found = true;
    if (memloc.getName() != id.getValue()) {
      memloc.emitError() << "buffer '" << id.getValue()
                         << "' was spilled ('" << memloc.getName()
                         << "' is one of its pieces): it has no single offset";
      return WalkResult::interrupt();
    }
    std::optional<uint64_t> address = memloc.getAddress();
    if (!address) {
      memloc.emitError() << "buffer '" << id.getValue()
                         << "' has no address: run -sb-alloc first";
      return WalkResult::interrupt();
    }
    rowStream << id.getValue() << ',' << lower.getInt() << ','
              << upper.getInt() << ','
              << memloc.getMemoryType().getFreeSize() << ',' << *address
              << '\n';
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!found)
    return module.emitError()
           << "no MiniMalloc buffers: the input was not made by "
              "--import-minimalloc-csv";
  output << "id,lower,upper,size,offset\n" << rows;
  return success();
}
