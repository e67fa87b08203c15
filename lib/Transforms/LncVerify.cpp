//===- LncVerify.cpp - The -lnc-verify pass -------------------------------===//
//
// The SPMD verifier around -lnc-split. Before the split it predicts, with
// the same mask evaluator the splitter prunes with, whether every core gets
// a legal program; after it, it checks that the per-core programs are
// SPMD-identical where they must be: functions, memory locations, barrier
// names and cross-core instructions.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Dialect/BIR/IR/ShardBinding.h"
#include "Walrus/Support/ListedOptions.h"
#include "Walrus/Transforms/Passes.h"

#include "llvm/ADT/StringSet.h"

namespace walrus {
#define GEN_PASS_DEF_LNCVERIFY
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// What of a function must be the same on every core.
struct FuncSkeleton {
  FuncOp func;
  llvm::MapVector<StringRef, MemlocOp> memlocs;
  SmallVector<CoreBarrierOp> barriers;
  SmallVector<Operation *> crossCore; // collectives and sb2sb, in order
};

FuncSkeleton getSkeleton(FuncOp func) {
  FuncSkeleton skeleton{func, {}, {}, {}};
  for (MemlocOp memloc : func.getMemlocs())
    skeleton.memlocs.insert({memloc.getName(), memloc});
  func.walk([&](Operation *op) {
    if (auto barrier = dyn_cast<CoreBarrierOp>(op))
      skeleton.barriers.push_back(barrier);
    else if (isCrossCore(op))
      skeleton.crossCore.push_back(op);
  });
  return skeleton;
}

struct LncVerifyPass
    : ListedOptions<walrus::impl::LncVerifyBase<LncVerifyPass>> {
  using ListedOptions::ListedOptions;

  void runOnOperation() override;

private:
  LogicalResult verifySymbolic(ModuleOp module);
  LogicalResult verifyNoShardSymbol(ModuleOp module);
  LogicalResult verifyGroup(ArrayRef<ModuleOp> group);
  LogicalResult verifyAgainstCore0(FuncSkeleton &core0, FuncSkeleton &other,
                                   int64_t core);
};
} // namespace

LogicalResult LncVerifyPass::verifySymbolic(ModuleOp module) {
  int64_t lncSize =
      lncSizeOverride > 0 ? lncSizeOverride.getValue() : getLncSize(module);
  SmallVector<int64_t> shards = llvm::to_vector(llvm::seq<int64_t>(0, lncSize));
  bool recheckBounds = lncSize != getLncSize(module);
  LogicalResult result = success();
  module.walk([&](InstructionOpInterface instruction) {
    Operation *op = instruction;
    if (recheckBounds && failed(verifyForCores(op, shards, lncSize)))
      result = failure();
    IntegerSetAttr mask = instruction.getMaskAttr();
    if (!mask)
      return;
    SmallVector<int64_t> offCores;
    for (int64_t shard : shards)
      if (!isMaskTrueAt(mask.getValue(), shard))
        offCores.push_back(shard);
    if (offCores.size() == shards.size())
      op->emitWarning() << "mask holds on none of the " << lncSize
                        << " cores: the instruction runs nowhere";
    if (isCrossCore(op) && !offCores.empty()) {
      op->emitError() << "cross-core instruction is masked off on core "
                      << offCores.front()
                      << "; every core must take part in it";
      result = failure();
    }
  });
  return result;
}

LogicalResult LncVerifyPass::verifyNoShardSymbol(ModuleOp module) {
  int64_t core = *getNeuronCoreId(module);
  LogicalResult result = success();
  auto fail = [&](Operation *op, StringRef what) {
    op->emitError() << what << " still mentions the shard id on core " << core;
    result = failure();
  };
  module.walk([&](InstructionOpInterface instruction) {
    Operation *op = instruction;
    if (IntegerSetAttr mask = instruction.getMaskAttr())
      if (mask.getValue().getNumSymbols())
        fail(op, "mask");
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses)
      if (usesShard(access.getPattern()))
        fail(op, ("'" + access.patternName.getValue() + "'").str());
    if (auto collective = dyn_cast<CollectiveOp>(op))
      if (AffineMapAttr offset = collective.getShardOffsetAttr())
        if (offset.getValue().getNumSymbols())
          fail(op, "'shard_offset'");
    if (auto copy = dyn_cast<Sb2SbOp>(op))
      if (copy.getPeer().getNumSymbols())
        fail(op, "'peer'");
  });
  return result;
}

