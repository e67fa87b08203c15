//===- LncSplit.cpp - The -lnc-split pass ---------------------------------===//
//
// Clone -> concretize -> prune, after the reference LncSplitter: one
// symbolic module written for lnc_size logical cores becomes lnc_size
// per-core modules with the shard id bound, off-core instructions deleted
// and no shard symbol left.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Dialect/BIR/IR/ShardBinding.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Threading.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "lnc-split"

namespace walrus {
#define GEN_PASS_DEF_LNCSPLIT
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// One per-core module to concretize, and what concretizing it removed.
struct CoreModule {
  ModuleOp module;
  int64_t core;
  int64_t lncSize;
  std::string name;
  unsigned numInstructions = 0;
  unsigned numPrunedInstructions = 0;
  unsigned numPrunedLoops = 0;
};

/// Binds the shard id of one core in a module and prunes what does not run
/// there. Access patterns are uniqued attributes shared by many
/// instructions, so each is bound once.
class Concretizer {
public:
  explicit Concretizer(CoreModule &target)
      : target(target),
        maskName(StringAttr::get(target.module.getContext(), "mask")) {}

  void run() {
    for (FuncOp func : target.module.getOps<FuncOp>())
      concretizeBlock(func.getBody().front());
  }

private:
  /// Returns whether any instruction is left in `block`.
  bool concretizeBlock(Block &block) {
    bool anyLeft = false;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (auto loop = dyn_cast<LoopOp>(op)) {
        if (concretizeBlock(loop.getBody().front())) {
          anyLeft = true;
        } else {
          ++target.numPrunedLoops;
          loop.erase();
        }
        continue;
      }
      auto instruction = dyn_cast<InstructionOpInterface>(op);
      if (!instruction) {
        anyLeft = true;
        continue;
      }
      ++target.numInstructions;
      if (!concretizeInstruction(instruction)) {
        ++target.numPrunedInstructions;
        op.erase();
        continue;
      }
      anyLeft = true;
    }
    return anyLeft;
  }

  /// Returns false when the instruction does not run on this core.
  bool concretizeInstruction(InstructionOpInterface instruction) {
    Operation *op = instruction;
    if (IntegerSetAttr mask = instruction.getMaskAttr()) {
      auto [known, isNew] = maskHolds.try_emplace(mask, false);
      if (isNew)
        known->second = isMaskTrueAt(mask.getValue(), target.core);
      if (!known->second)
        return false;
      // It runs here, so the mask is now always true: drop it.
      op->removeAttr(maskName);
    }
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses) {
      AccessPatternAttr pattern = access.getPattern();
      // Most patterns are physical already: nothing to bind.
      if (isa<PhysicalAccessPatternAttr>(pattern))
        continue;
      AccessPatternAttr &bound = boundPatterns[pattern];
      if (!bound)
        bound = bindShard(pattern, target.core);
      access.setPattern(bound);
    }
    // Shard-dependent geometry carried on the op itself.
    if (auto collective = dyn_cast<CollectiveOp>(op)) {
      if (AffineMapAttr offset = collective.getShardOffsetAttr())
        collective.setShardOffsetAttr(
            AffineMapAttr::get(bindShard(offset.getValue(), target.core)));
    } else if (auto copy = dyn_cast<Sb2SbOp>(op)) {
      copy.setPeer(bindShard(copy.getPeer(), target.core));
    }
    return true;
  }

  CoreModule &target;
  // Patterns and masks are uniqued attributes shared by many instructions:
  // each is bound or evaluated once per core.
  DenseMap<Attribute, AccessPatternAttr> boundPatterns;
  DenseMap<Attribute, bool> maskHolds;
  StringAttr maskName;
};

struct LncSplitPass : walrus::impl::LncSplitBase<LncSplitPass> {
  using LncSplitBase::LncSplitBase;

  void runOnOperation() override;

private:
  static bool isSymbolic(ModuleOp module) { return !getNeuronCoreId(module); }
  int64_t getLncSizeOf(ModuleOp module) {
    return lncSizeOverride > 0 ? lncSizeOverride.getValue()
                               : getLncSize(module);
  }
  static std::string coreModuleName(std::optional<StringRef> name,
                                    int64_t core);
  ModuleOp nestTopLevelModule(ModuleOp top);
  FailureOr<ModuleOp> cloneModule(ModuleOp module);
};
} // namespace

