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
#include "Walrus/Walrus.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

/// `argv` with `--mlir-print-op-on-diagnostic=false` unless the user set
/// that flag: an error in a pass names its location; dumping the whole
/// operation after it (MLIR's default) buries the error under the IR.
static std::vector<char *> withQuietDiagnostics(int argc, char **argv) {
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  std::vector<char *> args(argv, argv + argc);
  bool userSet = llvm::any_of(args, [](llvm::StringRef arg) {
    return arg.ltrim('-').starts_with("mlir-print-op-on-diagnostic");
  });
  if (!userSet)
    args.insert(args.begin() + 1, quiet);
  return args;
}

int main(int argc, char **argv) {
  std::vector<char *> args = withQuietDiagnostics(argc, argv);
  walrus::registerWalrusPasses();
  walrus::registerWalrusPipelines();
  walrus::test::registerWalrusTestPasses();
  mlir::registerTransformsPasses();
  mlir::bufferization::registerBufferizationPasses();
  mlir::DialectRegistry registry;
  walrus::registerWalrusDialects(registry);
  walrus::registerHostDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      int(args.size()), args.data(), "Walrus optimizer driver\n", registry));
}
