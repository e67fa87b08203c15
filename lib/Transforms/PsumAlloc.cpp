//===- PsumAlloc.cpp - The -psum-alloc pass -------------------------------===//
//
// Builds a placement problem of a function's PSUM tensors (their bytes per
// partition and live ranges), places it in the target's usable banks
// (placement::placeInBanks), and writes each tensor's address.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Placement/Banks.h"
#include "Walrus/Transforms/Passes.h"

#include "FunctionPass.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseSet.h"

namespace walrus {
#define GEN_PASS_DEF_PSUMALLOC
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::placement;

namespace {
/// A function's PSUM tensors as a placement problem.
struct PsumProblem {
  SmallVector<MemlocOp> memlocs;
  SmallVector<Node> nodes;
  SmallVector<std::optional<Place>> fixed;
};

struct PsumAllocPass
    : FunctionPass<walrus::impl::PsumAllocBase<PsumAllocPass>> {
  using FunctionPass::FunctionPass;

  LogicalResult beforeFunctions(ArrayRef<ModuleOp> programs) override {
    for (ModuleOp program : programs)
      if (failed(expectSplit(program, "psum-alloc")))
        return failure();
    return success();
  }

  void runOnFunction(FuncOp func) override;
};
} // namespace

/// The banks of `func`'s target.
static BankOptions getBankOptions(FuncOp func) {
  TargetAttr target = getTarget(func);
  BankOptions options;
  options.banks = unsigned(target.getPsumBanks());
  options.bankBytes = target.getPsumBytesPerPartition() / target.getPsumBanks();
  options.reserved = unsigned(target.getPsumReservedBanks());
  return options;
}

/// `func`'s PSUM tensors, or an error at one larger than a bank.
static FailureOr<PsumProblem> buildPsumProblem(const TensorLiveness &liveness,
                                               const BankOptions &banks) {
  PsumProblem problem;
  for (auto [index, each] : llvm::enumerate(liveness.getMemlocs())) {
    MemlocOp memloc = each;
    MemoryType type = memloc.getMemoryType();
    if (type.getMemorySpace() != MemorySpace::PSUM)
      continue;
    if (type.getBytesPerPartition() >
        banks.bankBytes * int64_t(banks.getUsableBanks()))
      return memloc.emitError()
             << "psum-alloc: '" << memloc.getName() << "' takes "
             << type.getBytesPerPartition()
             << " bytes per partition, more than the target's usable PSUM "
                "banks hold ("
             << banks.getUsableBanks() << " of " << banks.bankBytes
             << " bytes)";
    Node &node = problem.nodes.emplace_back();
    node.partitions = type.getPartitions();
    node.bytes = type.getBytesPerPartition();
    if (std::optional<LiveRange> range = liveness.getLiveRange(index)) {
      node.range = *range;
      node.live = true;
    }
    problem.memlocs.push_back(memloc);
    std::optional<Place> &fixed = problem.fixed.emplace_back();
    if (std::optional<uint64_t> address = memloc.getAddress())
      fixed = Place{0, int64_t(*address)};
  }
  return problem;
}

void PsumAllocPass::runOnFunction(FuncOp func) {
  if (failed(expectSplit(func->getParentOfType<ModuleOp>(), "psum-alloc")))
    return signalPassFailure();
  // Each point's instruction, for the error at the access that found no
  // room.
  DenseMap<unsigned, Operation *> instructionAt;
  TensorLiveness liveness(func, [&](InstructionOpInterface inst, unsigned point,
                                    auto) { instructionAt[point] = inst; });
  BankOptions banks = getBankOptions(func);
  FailureOr<PsumProblem> problem = buildPsumProblem(liveness, banks);
  if (failed(problem))
    return signalPassFailure();
  Problem placementProblem(problem->nodes, getTarget(func).getPsumPartitions(),
                           EdgeLimits{0, 0});
  BankPlacement placed = placeInBanks(placementProblem, problem->fixed, banks);
  if (BankShortage *shortage = placed.shortage ? &*placed.shortage : nullptr) {
    MemlocOp memloc = problem->memlocs[shortage->node];
    Operation *at =
        instructionAt.lookup(problem->nodes[shortage->node].range.start);
    InFlightDiagnostic diagnostic =
        (at ? at : memloc.getOperation())->emitError()
        << "psum-alloc: no PSUM bank has room for '" << memloc.getName()
        << "' (" << problem->nodes[shortage->node].bytes
        << " bytes per partition): the " << shortage->liveNodes
        << " PSUM tensors live here need at least " << shortage->banksNeeded
        << " bank(s) of " << banks.bankBytes << " bytes at once, and the "
        << "target has " << banks.getUsableBanks() << " usable (" << banks.banks
        << " banks, " << banks.reserved << " reserved)";
    diagnostic.attachNote(memloc.getLoc()) << "the tensor";
    return signalPassFailure();
  }
  Builder builder(func.getContext());
  llvm::SmallDenseSet<int64_t, 8> banksUsed;
  for (auto [memloc, place] :
       llvm::zip_equal(problem->memlocs, placed.placement.placements)) {
    memloc.setAddressAttr(builder.getI64IntegerAttr(place->address));
    memloc.setBasePartitionAttr(builder.getI64IntegerAttr(0));
    banksUsed.insert(place->address / banks.bankBytes);
  }
  if (report)
    emitRemark(func.getLoc())
        << "psum-alloc: " << getQualifiedName(func) << ": "
        << problem->memlocs.size() << " PSUM tensor(s) in " << banksUsed.size()
        << " of " << banks.getUsableBanks() << " usable bank(s) of "
        << banks.bankBytes << " bytes";
}
