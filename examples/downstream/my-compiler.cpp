// An MLIR-based compiler driver with Walrus embedded: its own host dialects
// (here the upstream ones Walrus's tools register), the bir dialect, the
// Walrus passes and -walrus-pipeline, next to everything MlirOptMain
// offers. It reads host modules that hold kernels in bir.kernel ops.
#include "Walrus/Walrus.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  walrus::registerHostDialects(registry);
  walrus::registerWalrusDialects(registry);
  walrus::registerWalrusPasses();
  walrus::registerWalrusConversionPasses();
  walrus::registerWalrusPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "my compiler, with Walrus\n", registry));
}