std::string LncSplitPass::coreModuleName(std::optional<StringRef> name,
                                         int64_t core) {
  std::string coreName = llvm::formatv("nc{0:2}", core).str();
  std::replace(coreName.begin(), coreName.end(), ' ', '0');
  if (!name)
    return coreName;
  size_t at = name->find("nc_symbolic");
  if (at == StringRef::npos)
    return (*name + "_" + coreName).str();
  return (name->take_front(at) + coreName +
          name->drop_front(at + StringRef("nc_symbolic").size()))
      .str();
}

/// Moves the contents and bir attributes of a top-level symbolic module into
/// a module nested in it, which the split then replaces by per-core modules.
ModuleOp LncSplitPass::nestTopLevelModule(ModuleOp top) {
  OpBuilder builder(top.getContext());
  auto nested = ModuleOp::create(top.getLoc(), top.getName());
  for (NamedAttribute attr : llvm::to_vector(top->getDiscardableAttrs())) {
    if (attr.getName().getValue().starts_with("bir.")) {
      nested->setAttr(attr.getName(), attr.getValue());
      top->removeAttr(attr.getName());
    }
  }
  nested.getBody()->getOperations().splice(nested.getBody()->begin(),
                                           top.getBody()->getOperations());
  top.setSymNameAttr(nullptr);
  top.getBody()->push_back(nested);
  return nested;
}

/// `Operation::clone`, or with `roundtrip-clones` the clone written to
/// bytecode and parsed back, checked to print exactly like the original.
FailureOr<ModuleOp> LncSplitPass::cloneModule(ModuleOp module) {
  ModuleOp clone = cast<ModuleOp>(module->clone());
  if (!roundtripClones)
    return clone;
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (failed(writeBytecodeToFile(clone, os))) {
    clone->erase();
    return module.emitError("lnc-split: cannot write the clone as bytecode");
  }
  clone->erase();
  ParserConfig config(module.getContext());
  Block parsed;
  if (failed(parseSourceString(bytecode, &parsed, config)) ||
      !llvm::hasSingleElement(parsed) || !isa<ModuleOp>(parsed.front()))
    return module.emitError(
        "lnc-split: the bytecode of the clone does not parse back");
  auto roundTripped = cast<ModuleOp>(parsed.front());
  roundTripped->remove();
  auto print = [](Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os, OpPrintingFlags()
                      .printGenericOpForm()
                      .enableDebugInfo()
                      .useLocalScope());
    return text;
  };
  if (print(roundTripped) != print(module)) {
    roundTripped->erase();
    return module.emitError(
        "lnc-split: the clone changed in its bytecode round trip");
  }
  return roundTripped;
}

/// Fails when the host refers to `module` by symbol: the split replaces it
/// by per-core modules, so the reference would dangle.
static LogicalResult expectUnreferenced(ModuleOp module) {
  Operation *table = SymbolTable::getNearestSymbolTable(module->getParentOp());
  if (!module.getName() || !table)
    return success();
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(module, table);
  if (!uses || uses->empty())
    return success();
  return uses->begin()
      ->getUser()
      ->emitError("lnc-split: this refers to kernel module @")
      .append(*module.getName(),
              ", which the split replaces by its per-core modules; "
              "put the kernel in a bir.kernel, whose symbol stays")
      .attachNote(module.getLoc())
      .append("the kernel module");
}

