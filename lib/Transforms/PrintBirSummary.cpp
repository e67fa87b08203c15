//===- PrintBirSummary.cpp - The -print-bir-summary pass ------------------===//
//
// Prints what a BIR program holds: per module its core and target, per
// function its tensors by memory and its instructions by kind.
//
//===----------------------------------------------------------------------===//

#include "FunctionPass.h"

#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Transforms/Passes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace walrus {
#define GEN_PASS_DEF_PRINTBIRSUMMARY
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct MemorySummary {
  unsigned tensors = 0, placed = 0;
  int64_t peak = 0;              // placed: highest byte reached
  int64_t bytesPerPartition = 0; // on-chip: summed declared footprint
  int64_t bytes = 0;             // all: summed total size
};

struct PrintBirSummaryPass
    : FunctionPass<walrus::impl::PrintBirSummaryBase<PrintBirSummaryPass>> {
  LogicalResult beforeFunctions(ArrayRef<ModuleOp> programs) override {
    modules.assign(programs.begin(), programs.end());
    texts = std::make_shared<FunctionResults<std::string>>(programs);
    return success();
  }

  void runOnFunction(FuncOp func) override {
    std::string text;
    llvm::raw_string_ostream os(text);
    auto module = cast<ModuleOp>(func->getParentOp());
    if (!texts)
      printModuleLine(os, module);
    printFunc(os, func, getTarget(module));
    markAllAnalysesPreserved();
    if (texts)
      return texts->add(func, std::move(text));
    llvm::outs() << text;
    llvm::outs().flush();
  }

  /// Each module's line, then its functions', in program order.
  LogicalResult afterFunctions() override {
    std::vector<std::string> ordered = texts->take();
    auto next = ordered.begin();
    raw_ostream &os = llvm::outs();
    for (ModuleOp module : modules) {
      printModuleLine(os, module);
      for (size_t count = llvm::range_size(module.getOps<FuncOp>()); count;
           --count)
        os << *next++;
    }
    os.flush();
    return success();
  }

  void printModuleLine(raw_ostream &os, ModuleOp module) {
    TargetAttr target = getTarget(module);
    if (auto kernel = dyn_cast_if_present<KernelOp>(module->getParentOp()))
      os << "kernel @" << kernel.getSymName() << ", ";
    os << "module @" << module.getName().value_or("<anonymous>") << ": ";
    if (std::optional<int64_t> core = getNeuronCoreId(module))
      os << "core " << *core << " of " << getLncSize(module);
    else
      os << "symbolic over " << getLncSize(module) << " core(s)";
    os << ", target " << target.getName() << " (" << target.getSbufPartitions()
       << " x " << target.getSbufBytesPerPartition() << " B SBUF)\n";
  }

  void printFunc(raw_ostream &os, FuncOp func, TargetAttr target) {
    MemorySummary memories[3];
    unsigned numMemlocs = 0, numInstructions = 0, numLoops = 0, numMasked = 0;
    std::map<StringRef, unsigned> byKind; // sorted by kind
    func.walk([&](Operation *op) {
      if (auto memloc = dyn_cast<MemlocOp>(op)) {
        ++numMemlocs;
        MemoryType type = memloc.getMemoryType();
        MemorySummary &memory =
            memories[static_cast<unsigned>(type.getMemorySpace())];
        ++memory.tensors;
        memory.bytesPerPartition += type.getBytesPerPartition();
        if (std::optional<uint64_t> address = memloc.getAddress()) {
          ++memory.placed;
          memory.peak = std::max<int64_t>(
              memory.peak, *address + type.getBytesPerPartition());
        }
        memory.bytes += type.getNumElements() * type.getElementBytes();
      } else if (isa<LoopOp>(op)) {
        ++numLoops;
      } else if (auto instruction = dyn_cast<InstructionOpInterface>(op)) {
        ++numInstructions;
        numMasked += bool(instruction.getMaskAttr());
        ++byKind[op->getName().stripDialect()];
      }
    });
    os << "  func @" << func.getSymName() << ": " << numMemlocs << " memlocs, "
       << numInstructions << " instructions (" << numLoops << " loops, "
       << numMasked << " masked)\n";
    for (MemorySpace space :
         {MemorySpace::SBUF, MemorySpace::PSUM, MemorySpace::DRAM}) {
      const MemorySummary &memory = memories[static_cast<unsigned>(space)];
      if (!memory.tensors)
        continue;
      os << "    " << stringifyMemorySpace(space) << ": " << memory.tensors
         << " tensor(s), ";
      if (space == MemorySpace::DRAM) {
        os << memory.bytes << " B\n";
        continue;
      }
      int64_t capacity = space == MemorySpace::SBUF
                             ? target.getSbufBytesPerPartition()
                             : target.getPsumBytesPerPartition();
      os << memory.bytesPerPartition << " B/partition declared ("
         << llvm::format("%.1f", 100.0 * memory.bytesPerPartition / capacity)
         << "% of " << capacity << ")";
      if (memory.placed == memory.tensors)
        os << ", placed: peak " << memory.peak << " B/partition";
      os << "\n";
    }
    os << "    instructions:";
    if (byKind.empty())
      os << " none";
    for (auto [kind, count] : byKind)
      os << ' ' << kind << '=' << count;
    os << '\n';
  }
  SmallVector<ModuleOp> modules;
  std::shared_ptr<FunctionResults<std::string>> texts;
};
} // namespace
