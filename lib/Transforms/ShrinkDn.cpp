//===- ShrinkDN.cpp - The -shrink-dn pass ---------------------------------===//
//
// After the reference ShrinkDN and shrinkTensor: collapse the block
// dimension of tensors that need one block per loop iteration, then trim
// every tensor to the rectangle its accesses touch. The reference:
// docs/Reference.md, the VN and shrink page, section 3.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/AccessFootprint.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"

#include "FunctionPass.h"

#include "mlir/IR/Builders.h"

namespace walrus {
#define GEN_PASS_DEF_SHRINKDN
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct ShrinkCounts {
  unsigned shrunk = 0, collapsed = 0;
  int64_t bytesSaved = 0;
};

/// An access of the tensor being shrunk.
struct TensorUse {
  Operation *instruction;
  Access access;
};

struct ShrinkDnPass : FunctionPass<walrus::impl::ShrinkDnBase<ShrinkDnPass>> {
  using FunctionPass::FunctionPass;

  void runOnFunction(FuncOp func) override;

private:
  LogicalResult collapseBlocks(MemlocOp memloc, ArrayRef<TensorUse> uses,
                               ShrinkCounts &counts);
  void trim(MemlocOp memloc, ArrayRef<TensorUse> uses, ShrinkCounts &counts);
  void remark(MemlocOp memloc, const Twine &message) {
    if (explain)
      emitRemark(memloc.getLoc(), "shrink-dn: " + message);
  }
};
} // namespace

/// Why `memloc` keeps its size whatever its accesses, if it does.
static std::optional<std::string> getFixedReason(MemlocOp memloc) {
  MemoryType type = memloc.getMemoryType();
  if (memloc.getKind() != TensorKind::Internal)
    return ("it is a program " + stringifyTensorKind(memloc.getKind())).str();
  if (type.getMemorySpace() == MemorySpace::DRAM)
    return std::string("it is in DRAM");
  if (memloc.getAddress())
    return std::string("it is already placed");
  if (memloc.getSet())
    return std::string("it is in a memory-location set");
  return std::nullopt;
}

/// `pattern` without its block part.
static AccessPatternAttr dropBlock(SymbolicAccessPatternAttr pattern) {
  auto dropped = SymbolicAccessPatternAttr::get(
      pattern.getContext(), pattern.getOffset(), pattern.getSteps(),
      pattern.getNums(), pattern.getTile(), AffineMap());
  AffineMap start = dropped.getStartMap();
  AffineExpr folded = simplifyAffineExpr(start.getResult(0), start.getNumDims(),
                                         start.getNumSymbols());
  if (auto constant = dyn_cast<AffineConstantExpr>(folded))
    return PhysicalAccessPatternAttr::get(
        pattern.getContext(), constant.getValue(), pattern.getSteps(),
        pattern.getNums());
  return dropped;
}

