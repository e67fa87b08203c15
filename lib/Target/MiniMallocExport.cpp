//===- MiniMallocExport.cpp - allocated BIR -> MiniMalloc CSV -------------===//
//
// Reads back the placement -sb-alloc gave each imported buffer, in the
// order of the function's id table. A buffer that was spilled no longer
// exists under its own name (its pieces are renamed copies), so it cannot
// be reported as placed: that is an error, as is a buffer without an
// address. When a buffer spans fewer than all
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

namespace {
struct Row {
  StringRef id;
  int64_t lower, upper, size, offset, partitions, basePartition;
};
} // namespace

/// Appends the rows of one imported function; false after an error.
static bool readRows(FuncOp func, ArrayAttr ids, DenseI64ArrayAttr lifetimes,
                     SmallVectorImpl<Row> &rows) {
  // Errors go to a location, not to an op: walrus-translate would print
  // the op (here the whole module) after them.
  if (lifetimes.size() != 2 * int64_t(ids.size()) ||
      !llvm::all_of(ids, llvm::IsaPred<StringAttr>)) {
    emitError(func.getLoc())
        << "'" << kMiniMallocIdsAttrName << "' must list string ids and '"
        << kMiniMallocLifetimesAttrName << "' two integers per id";
    return false;
  }
  llvm::DenseMap<StringAttr, MemlocOp> byName;
  for (auto memloc : func.getOps<MemlocOp>())
    byName[memloc.getNameAttr()] = memloc;
  // The rows must read back as the import takes them: unique ids, ids
  // without the CSV's separators, lifetimes 0 <= lower < upper.
  llvm::DenseSet<StringAttr> seen;
  for (auto [index, attr] : llvm::enumerate(ids)) {
    auto id = cast<StringAttr>(attr);
    int64_t lower = lifetimes[2 * index], upper = lifetimes[2 * index + 1];
    if (!seen.insert(id).second) {
      emitError(func.getLoc())
          << "'" << kMiniMallocIdsAttrName << "' lists buffer '"
          << id.getValue() << "' twice";
      return false;
    }
    if (id.getValue().empty() ||
        id.getValue().find_first_of(",\r\n") != StringRef::npos) {
      emitError(func.getLoc())
          << "buffer id '" << id.getValue()
          << "' is empty or holds a comma or line break: no CSV row can "
             "carry it";
      return false;
    }
    if (lower < 0 || lower >= upper) {
      emitError(func.getLoc())
          << "buffer '" << id.getValue() << "' has lifetime [" << lower << ", "
          << upper << ") in '" << kMiniMallocLifetimesAttrName
          << "': need 0 <= lower < upper";
      return false;
    }
    MemlocOp memloc = byName.lookup(id);
    if (!memloc) {
      // A spilled buffer's pieces are renamed copies, beside its DRAM home.
      MemlocOp home = byName.lookup(
          StringAttr::get(func.getContext(), id.getValue() + "_home"));
      if (home && home->hasAttr(BIRDialect::kSpillHomeAttrName))
        emitError(home.getLoc())
            << "buffer '" << id.getValue() << "' was spilled (to '"
            << home.getName() << "'): it has no single offset";
      else
        emitError(func.getLoc())
            << "buffer '" << id.getValue() << "' has no tensor of that name";
      return false;
    }
    std::optional<uint64_t> address = memloc.getAddress();
    if (!address) {
      emitError(memloc.getLoc()) << "buffer '" << id.getValue()
                                 << "' has no address: run -sb-alloc first";
      return false;
    }
    MemoryType type = memloc.getMemoryType();
    rows.push_back({id.getValue(), lower, upper, type.getFreeSize(),
                    int64_t(*address), type.getPartitions(),
                    int64_t(memloc.getBasePartition().value_or(0))});
  }
  return true;
}

LogicalResult walrus::exportMiniMallocCsv(ModuleOp module,
                                          llvm::raw_ostream &output) {
  SmallVector<Row> rows;
  WalkResult walk = module.walk([&](FuncOp func) {
    auto ids = func->getAttrOfType<ArrayAttr>(kMiniMallocIdsAttrName);
    auto lifetimes =
        func->getAttrOfType<DenseI64ArrayAttr>(kMiniMallocLifetimesAttrName);
    if (!ids && !lifetimes)
      return WalkResult::advance();
    if (!ids || !lifetimes) {
      emitError(func.getLoc())
          << "'" << kMiniMallocIdsAttrName << "' and '"
          << kMiniMallocLifetimesAttrName << "' come together";
      return WalkResult::interrupt();
    }
    return readRows(func, ids, lifetimes, rows) ? WalkResult::advance()
                                                : WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  if (rows.empty())
    return emitError(module.getLoc())
           << "no MiniMalloc buffers: the input was not made by "
              "--import-minimalloc-csv";
  int64_t targetPartitions = getTarget(module).getSbufPartitions();
  bool banded = llvm::any_of(
      rows, [&](const Row &row) { return row.partitions != targetPartitions; });
  output << "id,lower,upper,size,offset"
         << (banded ? ",partitions,base_partition" : "") << '\n';
  for (const Row &row : rows) {
    output << row.id << ',' << row.lower << ',' << row.upper << ',' << row.size
           << ',' << row.offset;
    if (banded)
      output << ',' << row.partitions << ',' << row.basePartition;
    output << '\n';
  }
  return success();
}
