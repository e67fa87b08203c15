//===- walrus-translate.cpp - Walrus's mlir-translate ---------------------===//
//
// Translations between BIR and other formats: today the MiniMalloc CSV
// static-allocation problems (--import-minimalloc-csv,
// --export-minimalloc-csv).
//
//===----------------------------------------------------------------------===//

#include "Walrus/Target/MiniMalloc.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  walrus::registerMiniMallocTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Walrus translation driver"));
}