void LncSplitPass::runOnOperation() {
  ModuleOp top = getOperation();
  if (lncSizeOverride < 0) {
    top.emitError("lnc-split: lnc-size must not be negative, got ")
        << lncSizeOverride.getValue();
    return signalPassFailure();
  }

  // The symbolic modules to split, wherever the kernel rule finds them.
  FailureOr<SmallVector<ModuleOp>> programs = findProgramModules(top);
  if (failed(programs))
    return signalPassFailure();
  SmallVector<ModuleOp> symbolic;
  for (ModuleOp module : *programs) {
    if (!isSymbolic(module) || getLncSizeOf(module) <= 1)
      continue;
    if (module != top && isa<ModuleOp>(module->getParentOp()) &&
        failed(expectUnreferenced(module)))
      return signalPassFailure();
    symbolic.push_back(module == top ? nestTopLevelModule(top) : module);
  }
  if (symbolic.empty())
    return markAllAnalysesPreserved();

  // An lnc-size override asks for cores the op verifiers did not check.
  for (ModuleOp module : symbolic) {
    int64_t lncSize = getLncSizeOf(module);
    if (lncSize == getLncSize(module))
      continue;
    SmallVector<int64_t> shards =
        llvm::to_vector(llvm::seq<int64_t>(0, lncSize));
    WalkResult walk = module.walk([&](InstructionOpInterface instruction) {
      return failed(verifyForCores(instruction, shards, lncSize))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
  }

  // Plan the names first: a clash must fail before the IR changes. The
  // per-core modules take the symbolic one's place in its block.
  DenseMap<Block *, llvm::StringSet<>> taken;
  for (ModuleOp module : symbolic) {
    llvm::StringSet<> &names = taken[module->getBlock()];
    if (!names.empty())
      continue;
    for (Operation &op : *module->getBlock())
      if (!llvm::is_contained(symbolic, &op))
        if (auto name =
                op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
          names.insert(name.getValue());
  }
  std::vector<CoreModule> cores;
  for (ModuleOp module : symbolic) {
    int64_t lncSize = getLncSizeOf(module);
    for (int64_t core = 0; core < lncSize; ++core) {
      std::string name = coreModuleName(module.getName(), core);
      if (!taken[module->getBlock()].insert(name).second) {
        module.emitError("lnc-split: per-core module name '")
            << name << "' is already taken";
        return signalPassFailure();
      }
      cores.push_back({module, core, lncSize, name});
    }
  }

  // Clone: cores 0 .. N-2 get clones, made in parallel from the untouched
  // originals and placed before them; the original becomes core N-1.
  SmallVector<CoreModule *> toClone;
  for (CoreModule &core : cores)
    if (core.core != core.lncSize - 1)
      toClone.push_back(&core);
  SmallVector<ModuleOp> clones(toClone.size());
  if (roundtripClones) {
    for (auto [core, clone] : llvm::zip(toClone, clones)) {
      FailureOr<ModuleOp> roundTripped = cloneModule(core->module);
      if (failed(roundTripped))
        return signalPassFailure();
      clone = *roundTripped;
    }
  } else {
    parallelFor(&getContext(), 0, toClone.size(), [&](size_t index) {
      clones[index] = cast<ModuleOp>(toClone[index]->module->clone());
    });
  }
  for (auto [core, clone] : llvm::zip(toClone, clones)) {
    core->module->getBlock()->getOperations().insert(
        Block::iterator(core->module), clone);
    core->module = clone;
    ++numClones;
  }
  for (CoreModule &core : cores) {
    MLIRContext *context = &getContext();
    core.module.setSymName(core.name);
    core.module->setAttr(
        BIRDialect::kNeuronCoreIdAttrName,
        IntegerAttr::get(IntegerType::get(context, 64), core.core));
    core.module->setAttr(
        BIRDialect::kLncSizeAttrName,
        IntegerAttr::get(IntegerType::get(context, 64), core.lncSize));
  }

  // Concretize: the per-core modules are independent.
  parallelForEach(&getContext(), cores,
                  [](CoreModule &core) { Concretizer(core).run(); });

  unsigned numPruned = 0;
  for (CoreModule &core : cores) {
    numPrunedInstructions += core.numPrunedInstructions;
    numPrunedLoops += core.numPrunedLoops;
    numPruned += core.numPrunedInstructions;
    LLVM_DEBUG(llvm::dbgs() << "lnc-split: " << core.name << " pruned "
                            << core.numPrunedInstructions << " of "
                            << core.numInstructions << " instructions\n");
    if (report)
      emitRemark(core.module.getLoc())
          << "lnc-split: core " << core.core << " of " << core.lncSize
          << " keeps " << core.numInstructions - core.numPrunedInstructions
          << " of " << core.numInstructions << " instructions; pruned "
          << core.numPrunedInstructions << " instruction(s) and "
          << core.numPrunedLoops << " loop(s)";
  }
  if (report)
    emitRemark(top.getLoc())
        << "lnc-split: split " << symbolic.size() << " symbolic module(s) into "
        << cores.size() << " core modules with "
        << cores.size() - symbolic.size() << " clone(s); pruned " << numPruned
        << " instruction(s) in all";
}
