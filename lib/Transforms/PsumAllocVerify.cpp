//===- PsumAllocVerify.cpp - The -psum-alloc-verify pass ------------------===//
//
// A PSUM allocation is right when every PSUM tensor lies inside one bank
// the target does not reserve, and no two tensors live at the same time
// share a byte.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"

#include "FunctionPass.h"

namespace walrus {
#define GEN_PASS_DEF_PSUMALLOCVERIFY
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// Where a placed PSUM tensor sits and when it is live.
struct PsumPlace {
  MemlocOp memloc;
  int64_t firstByte = 0, endByte = 0; // [first, end)
  LiveRange range;
};

struct PsumAllocVerifyPass
    : FunctionPass<walrus::impl::PsumAllocVerifyBase<PsumAllocVerifyPass>> {
  LogicalResult beforeFunctions(ArrayRef<ModuleOp> programs) override {
    for (ModuleOp program : programs)
      if (failed(expectSplit(program, "psum-alloc-verify")))
        return failure();
    return success();
  }

  void runOnFunction(FuncOp func) override {
    if (failed(expectSplit(func->getParentOfType<ModuleOp>(),
                           "psum-alloc-verify")) ||
        failed(verifyFunc(func)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  LogicalResult verifyFunc(FuncOp func);
};
} // namespace

/// The place of PSUM tensor `memloc`, or an error when it has none inside
/// one usable bank.
static FailureOr<PsumPlace> getPlace(MemlocOp memloc, TargetAttr target) {
  std::optional<uint64_t> address = memloc.getAddress();
  if (!address || memloc.getBasePartition().value_or(1) != 0)
    return memloc.emitError()
           << "psum-alloc-verify: PSUM tensor '" << memloc.getName()
           << "' has no address at base partition 0 (run -psum-alloc)";
  int64_t bankBytes = target.getPsumBytesPerPartition() / target.getPsumBanks();
  int64_t usable = target.getPsumBanks() - target.getPsumReservedBanks();
  int64_t first = int64_t(*address),
          bytes = memloc.getMemoryType().getBytesPerPartition();
  int64_t bank = first / bankBytes;
  // The memloc verifier keeps [first, first + bytes) inside PSUM. A tensor
  // of more than a bank takes whole banks from a bank's first byte on.
  bool oneBank = first % bankBytes + bytes <= bankBytes;
  if (!oneBank && (bytes <= bankBytes || first % bankBytes != 0))
    return memloc.emitError()
           << "psum-alloc-verify: PSUM tensor '" << memloc.getName()
           << "' at bytes [" << first << ", " << first + bytes
           << ") crosses the end of bank " << bank << " (banks of " << bankBytes
           << " bytes; a tensor of more than a bank starts at "
           << "a bank's first byte)";
  int64_t lastBank = (first + bytes - 1) / bankBytes;
  if (lastBank >= usable)
    return memloc.emitError()
           << "psum-alloc-verify: PSUM tensor '" << memloc.getName()
           << "' is in bank " << lastBank << ", which the target reserves ("
           << usable << " of " << target.getPsumBanks() << " usable)";
  return PsumPlace{memloc, first, first + bytes, {}};
}

LogicalResult PsumAllocVerifyPass::verifyFunc(FuncOp func) {
  TargetAttr target = getTarget(func);
  TensorLiveness liveness(func);
  SmallVector<PsumPlace> places;
  bool failedOne = false;
  for (MemlocOp memloc : liveness.getMemlocs()) {
    if (memloc.getMemoryType().getMemorySpace() != MemorySpace::PSUM)
      continue;
    FailureOr<PsumPlace> place = getPlace(memloc, target);
    if (failed(place)) {
      failedOne = true;
      continue;
    }
    if (std::optional<LiveRange> range = liveness.getLiveRange(memloc)) {
      place->range = *range;
      places.push_back(*place);
    }
  }
  // A sweep in start order: each tensor against those still live.
  llvm::sort(places, [](const PsumPlace &a, const PsumPlace &b) {
    return a.range.start < b.range.start;
  });
  SmallVector<PsumPlace *> open;
  for (PsumPlace &place : places) {
    llvm::erase_if(open, [&](PsumPlace *other) {
      return other->range.end < place.range.start;
    });
    for (PsumPlace *other : open)
      if (place.firstByte < other->endByte &&
          other->firstByte < place.endByte) {
        place.memloc.emitError()
            << "psum-alloc-verify: PSUM tensors '" << other->memloc.getName()
            << "' and '" << place.memloc.getName()
            << "' are live at the same time and share bytes ["
            << std::max(place.firstByte, other->firstByte) << ", "
            << std::min(place.endByte, other->endByte) << ")"
            << onCore(place.memloc);
        failedOne = true;
      }
    open.push_back(&place);
  }
  return failure(failedOne);
}
