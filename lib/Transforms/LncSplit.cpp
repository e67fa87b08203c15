//===- LncSplit.cpp - The -lnc-split pass ---------------------------------===//
//
// Clone -> concretize -> prune, after the reference LncSplitter: one
// symbolic module written for lnc_size logical cores becomes lnc_size
// per-core modules with the shard id bound, off-core instructions deleted
// and no shard symbol left. The reference:
// docs/Reference.md, the split page, sections 2-6.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Dialect/BIR/IR/ShardBinding.h"
#include "Walrus/Support/ListedOptions.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/IRMapping.h"
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

/// Binds the shard id of one core and prunes what does not run there,
/// either in place or while copying the symbolic module. Access patterns
/// are uniqued attributes shared by many instructions, so each is bound
/// once.
class Concretizer {
public:
  explicit Concretizer(CoreModule &target)
      : target(target),
        maskName(StringAttr::get(target.module.getContext(), "mask")) {}

  /// Concretizes `target.module` in place.
  void run() {
    for (FuncOp func : target.module.getOps<FuncOp>())
      concretizeBlock(func.getBody().front());
  }

  /// Builds the core's module from `source` without changing it, so that
  /// several cores can be built from it at once: an instruction that does
  /// not run on the core is never copied, and a kept one is bound while it
  /// is still in cache.
  ModuleOp copyFrom(ModuleOp source) {
    IRMapping mapping;
    auto module = cast<ModuleOp>(copyWithoutRegions(*source, mapping));
    copyRegions(*source, *module, mapping);
    return module;
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
      if (!runsHere(instruction)) {
        ++target.numPrunedInstructions;
        op.erase();
        continue;
      }
      bind(instruction);
      anyLeft = true;
    }
    return anyLeft;
  }

  /// `Operation::clone` without regions, and without recording the
  /// operation in `mapping`: only values are looked up.
  static Operation *copyWithoutRegions(Operation &op, IRMapping &mapping) {
    SmallVector<Value, 4> operands;
    for (Value operand : op.getOperands())
      operands.push_back(mapping.lookupOrDefault(operand));
    Operation *copy = Operation::create(
        op.getLoc(), op.getName(), op.getResultTypes(), operands,
        op.getRawDictionaryAttrs(), op.getPropertiesStorage(), BlockRange(),
        op.getNumRegions());
    mapping.map(op.getResults(), copy->getResults());
    return copy;
  }

  void copyRegions(Operation &from, Operation &to, IRMapping &mapping) {
    for (auto [source, copy] : llvm::zip(from.getRegions(), to.getRegions()))
      for (Block &block : source) {
        auto *copyBlock = new Block();
        copy.push_back(copyBlock);
        for (BlockArgument argument : block.getArguments())
          mapping.map(argument, copyBlock->addArgument(argument.getType(),
                                                       argument.getLoc()));
        copyBlockInto(block, *copyBlock, mapping);
      }
  }

  /// The copying form of `concretizeBlock`: returns whether any
  /// instruction was copied into `to`.
  bool copyBlockInto(Block &from, Block &to, IRMapping &mapping) {
    bool anyLeft = false;
    for (Operation &op : from) {
      auto instruction = dyn_cast<InstructionOpInterface>(op);
      if (instruction) {
        ++target.numInstructions;
        if (!runsHere(instruction)) {
          ++target.numPrunedInstructions;
          continue;
        }
      }
      Operation *copy = copyWithoutRegions(op, mapping);
      if (instruction) {
        bind(cast<InstructionOpInterface>(copy));
      } else if (isa<LoopOp>(op)) {
        copyRegions(op, *copy, mapping);
        if (!hasInstructions(cast<LoopOp>(copy))) {
          ++target.numPrunedLoops;
          copy->destroy();
          continue;
        }
      } else {
        copyRegions(op, *copy, mapping);
      }
      to.push_back(copy);
      anyLeft = true;
    }
    return anyLeft;
  }

  static bool hasInstructions(LoopOp loop) {
    return !loop.getBody().front().empty();
  }

  /// Whether the instruction runs on this core.
  bool runsHere(InstructionOpInterface instruction) {
    IntegerSetAttr mask = instruction.getMaskAttr();
    if (!mask)
      return true;
    auto [known, isNew] = maskHolds.try_emplace(mask, false);
    if (isNew)
      known->second = isMaskTrueAt(mask.getValue(), target.core);
    return known->second;
  }

  /// Binds the shard id in an instruction that runs on this core.
  void bind(InstructionOpInterface instruction) {
    Operation *op = instruction;
    // It runs here, so the mask is now always true: drop it.
    if (instruction.getMaskAttr())
      op->removeAttr(maskName);
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
  }

  CoreModule &target;
  // Patterns and masks are uniqued attributes shared by many instructions:
  // each is bound or evaluated once per core.
  DenseMap<Attribute, AccessPatternAttr> boundPatterns;
  DenseMap<Attribute, bool> maskHolds;
  StringAttr maskName;
};

struct LncSplitPass : ListedOptions<walrus::impl::LncSplitBase<LncSplitPass>> {
  using ListedOptions::ListedOptions;

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