/// The blocks of `memloc` (P x B x ...) its accesses keep live, when its
/// block dimension can collapse to them: every access selects its block
/// with the same map inside one loop, and the value stays in an iteration
/// (the first access writes, unmasked, everything the accesses read).
/// `withoutBlocks` gets each access's pattern without its block map.
static std::optional<int64_t>
getLiveBlocks(MemlocOp memloc, ArrayRef<TensorUse> uses,
              SmallVectorImpl<AccessPatternAttr> &withoutBlocks) {
  MemoryType type = memloc.getMemoryType();
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.size() < 3 || shape[1] < 2 || uses.empty())
    return std::nullopt;
  AffineMap blockMap;
  for (const TensorUse &use : uses) {
    auto symbolic =
        dyn_cast<SymbolicAccessPatternAttr>(use.access.getPattern());
    if (!symbolic || !symbolic.getBlock() ||
        (blockMap && symbolic.getBlock() != blockMap))
      return std::nullopt;
    blockMap = symbolic.getBlock();
    withoutBlocks.push_back(dropBlock(symbolic));
  }
  SmallVector<LoopOp, 4> loops = getEnclosingLoops(uses.front().instruction);
  for (const TensorUse &use : uses)
    if (getEnclosingLoops(use.instruction).size() < 1 ||
        getEnclosingLoops(use.instruction).front() != loops.front())
      return std::nullopt;
  const TensorUse &first = uses.front();
  if (first.access.kind != AccessKind::Write ||
      cast<InstructionOpInterface>(first.instruction).getMaskAttr())
    return std::nullopt;
  int64_t blockElements = type.getFreeSize() / shape[1];
  AccessFootprint written =
      getAccessFootprint(first.instruction, withoutBlocks.front(), type);
  int64_t lastColumn = 0;
  for (auto [use, pattern] : llvm::zip(uses, withoutBlocks)) {
    AccessFootprint footprint =
        getAccessFootprint(use.instruction, pattern, type);
    if (footprint.issue != FootprintIssue::None ||
        written.issue != FootprintIssue::None)
      return std::nullopt;
    const TensorBox &box = footprint.box, &covered = written.box;
    if (use.access.reads() && (box.firstPartition < covered.firstPartition ||
                               box.lastPartition > covered.lastPartition ||
                               box.firstColumn < covered.firstColumn ||
                               box.lastColumn > covered.lastColumn))
      return std::nullopt;
    lastColumn = std::max(lastColumn, box.lastColumn);
  }
  return lastColumn / blockElements + 1;
}

LogicalResult ShrinkDnPass::collapseBlocks(MemlocOp memloc,
                                           ArrayRef<TensorUse> uses,
                                           ShrinkCounts &counts) {
  MemoryType type = memloc.getMemoryType();
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<AccessPatternAttr> withoutBlocks;
  std::optional<int64_t> live = getLiveBlocks(memloc, uses, withoutBlocks);
  if (!live)
    return success();
  int64_t liveBlocks = *live;
  int64_t blockElements = type.getFreeSize() / shape[1];
  int64_t blocks = shape[1];
  if (liveBlocks >= blocks)
    return success();
  if (blocks % liveBlocks)
    return memloc.emitError()
           << "shrink-dn: number of blocks is not a multiple of shrink "
              "factor: '"
           << memloc.getName() << "' has " << blocks << " blocks and "
           << liveBlocks << " live ones" << onCore(memloc);
  SmallVector<int64_t> newShape(shape);
  newShape[1] = liveBlocks;
  // Rows are now liveBlocks blocks long: re-pack the partition step.
  TensorBox rows{0, type.getPartitions() - 1, 0,
                 liveBlocks * blockElements - 1};
  for (auto [use, pattern] : llvm::zip(uses, withoutBlocks))
    use.access.setPattern(
        rebaseIntoBox(use.instruction, pattern, rows, type.getFreeSize()));
  int64_t saved = type.getBytesPerPartition();
  memloc.getResult().setType(type.cloneWith(newShape));
  saved -= memloc.getMemoryType().getBytesPerPartition();
  Builder builder(&getContext());
  memloc->setAttr(BIRDialect::kShrinkDimAttrName, builder.getI64IntegerAttr(1));
  memloc->setAttr(BIRDialect::kLiveNAttrName,
                  builder.getI64IntegerAttr(liveBlocks));
  remark(memloc, "collapsed the " + Twine(blocks) + " blocks of '" +
                     memloc.getName() + "' to " + Twine(liveBlocks) +
                     " live block(s) (shrink dim 1, factor " +
                     Twine(blocks / liveBlocks) + ")");
  ++counts.collapsed;
  counts.bytesSaved += saved;
  return success();
}

