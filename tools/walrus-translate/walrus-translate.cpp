//===- walrus-translate.cpp - Walrus's mlir-translate ---------------------===//
//
// Translations between BIR and other formats: today the MiniMalloc CSV
// static-allocation problems (--import-minimalloc-csv,
// --export-minimalloc-csv).
//
//===----------------------------------------------------------------------===//

#include "ToolSupport.h"
#include "Walrus/Target/MiniMalloc.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  walrus::tools::introduceTool();
  walrus::registerMiniMallocTranslations();
  std::vector<char *> args = walrus::tools::withQuietDiagnostics(argc, argv);
  std::string output;
  if (!walrus::tools::checkFileArguments("walrus-translate", args, &output))
    return 1;
  walrus::tools::reportWriteFailures("walrus-translate", output);
  return walrus::tools::checkStandardOutput(
      "walrus-translate",
      mlir::failed(mlir::mlirTranslateMain(int(args.size()), args.data(),
                                           "Walrus translation driver")));
}
