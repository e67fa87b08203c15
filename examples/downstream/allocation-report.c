/* A C tool embedding Walrus through its C API (Walrus::WalrusCAPI, which
 * brings MLIR's C API with it): parses a host module, runs the whole
 * pipeline and prints each kernel function's peak and lower bound. */
#include "Walrus-c/Walrus.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>
#include <stdlib.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static void report(MlirOperation func, void *userData) {
  (void)userData;
  WalrusAllocation allocation = walrusAllocationGet(func);
  print(walrusAllocationGetFunction(allocation), stdout);
  printf(": %lld tensors, peak %lld B/partition, lower bound %lld\n",
         (long long)walrusAllocationGetNumTensors(allocation),
         (long long)walrusAllocationGetPeak(allocation),
         (long long)walrusAllocationGetLowerBound(allocation));
  walrusAllocationDestroy(allocation);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <host module .mlir>\n", argv[0]);
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (!file)
    return 2;
  static char text[1 << 20];
  size_t size = fread(text, 1, sizeof(text) - 1, file);
  fclose(file);
  text[size] = 0;

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__bir__(), registry);
  walrusRegisterHostDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  walrusRegisterPipelines();
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(context);
  int status = 0;
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString("builtin.module(walrus-pipeline)"),
          print, stderr)) ||
      mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))) ||
      mlirLogicalResultIsFailure(walrusWalkKernelFunctions(
          mlirModuleGetOperation(module), report, NULL)))
    status = 1;
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return status;
}