  /// The symbolic modules to split, wherever the kernel rule finds them (a
  /// top-level one nested first, so that its cores have a block to go to).
  FailureOr<SmallVector<ModuleOp>> collectSymbolic(ModuleOp top);
  /// Verifies the instructions again for the cores an lnc-size override
  /// asks for (the op verifiers checked bir.lnc_size's).
  LogicalResult verifyOverride(ArrayRef<ModuleOp> symbolic);
  /// A core per (module, core id), with its free `nc<i>` name; fails
  /// before any change when a name is taken.
  FailureOr<std::vector<CoreModule>> planCores(ArrayRef<ModuleOp> symbolic);
  /// Clones and concretizes every core module (cores 0 .. N-2 as copies
  /// placed before the symbolic module, which becomes core N-1).
  LogicalResult buildCores(MutableArrayRef<CoreModule> cores);
  /// Statistics, and with `report` a remark per core and one in all.
  void reportCores(ModuleOp top, ArrayRef<CoreModule> cores,
                   size_t numSymbolic);
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
    if (attr.getName().getValue().starts_with(
            (BIRDialect::getDialectNamespace() + ".").str())) {
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

FailureOr<SmallVector<ModuleOp>> LncSplitPass::collectSymbolic(ModuleOp top) {
  FailureOr<SmallVector<ModuleOp>> programs = findProgramModules(top);
  if (failed(programs))
    return failure();
  SmallVector<ModuleOp> symbolic;
  for (ModuleOp module : *programs) {
    if (!isSymbolic(module) || getLncSizeOf(module) <= 1)
      continue;
    if (module != top && isa<ModuleOp>(module->getParentOp()) &&
        failed(expectUnreferenced(module)))
      return failure();
    symbolic.push_back(module == top ? nestTopLevelModule(top) : module);
  }
  return symbolic;
}

LogicalResult LncSplitPass::verifyOverride(ArrayRef<ModuleOp> symbolic) {
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
      return failure();
  }
  return success();
}

FailureOr<std::vector<CoreModule>>
LncSplitPass::planCores(ArrayRef<ModuleOp> symbolic) {
  // The per-core modules take the symbolic one's place in its block.
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
      if (!taken[module->getBlock()].insert(name).second)
        return module.emitError("lnc-split: per-core module name '")
               << name << "' is already taken";
      cores.push_back({module, core, lncSize, name});
    }
  }
  return cores;
}

LogicalResult LncSplitPass::buildCores(MutableArrayRef<CoreModule> cores) {
  // Cores 0 .. N-2 are built from the untouched symbolic modules, all at
  // once, and placed before them; then each symbolic module becomes its
  // core N-1 in place.
  SmallVector<CoreModule *> copies;
  for (CoreModule &core : cores)
    if (core.core != core.lncSize - 1)
      copies.push_back(&core);
  SmallVector<ModuleOp> built(copies.size());
  if (roundtripClones) {
    for (auto [core, module] : llvm::zip(copies, built)) {
      FailureOr<ModuleOp> roundTripped = cloneModule(core->module);
      if (failed(roundTripped))
        return failure();
      module = *roundTripped;
    }
  } else {
    parallelFor(&getContext(), 0, copies.size(), [&](size_t index) {
      built[index] =
          Concretizer(*copies[index]).copyFrom(copies[index]->module);
    });
  }
  for (auto [core, module] : llvm::zip(copies, built)) {
    core->module->getBlock()->getOperations().insert(
        Block::iterator(core->module), module);
    core->module = module;
    ++numClones;
  }
  // What is still symbolic is concretized in place, the cores in parallel.
  SmallVector<CoreModule *> inPlace;
  for (CoreModule &core : cores)
    if (roundtripClones || core.core == core.lncSize - 1)
      inPlace.push_back(&core);
  parallelForEach(&getContext(), inPlace,
                  [](CoreModule *core) { Concretizer(*core).run(); });
  MLIRContext *context = &getContext();
  for (CoreModule &core : cores) {
    core.module.setSymName(core.name);
    core.module->setAttr(
        BIRDialect::kNeuronCoreIdAttrName,
        IntegerAttr::get(IntegerType::get(context, 64), core.core));
    core.module->setAttr(
        BIRDialect::kLncSizeAttrName,
        IntegerAttr::get(IntegerType::get(context, 64), core.lncSize));
  }
  return success();
}

void LncSplitPass::reportCores(ModuleOp top, ArrayRef<CoreModule> cores,
                               size_t numSymbolic) {
  unsigned numPruned = 0;
  for (const CoreModule &core : cores) {
    numPrunedInstructions += core.numPrunedInstructions;
    numPrunedLoops += core.numPrunedLoops;
    numPruned += core.numPrunedInstructions;
    LLVM_DEBUG(llvm::dbgs() << "lnc-split: " << core.name << " pruned "
                            << core.numPrunedInstructions << " of "
                            << core.numInstructions << " instructions\n");
    if (report)
      emitRemark(core.module->getLoc())
          << "lnc-split: core " << core.core << " of " << core.lncSize
          << " keeps " << core.numInstructions - core.numPrunedInstructions
          << " of " << core.numInstructions << " instructions; pruned "
          << core.numPrunedInstructions << " instruction(s) and "
          << core.numPrunedLoops << " loop(s)";
  }
  if (report)
    emitRemark(top.getLoc())
        << "lnc-split: split " << numSymbolic << " symbolic module(s) into "
        << cores.size() << " core modules with " << cores.size() - numSymbolic
        << " clone(s); pruned " << numPruned << " instruction(s) in all";
}

void LncSplitPass::runOnOperation() {
  ModuleOp top = getOperation();
  if (failed(checkLncSizeOption(top, "lnc-split", lncSizeOverride)))
    return signalPassFailure();
  FailureOr<SmallVector<ModuleOp>> symbolic = collectSymbolic(top);
  if (failed(symbolic))
    return signalPassFailure();
  if (symbolic->empty())
    return markAllAnalysesPreserved();
  // Checks and names first: a failure leaves the IR as it was.
  if (failed(verifyOverride(*symbolic)))
    return signalPassFailure();
  FailureOr<std::vector<CoreModule>> cores = planCores(*symbolic);
  if (failed(cores) || failed(buildCores(*cores)))
    return signalPassFailure();
  reportCores(top, *cores, symbolic->size());
}
