//===- TranslateRegistration.cpp - walrus-translate's translations --------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Target/MiniMalloc.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

void walrus::registerMiniMallocTranslations() {
  static llvm::cl::opt<int64_t> capacity(
      "minimalloc-capacity",
      llvm::cl::desc("SBUF bytes per partition of the imported program's "
                     "target (default: the sum of all sizes)"),
      llvm::cl::init(0));
  static TranslateToMLIRRegistration importCsv(
      "import-minimalloc-csv",
      "MiniMalloc CSV (id,lower,upper,size) to a BIR program with those "
      "SBUF live ranges",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        if (capacity < 0) {
          emitError(UnknownLoc::get(context))
              << "--minimalloc-capacity must not be negative";
          return OwningOpRef<Operation *>();
        }
        return OwningOpRef<Operation *>(
            importMiniMallocCsv(sourceMgr, context, capacity).release());
      },
      [](DialectRegistry &registry) { registry.insert<bir::BIRDialect>(); });
  static TranslateFromMLIRRegistration exportCsv(
      "export-minimalloc-csv",
      "an allocated BIR program made by --import-minimalloc-csv to "
      "MiniMalloc CSV with offsets (id,lower,upper,size,offset)",
      [](ModuleOp module, llvm::raw_ostream &output) {
        return exportMiniMallocCsv(module, output);
      },
      [](DialectRegistry &registry) { registry.insert<bir::BIRDialect>(); });
}
