//===- Liveness.cpp - Live ranges of tensors in program order -------------===//

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Analysis/AccessFootprint.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

ProgramOrder::ProgramOrder(FuncOp func) {
  std::function<void(Block &)> number = [&](Block &block) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<LoopOp>(op)) {
        points[loop] = numPoints++;
        number(loop.getBody().front());
        loopEnds[loop] = numPoints++;
      } else if (isa<InstructionOpInterface>(op)) {
        points[&op] = numPoints++;
      }
    }
  };
  number(func.getBody().front());
}

namespace {
/// One access of a memory location, in program order.
struct TensorAccess {
  Operation *instruction;
  Access access;
  SmallVector<LoopOp, 4> loops;
};
} // namespace

/// Whether the value of a location accessed only inside `loop` stays inside
/// one iteration (see TensorLiveness).
static bool staysInIteration(MemlocOp memloc,
                             ArrayRef<TensorAccess> accesses) {
  const TensorAccess &first = accesses.front();
  if (first.access.kind != AccessKind::Write ||
      cast<InstructionOpInterface>(first.instruction).getMaskAttr() ||
      first.access.getMemloc() != memloc.getResult() ||
      !isa<PhysicalAccessPatternAttr>(first.access.getPattern()))
    return false;
  MemoryType type = memloc.getMemoryType();
  AccessFootprint written = getAccessFootprint(
      first.instruction, first.access.getPattern(), type);
  if (written.issue != FootprintIssue::None)
    return false;
  for (const TensorAccess &use : accesses) {
    if (!use.access.reads())
      continue;
    if (use.access.getMemloc() != memloc.getResult())
      return false; // read through a view: do not reason about it
    AccessFootprint read =
        getAccessFootprint(use.instruction, use.access.getPattern(), type);
    const TensorBox &box = read.box, &covered = written.box;
    if (read.issue != FootprintIssue::None ||
        box.firstPartition < covered.firstPartition ||
        box.lastPartition > covered.lastPartition ||
        box.firstColumn < covered.firstColumn ||
        box.lastColumn > covered.lastColumn)
      return false;
  }
  return true;
}

TensorLiveness::TensorLiveness(FuncOp func) : order(func) {
  llvm::MapVector<Operation *, SmallVector<TensorAccess>> byMemloc;
  for (MemlocOp memloc : func.getBody().front().getOps<MemlocOp>())
    byMemloc[memloc];
  func.walk<WalkOrder::PreOrder>([&](InstructionOpInterface instruction) {
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses)
      if (MemlocOp memloc = getDefiningMemloc(access.getMemloc()))
        byMemloc[memloc].push_back(
            {instruction, access, getEnclosingLoops(instruction)});
  });

  unsigned lastPoint = order.getNumPoints() ? order.getNumPoints() - 1 : 0;
  for (auto &[op, accesses] : byMemloc) {
    auto memloc = cast<MemlocOp>(op);
    TensorKind kind = memloc.getKind();
    if (accesses.empty()) {
      if (kind != TensorKind::Internal)
        ranges[memloc] = {0, lastPoint, false};
      continue;
    }
    // The loops every access sits in.
    size_t common = accesses.front().loops.size();
    for (const TensorAccess &access : accesses) {
      size_t depth = 0;
      while (depth < common && depth < access.loops.size() &&
             access.loops[depth] == accesses.front().loops[depth])
        ++depth;
      common = depth;
    }
    LiveRange range{~0u, 0, false};
    for (const TensorAccess &access : accesses) {
      unsigned start = order.getPoint(access.instruction), end = start;
      if (access.loops.size() > common) {
        LoopOp outer = access.loops[common];
        start = order.getLoopHeader(outer);
        end = order.getLoopEnd(outer);
      }
      range.start = std::min(range.start, start);
      range.end = std::max(range.end, end);
    }
    if (common > 0 && !staysInIteration(memloc, accesses)) {
      LoopOp loop = accesses.front().loops[common - 1];
      range.start = std::min(range.start, order.getLoopHeader(loop));
      range.end = std::max(range.end, order.getLoopEnd(loop));
      range.loopCarried = true;
    }
    if (kind == TensorKind::Input)
      range.start = 0;
    if (kind == TensorKind::Output)
      range.end = lastPoint;
    ranges[memloc] = range;
  }
}
