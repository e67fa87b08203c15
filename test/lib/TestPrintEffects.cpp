//===- TestPrintEffects.cpp - The -test-walrus-print-effects pass ---------===//

#include "TestPasses.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/raw_ostream.h"

namespace walrus::test {
#define GEN_PASS_DEF_TESTPRINTEFFECTS
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

static StringRef getKindName(AccessKind kind) {
  switch (kind) {
  case AccessKind::Read:
    return "read";
  case AccessKind::Write:
    return "write";
  case AccessKind::ReadWrite:
    return "read-write";
  }
  return "";
}

static void printEffects(Operation *op, raw_ostream &os) {
  auto interface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!interface) {
    os << " unknown";
    return;
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  interface.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects)
    os << " "
       << (isa<MemoryEffects::Read>(effect.getEffect()) ? "read" : "write")
       << " '" << getDefiningMemloc(effect.getValue()).getName() << "'";
}

namespace {
struct TestPrintEffectsPass
    : walrus::test::impl::TestPrintEffectsBase<TestPrintEffectsPass> {
  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    LogicalResult found = forEachKernelFunc(getOperation(), [&](FuncOp func) {
      func.walk([&](InstructionOpInterface instruction) {
        os << instruction->getName() << ": effects";
        printEffects(instruction, os);
        os << "; accesses";
        SmallVector<Access> accesses;
        instruction.getAccesses(accesses);
        for (const Access &access : accesses)
          os << " " << getKindName(access.kind) << " "
             << access.patternName.getValue();
        os << "\n";
      });
    });
    if (failed(found))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
