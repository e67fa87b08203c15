//===- VerticalFusion.cpp - The fold half of -vn-split --------------------===//
//
// producer -> temporary -> tensor_copy -> destination becomes
// producer -> destination when nothing can tell the difference.
//
//===----------------------------------------------------------------------===//

#include "VerticalFusion.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// A temporary with one writer and one copy reading it.
struct FoldCandidate {
  MemlocOp temporary;
  InstructionOpInterface producer;
  Access producerWrite;
  TensorCopyOp copy;
};
} // namespace

/// Whether `op` or anything nested in it accesses memory location `target`.
static bool touches(Operation *op, MemlocOp target) {
  WalkResult result = op->walk([&](InstructionOpInterface instruction) {
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses)
      if (getDefiningMemloc(access.getMemloc()) == target)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The candidate `temporary` forms, or why it cannot be folded. Returns
/// failure with an empty `why` for tensors no copy reads (not candidates).
static FailureOr<FoldCandidate>
getCandidate(MemlocOp temporary, const llvm::StringSet<> &remotelyWritten,
             std::string &why) {
  auto reject = [&](const Twine &reason) {
    why = reason.str();
    return failure();
  };
  // Only tensors a copy reads are candidates: look for one before
  // gathering every access (a tile may have thousands).
  if (llvm::none_of(temporary->getUsers(), [&](Operation *user) {
        auto copy = dyn_cast<TensorCopyOp>(user);
        return copy && copy.getSrc() == temporary.getResult();
      }))
    return reject("");
  SmallVector<std::pair<InstructionOpInterface, Access>> uses;
  llvm::SmallPtrSet<Operation *, 4> seen;
  bool hasOtherUsers = false;
  for (Operation *user : temporary->getUsers()) {
    auto instruction = dyn_cast<InstructionOpInterface>(user);
    if (!instruction) {
      hasOtherUsers = true;
      continue;
    }
    if (!seen.insert(user).second)
      continue;
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses)
      if (access.getMemloc() == temporary.getResult())
        uses.push_back({instruction, access});
  }
  // Only tensors a copy reads are candidates.
  auto copyUse = llvm::find_if(uses, [&](auto &use) {
    auto copy = dyn_cast<TensorCopyOp>(use.first.getOperation());
    return copy && copy.getSrc() == temporary.getResult() && use.second.reads();
  });
  if (copyUse == uses.end())
    return reject("");
  if (hasOtherUsers)
    return reject("it has a view");
  if (temporary.getKind() != TensorKind::Internal || temporary.getAddress() ||
      temporary.getSet())
    return reject("it is not a plain internal tensor");
  if (remotelyWritten.contains(temporary.getName()))
    return reject("another core writes it");
  if (uses.size() != 2)
    return reject("it has " + Twine(uses.size()) +
                  " accesses, not one write and one copy");
  auto &[producer, write] = uses[copyUse == uses.begin() ? 1 : 0];
  if (write.kind != AccessKind::Write)
    return reject("its other access is not a plain write");
  return FoldCandidate{temporary, producer, write,
                       cast<TensorCopyOp>(copyUse->first.getOperation())};
}

/// Why folding `candidate` would change the program, if it would.
static std::optional<std::string> getBlocker(FoldCandidate candidate) {
  Operation *producer = candidate.producer;
  TensorCopyOp copy = candidate.copy;
  MemlocOp destination = getDefiningMemloc(copy.getDst());
  if (producer->getBlock() != copy->getBlock() ||
      !producer->isBeforeInBlock(copy))
    return std::string("the producer and the copy are not in one block, "
                       "producer first");
  if (candidate.producerWrite.getPattern() != copy.getSrcAp())
    return std::string("the copy does not read exactly what was written");
  if (candidate.temporary.getMemoryType().getElementType() !=
      cast<MemoryType>(copy.getDst().getType()).getElementType())
    return std::string("the copy converts the element type");
  if (candidate.producer.getMaskAttr() != copy.getMaskAttr())
    return std::string("the producer and the copy have different masks");
  if (isa<MatmultOp>(producer) &&
      cast<MemoryType>(copy.getDst().getType()).getMemorySpace() !=
          MemorySpace::PSUM)
    return std::string("a matmult can only write PSUM");
  for (Operation *between = producer->getNextNode(); between != copy;
       between = between->getNextNode())
    if (touches(between, destination))
      return ("'" + destination.getName() +
              "' is accessed between the producer and the copy")
          .str();
  return std::nullopt;
}

unsigned walrus::foldCopiesIntoProducers(
    FuncOp func, const llvm::StringSet<> &remotelyWritten, bool explain) {
  unsigned folds = 0;
  SmallVector<MemlocOp> memlocs = llvm::to_vector(func.getMemlocs());
  for (MemlocOp temporary : memlocs) {
    // One write and one copy are two uses; with more it cannot fold, and
    // only the remark needs to know why (a tile may have thousands).
    if (!explain && temporary.getResult().hasNUsesOrMore(3))
      continue;
    std::string why;
    FailureOr<FoldCandidate> candidate =
        getCandidate(temporary, remotelyWritten, why);
    std::optional<std::string> blocker;
    if (succeeded(candidate))
      blocker = getBlocker(*candidate);
    else if (!why.empty())
      blocker = why;
    if (blocker) {
      if (explain)
        emitRemark(temporary.getLoc())
            << "vn-split: not folding '" << temporary.getName()
            << "': " << *blocker;
      continue;
    }
    if (failed(candidate))
      continue;
    TensorCopyOp copy = candidate->copy;
    MemlocOp destination = getDefiningMemloc(copy.getDst());
    candidate->producerWrite.setPattern(copy.getDstAp());
    candidate->producerWrite.setMemloc(copy.getDst());
    if (explain)
      emitRemark(temporary.getLoc())
          << "vn-split: folded '" << temporary.getName() << "' into '"
          << destination.getName() << "': its producer writes '"
          << destination.getName() << "' directly";
    copy.erase();
    temporary.erase();
    ++folds;
  }
  return folds;
}