void ShrinkDnPass::trim(MemlocOp memloc, ArrayRef<TensorUse> uses,
                        ShrinkCounts &counts) {
  MemoryType type = memloc.getMemoryType();
  TensorBox window;
  FootprintCache footprints(type);
  for (const TensorUse &use : uses) {
    AccessFootprint footprint =
        footprints.get(use.instruction, use.access.getPattern());
    switch (footprint.issue) {
    case FootprintIssue::None:
      window.unite(footprint.box);
      continue;
    case FootprintIssue::NonContiguousPartitions:
      remark(memloc, "'" + memloc.getName() +
                         "' keeps its size: shifted partition access in '" +
                         use.instruction->getName().getStringRef() + "'");
      return;
    case FootprintIssue::CrossesPartitions:
      remark(memloc, "'" + memloc.getName() +
                         "' keeps its size: non-partition-contiguous access "
                         "in '" +
                         use.instruction->getName().getStringRef() + "'");
      return;
    case FootprintIssue::TooManyIterations:
      remark(memloc, "'" + memloc.getName() +
                         "' keeps its size: too many loop iterations to "
                         "analyze");
      return;
    }
  }
  if (window.empty() || (window.getPartitions() == type.getPartitions() &&
                         window.getColumns() == type.getFreeSize()))
    return;
  int64_t oldBytes = type.getBytesPerPartition();
  for (const TensorUse &use : uses)
    use.access.setPattern(rebaseIntoBox(
        use.instruction, use.access.getPattern(), window, type.getFreeSize()));
  memloc.getResult().setType(
      type.cloneWith({window.getPartitions(), window.getColumns()}));
  int64_t newBytes = memloc.getMemoryType().getBytesPerPartition();
  remark(memloc, "shrank '" + memloc.getName() + "' from " +
                     Twine(type.getPartitions()) + " x " + Twine(oldBytes) +
                     " B to " + Twine(window.getPartitions()) + " x " +
                     Twine(newBytes) + " B (partition step " +
                     Twine(type.getFreeSize()) + " -> " +
                     Twine(window.getColumns()) + ")");
  ++counts.shrunk;
  counts.bytesSaved += oldBytes - newBytes;
}

void ShrinkDnPass::runOnFunction(FuncOp func) {
  // Why each tensor keeps its size, if it does; the others' accesses are
  // gathered in program order.
  SmallVector<MemlocOp> memlocs = llvm::to_vector(func.getMemlocs());
  SmallVector<std::optional<std::string>> fixedReasons;
  DenseMap<Operation *, unsigned> indexOf;
  for (auto [index, memloc] : llvm::enumerate(memlocs)) {
    fixedReasons.push_back(getFixedReason(memloc));
    if (!fixedReasons.back())
      indexOf.try_emplace(memloc, index);
  }
  // One walk in program order; a tensor's use list would visit the program
  // in no useful order.
  std::vector<SmallVector<TensorUse>> uses(memlocs.size());
  if (!indexOf.empty())
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      auto instruction = dyn_cast<InstructionOpInterface>(op);
      if (!instruction) {
        for (Value operand : op->getOperands()) {
          auto found = indexOf.find(operand.getDefiningOp());
          if (found != indexOf.end() && !fixedReasons[found->second])
            fixedReasons[found->second] = "it has a reinterpret cast";
        }
        return;
      }
      SmallVector<Access> accesses;
      instruction.getAccesses(accesses);
      for (const Access &access : accesses) {
        auto found = indexOf.find(access.getMemloc().getDefiningOp());
        if (found != indexOf.end())
          uses[found->second].push_back({instruction, access});
      }
    });
  ShrinkCounts counts;
  bool failed = false;
  for (auto [memloc, reason, tensorUses] :
       llvm::zip(memlocs, fixedReasons, uses)) {
    if (reason) {
      remark(memloc, "'" + memloc.getName() + "' keeps its size: " + *reason);
      continue;
    }
    if (mlir::failed(collapseBlocks(memloc, tensorUses, counts))) {
      failed = true;
      continue;
    }
    trim(memloc, tensorUses, counts);
  }
  numShrunk += counts.shrunk;
  numCollapsed += counts.collapsed;
  bytesSaved += counts.bytesSaved;
  if (report)
    emitRemark(func.getLoc())
        << "shrink-dn: " << getQualifiedName(func) << ": shrank "
        << counts.shrunk << " tensor(s), collapsed " << counts.collapsed
        << ", saved " << counts.bytesSaved << " bytes per partition";
  if (failed)
    signalPassFailure();
}
