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
  walrus::registerMiniMallocTranslations();
  std::vector<char *> args = walrus::tools::withQuietDiagnostics(argc, argv);
  if (!walrus::tools::checkFileArguments("walrus-translate", args))
    return 1;
  return mlir::failed(mlir::mlirTranslateMain(int(args.size()), args.data(),
                                              "Walrus translation driver"));
}