LogicalResult LncVerifyPass::verifyAgainstCore0(FuncSkeleton &core0,
                                                FuncSkeleton &other,
                                                int64_t core) {
  LogicalResult result = success();
  StringRef funcName = core0.func.getSymName();
  for (auto &[name, memloc] : core0.memlocs) {
    if (!other.memlocs.count(name)) {
      memloc.emitError() << "could not find memloc '" << name << "' of @"
                         << funcName << " on core " << core;
      result = failure();
    }
  }
  for (auto &[name, memloc] : other.memlocs) {
    if (!core0.memlocs.count(name)) {
      memloc.emitError() << "memloc '" << name << "' of @" << funcName
                         << " on core " << core << " does not exist on core 0";
      result = failure();
    }
  }
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(core0.barriers, other.barriers))) {
    auto [expected, actual] = pair;
    if (expected.getName() != actual.getName()) {
      actual.emitError() << "expected core barrier #" << index << " of @"
                         << funcName << " to be named '" << expected.getName()
                         << "' as on core 0, but on core " << core
                         << " it is named '" << actual.getName() << "'";
      result = failure();
    }
  }
  if (core0.barriers.size() != other.barriers.size()) {
    other.func.emitError() << "core " << core << " has "
                           << other.barriers.size() << " core barrier(s) in @"
                           << funcName << ", core 0 has "
                           << core0.barriers.size();
    result = failure();
  }
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(core0.crossCore, other.crossCore))) {
    auto [expected, actual] = pair;
    if (expected->getName() != actual->getName()) {
      actual->emitError() << "cross-core instruction #" << index << " of @"
                          << funcName << " is '" << expected->getName()
                          << "' on core 0 but '" << actual->getName()
                          << "' on core " << core;
      result = failure();
    }
  }
  if (core0.crossCore.size() != other.crossCore.size()) {
    other.func.emitError() << "core " << core << " has "
                           << other.crossCore.size()
                           << " cross-core instruction(s) in @" << funcName
                           << ", core 0 has " << core0.crossCore.size();
    result = failure();
  }
  return result;
}

LogicalResult LncVerifyPass::verifyGroup(ArrayRef<ModuleOp> group) {
  LogicalResult result = success();
  for (ModuleOp module : llvm::to_vector(group))
    if (failed(verifyNoShardSymbol(module)))
      result = failure();
  ModuleOp core0Module = group.front();
  SmallVector<FuncOp> core0Funcs =
      llvm::to_vector(core0Module.getOps<FuncOp>());
  SmallVector<FuncSkeleton> core0;
  for (FuncOp func : core0Funcs)
    core0.push_back(getSkeleton(func));
  for (size_t core = 1; core < group.size(); ++core) {
    ModuleOp module = group[core];
    SmallVector<FuncOp> funcs = llvm::to_vector(module.getOps<FuncOp>());
    if (funcs.size() != core0Funcs.size()) {
      module.emitError() << "core " << core << " has " << funcs.size()
                         << " function(s), core 0 has " << core0Funcs.size();
      result = failure();
      continue;
    }
    for (auto [index, func] : llvm::enumerate(funcs)) {
      if (func.getSymName() != core0Funcs[index].getSymName()) {
        func.emitError() << "function #" << index << " is @"
                         << core0Funcs[index].getSymName() << " on core 0 but @"
                         << func.getSymName() << " on core " << core;
        result = failure();
        continue;
      }
      FuncSkeleton skeleton = getSkeleton(func);
      if (failed(verifyAgainstCore0(core0[index], skeleton, core)))
        result = failure();
    }
  }
  return result;
}

void LncVerifyPass::runOnOperation() {
  ModuleOp top = getOperation();
  if (failed(checkLncSizeOption(top, "lnc-verify", lncSizeOverride)))
    return signalPassFailure();
  FailureOr<SmallVector<ModuleOp>> modules = findProgramModules(top);
  if (failed(modules))
    return signalPassFailure();

  LogicalResult result = success();
  SmallVector<ModuleOp> group;
  auto closeGroup = [&]() {
    if (group.empty())
      return;
    int64_t lncSize = getLncSize(group.front());
    if (static_cast<int64_t>(group.size()) != lncSize) {
      group.back().emitError()
          << "the per-core modules starting at @"
          << group.front().getName().value_or("<anonymous>") << " stop at core "
          << group.size() - 1 << " of " << lncSize;
      result = failure();
    } else if (failed(verifyGroup(group))) {
      result = failure();
    }
    group.clear();
  };
  for (ModuleOp module : *modules) {
    // The cores of one kernel sit side by side in one block.
    if (!group.empty() && group.back()->getBlock() != module->getBlock())
      closeGroup();
    std::optional<int64_t> core = getNeuronCoreId(module);
    if (!core) {
      closeGroup();
      if (mode == LncVerifyMode::Concretized) {
        module.emitError("module has no bir.neuron_core_id: it was not split "
                         "by -lnc-split");
        result = failure();
      } else if (failed(verifySymbolic(module))) {
        result = failure();
      }
      continue;
    }
    if (mode == LncVerifyMode::Symbolic) {
      module.emitError() << "module is already concretized for core " << *core;
      result = failure();
      continue;
    }
    if (*core == 0)
      closeGroup();
    if (*core != static_cast<int64_t>(group.size())) {
      module.emitError() << "core " << *core
                         << " is out of order: expected core " << group.size()
                         << " here";
      result = failure();
      group.clear();
      continue;
    }
    group.push_back(module);
  }
  closeGroup();
  if (failed(result))
    signalPassFailure();
  markAllAnalysesPreserved();
}
