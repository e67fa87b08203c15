//===- Liveness.cpp - Live ranges of tensors in program order -------------===//

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Analysis/AccessFootprint.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

ProgramOrder::ProgramOrder(FuncOp func, InstructionVisitor visit,
                           function_ref<void(MemlocOp)> visitMemloc) {
  SmallVector<LoopOp, 4> loops; // around the operation being numbered
  std::function<void(Block &)> number = [&](Block &block) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<LoopOp>(op)) {
        loopHeaders[loop] = numPoints++;
        loops.push_back(loop);
        number(loop.getBody().front());
        loops.pop_back();
        loopEnds[loop] = numPoints++;
      } else if (auto instruction = dyn_cast<InstructionOpInterface>(op)) {
        if (visit)
          visit(instruction, numPoints, loops);
        ++numPoints;
      } else if (auto memloc = dyn_cast<MemlocOp>(op); memloc && visitMemloc) {
        visitMemloc(memloc);
      }
    }
  };
  number(func.getBody().front());
}

namespace {

/// What the walk keeps of one location's accesses: enough for its range
/// without a record per access, which at 100k tensors costs more than the
/// walk itself.
struct AccessSummary {
  Operation *first = nullptr, *last = nullptr;
  unsigned firstPoint = 0, lastPoint = 0;
  /// The loops around the first and the last access.
  SmallVector<LoopOp, 0> firstLoops, lastLoops;
  /// How many of the outermost loops every access sits in.
  size_t common = 0;
  /// Every access, kept only when the first one sits in a loop: only then
  /// can all of them share one (getValueStartingWrite looks at them all).
  SmallVector<InstructionAccess, 0> accesses;
  /// Whether every access of the last instruction so far writes.
  bool lastWritesOnly = false;
  /// Whether an instruction after the first wrote the location without
  /// reading it, unmasked.
  bool rewritten = false;

  /// Called when the last instruction is done with the location.
  void settleLast() {
    if (last && last != first && lastWritesOnly &&
        !cast<InstructionOpInterface>(last).getMaskAttr())
      rewritten = true;
  }
};
} // namespace

TensorLiveness::TensorLiveness(FuncOp func,
                               ProgramOrder::InstructionVisitor visit) {
  // Indexed like `memlocs`: at 100k locations, maps keyed by operation
  // cost more than the walk itself.
  std::vector<AccessSummary> summaries;
  auto addMemloc = [&](MemlocOp memloc) {
    indexOf[memloc] = memlocs.size();
    memlocs.push_back(memloc);
    summaries.emplace_back();
    accessWeights.push_back(0);
  };
  SmallVector<Access> accesses;
  order = ProgramOrder(
      func,
      [&](InstructionOpInterface instruction, unsigned point,
          ArrayRef<LoopOp> loops) {
        if (visit)
          visit(instruction, point, loops);
        double weight = 1;
        for (LoopOp loop : loops)
          weight *= loop.getTripCount();
        accesses.clear();
        instruction.getAccesses(accesses);
        for (const Access &access : accesses) {
          MemlocOp memloc = getDefiningMemloc(access.getMemloc());
          if (!memloc)
            continue;
          auto found = indexOf.find(memloc);
          if (found == indexOf.end())
            continue; // not one of this function's locations
          unsigned index = found->second;
          accessWeights[index] += weight;
          AccessSummary &summary = summaries[index];
          if (!summary.first) {
            summary.first = instruction;
            summary.firstPoint = point;
            summary.firstLoops.assign(loops.begin(), loops.end());
            summary.common = loops.size();
          } else {
            const LoopOp *mine = std::mismatch(loops.begin(), loops.end(),
                                               summary.firstLoops.begin(),
                                               summary.firstLoops.end())
                                     .first;
            summary.common =
                std::min<size_t>(summary.common, mine - loops.begin());
          }
          if (summary.last != instruction) {
            summary.settleLast();
            summary.last = instruction;
            summary.lastPoint = point;
            summary.lastLoops.assign(loops.begin(), loops.end());
            summary.lastWritesOnly = access.kind == AccessKind::Write;
          } else {
            summary.lastWritesOnly &= access.kind == AccessKind::Write;
          }
          if (!summary.firstLoops.empty())
            summary.accesses.push_back({instruction, access});
        }
      },
      addMemloc);

  // An access nested deeper than the loops all accesses share counts from
  // the header to the end of its loop at that depth. Those loops are
  // disjoint and in program order, so the first and last accesses bound
  // the range.
  unsigned lastPoint = order.getNumPoints() ? order.getNumPoints() - 1 : 0;
  ranges.resize(memlocs.size());
  rewritten.reserve(memlocs.size());
  for (auto [memloc, summary, range] : llvm::zip(memlocs, summaries, ranges)) {
    summary.settleLast();
    rewritten.push_back(summary.rewritten);
    TensorKind kind = memloc.getKind();
    if (!summary.first) {
      if (kind != TensorKind::Internal)
        range = LiveRange{0, lastPoint, false};
      continue;
    }
    size_t common = summary.common;
    range = LiveRange{summary.firstPoint, summary.lastPoint, false};
    if (summary.firstLoops.size() > common)
      range->start = order.getLoopHeader(summary.firstLoops[common]);
    if (summary.lastLoops.size() > common)
      range->end = order.getLoopEnd(summary.lastLoops[common]);
    // Accessed only inside a loop: the value stays inside one iteration
    // when the body's first access starts it (getValueStartingWrite).
    FootprintCache footprints(memloc.getMemoryType());
    if (common > 0 &&
        !getValueStartingWrite(memloc, summary.accesses, footprints)) {
      LoopOp loop = summary.firstLoops[common - 1];
      range->start = std::min(range->start, order.getLoopHeader(loop));
      range->end = std::max(range->end, order.getLoopEnd(loop));
      range->loopCarried = true;
    }
    if (kind == TensorKind::Input)
      range->start = 0;
    if (kind == TensorKind::Output)
      range->end = lastPoint;
  }
}
