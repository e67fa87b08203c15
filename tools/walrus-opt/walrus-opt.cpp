//===- walrus-opt.cpp - The Walrus optimizer driver -----------------------===//
//
// mlir-opt for the bir dialect and the host modules kernels live in: parses,
// verifies and runs Walrus passes with all of MLIR's usual flags. The
// upstream dialects of a host module (func, arith, linalg, ...) are
// registered, with MLIR's generic transforms (-canonicalize, -cse, ...) and
// bufferization passes (-one-shot-bufferize), and the test-only passes
// (-test-walrus-*) that embedders do not get.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "ToolSupport.h"
#include "Walrus/Walrus.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  std::vector<char *> args = walrus::tools::withQuietDiagnostics(argc, argv);
  walrus::registerWalrusPasses();
  walrus::registerWalrusConversionPasses();
  walrus::registerWalrusPipelines();
  walrus::test::registerWalrusTestPasses();
  mlir::registerTransformsPasses();
  mlir::bufferization::registerBufferizationPasses();
  mlir::DialectRegistry registry;
  walrus::registerWalrusDialects(registry);
  walrus::registerHostDialects(registry);
  auto [input, output] = mlir::registerAndParseCLIOptions(
      int(args.size()), args.data(), "Walrus optimizer driver\n", registry);
  // A context of its own: MlirOptMain makes the one it runs in.
  mlir::MLIRContext checkContext;
  if (!walrus::tools::checkFiles("walrus-opt", input, output, checkContext))
    return 1;
  return mlir::asMainReturnCode(mlir::MlirOptMain(int(args.size()), args.data(),
                                                  input, output, registry));
}
