//===- walrus-lsp-server.cpp - MLIR language server for bir ---------------===//
//
// MLIR's LSP server with the bir dialect and the upstream dialects of host
// modules registered: diagnostics, hover, go-to-definition and outlines for
// .mlir files in any LSP-capable editor.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Walrus.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  walrus::registerWalrusDialects(registry);
  walrus::registerHostDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
