//===- LoopCut.cpp - Index-set splitting of bir.loop ----------------------===//

#include "LoopCut.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

FailureOr<SmallVector<LoopOp>>
walrus::getWalkingLoops(Value memloc, ArrayRef<Operation *> users,
                        std::string &why) {
  llvm::SetVector<Operation *> loops;
  for (Operation *user : users) {
    SmallVector<Access> accesses;
    cast<InstructionOpInterface>(user).getAccesses(accesses);
    SmallVector<LoopOp, 4> enclosing = getEnclosingLoops(user);
    for (const Access &access : accesses) {
      if (access.getMemloc() != memloc)
        continue;
      auto symbolic = dyn_cast<SymbolicAccessPatternAttr>(access.getPattern());
      if (!symbolic)
        continue;
      AffineMap start = symbolic.getStartMap();
      // The verifier holds the dims to the enclosing loops.
      unsigned numDims = std::min<size_t>(start.getNumDims(), enclosing.size());
      for (unsigned dim = 0; dim < numDims; ++dim) {
        if (!start.isFunctionOfDim(dim))
          continue;
        loops.insert(enclosing[dim]);
        break;
      }
    }
  }
  if (loops.empty()) {
    why = "no loop walks it";
    return failure();
  }
  for (Operation *outer : loops)
    for (Operation *inner : loops)
      if (outer->isProperAncestor(inner)) {
        why = "the loops walking it nest";
        return failure();
      }
  // Each core counts its synchronisations in program text (-lnc-verify):
  // a copy in one core's program alone would break the count.
  for (Operation *loop : loops) {
    WalkResult walk = loop->walk([](Operation *op) {
      return isCrossCore(op) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (walk.wasInterrupted()) {
      why = "a loop walking it synchronises cores";
      return failure();
    }
  }
  return llvm::map_to_vector(loops,
                             [](Operation *op) { return cast<LoopOp>(op); });
}

int64_t LoopCuts::cut(ArrayRef<LoopOp> loops, int64_t parts) {
  int64_t count = 0;
  for (LoopOp loop : loops) {
    int64_t trips = loop.getTripCount();
    int64_t perPart = llvm::divideCeil(trips, std::min(parts, trips));
    if (perPart >= trips)
      continue;
    OpBuilder builder(loop);
    builder.setInsertionPointAfter(loop);
    IntegerAttr upper = loop.getUpperAttr();
    originalUppers.push_back({loop, upper});
    // Every bound but the last is the value of an iteration that runs, so
    // none overflows.
    auto valueAt = [&](int64_t iteration) {
      return builder.getI64IntegerAttr(loop.getLowerBound() +
                                       iteration * loop.getStepSize());
    };
    loop.setUpperAttr(valueAt(perPart));
    for (int64_t first = perPart; first < trips; first += perPart) {
      auto part = cast<LoopOp>(builder.clone(*loop));
      part.setLowerAttr(valueAt(first));
      part.setUpperAttr(first + perPart < trips ? valueAt(first + perPart)
                                                : upper);
      added.push_back(part);
      builder.setInsertionPointAfter(part);
      ++count;
    }
  }
  return count;
}

void LoopCuts::undo() {
  for (LoopOp loop : added)
    loop.erase();
  for (auto [loop, upper] : originalUppers)
    loop.setUpperAttr(upper);
  added.clear();
  originalUppers.clear();
}
