//===- walrus-opt.cpp - The Walrus optimizer driver -----------------------===//
//
// mlir-opt for the bir dialect: parses, verifies and runs Walrus passes with
// all of MLIR's usual flags.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"
#include "Walrus/Transforms/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  walrus::registerWalrusPasses();
  walrus::registerWalrusPipelines();
  mlir::DialectRegistry registry;
  registry.insert<walrus::bir::BIRDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Walrus optimizer driver\n", registry));
}
