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

#include "ForeignDialects.h"
#include "TestPasses.h"
#include "ToolSupport.h"
#include "Walrus/Support/FileOutput.h"
#include "Walrus/Walrus.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

using namespace mlir;

/// What MlirOptMain does with the files, except that a failed write of the
/// output (a full disk) is an error of the tool: MLIR's driver leaves it to
/// the stream's destructor, which aborts.
static LogicalResult runOnFiles(StringRef input, StringRef output,
                                DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: "
                 << llvm::join(registry.getDialectNames(), ", ") << "\n";
    return success();
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return success();
  }
  if (input == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(input, &error);
  std::unique_ptr<llvm::ToolOutputFile> out =
      file ? openOutputFile(output, &error) : nullptr;
  if (!out)
    return failure(!walrus::tools::toolError("walrus-opt", error));
  LogicalResult result =
      MlirOptMain(out->os(), std::move(file), registry, config);
  std::error_code code = walrus::takeError(out->os());
  if (failed(result))
    return failure();
  if (code)
    return failure(!walrus::tools::toolError(
        "walrus-opt", "cannot write " + walrus::tools::describeOutput(output) +
                          ": " + code.message()));
  out->keep();
  return success();
}

int main(int argc, char **argv) {
  walrus::tools::introduceTool();
  std::vector<char *> args = walrus::tools::withQuietDiagnostics(argc, argv);
  walrus::registerWalrusPasses();
  walrus::registerWalrusConversionPasses();
  walrus::registerWalrusPipelines();
  walrus::test::registerWalrusTestPasses();
  registerTransformsPasses();
  bufferization::registerBufferizationPasses();
  DialectRegistry registry;
  walrus::registerWalrusDialects(registry);
  walrus::registerHostDialects(registry);
  registry.insert<walrus::tools::TorchPlaceholderDialect>();
  auto [input, output] = registerAndParseCLIOptions(
      int(args.size()), args.data(), "Walrus optimizer driver\n", registry);
  // A context of its own: MlirOptMain makes the one it runs in.
  MLIRContext checkContext;
  if (!walrus::tools::checkFiles("walrus-opt", input, output, checkContext))
    return 1;
  return walrus::tools::checkStandardOutput(
      "walrus-opt", asMainReturnCode(runOnFiles(input, output, registry)));
}
