/*===- walrus-capi-test.c - The Walrus C API from C ----------------------===*/
/* RUN by test/CAPI/capi.test. */

#include "Walrus-c/Walrus.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stdio.h>

static void print(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static const char *kProgram =
    "module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {\n"
    "  bir.func @main {\n"
    "    %x = bir.memloc \"x\" input : !bir.dram<256x512xbf16>\n"
    "    %t = bir.memloc \"t\" internal : !bir.sbuf<128x512xbf16>\n"
    "    bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>], "
    "%x[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>] "
    ": !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>\n"
    "  }\n"
    "}\n";

/* A host function around a kernel: needs the host dialects. */
static const char *kHost =
    "module @host {\n"
    "  func.func @forward(%x: memref<4x8xf32>) {\n"
    "    bir.launch @k(%x) : memref<4x8xf32>\n"
    "    return\n"
    "  }\n"
    "  bir.kernel @k {\n"
    "    module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {\n"
    "      bir.func @main {\n"
    "        %x = bir.memloc \"x\" input : !bir.dram<4x8xf32>\n"
    "        %t = bir.memloc \"t\" internal : !bir.sbuf<2x8xf32>\n"
    "        %u = bir.memloc \"u\" internal : !bir.sbuf<2x8xf32>\n"
    "        bir.dma %t[#bir.ap<0, [[8, 2], [1, 8]]>], "
    "%x[#bir.sap<()[s0] -> (s0 * 16), [[8, 2], [1, 8]]>] "
    ": !bir.sbuf<2x8xf32>, !bir.dram<4x8xf32>\n"
    "        bir.activation exp %u[#bir.ap<0, [[8, 2], [1, 8]]>], "
    "%t[#bir.ap<0, [[8, 2], [1, 8]]>] : !bir.sbuf<2x8xf32>, "
    "!bir.sbuf<2x8xf32>\n"
    "        bir.dma %x[#bir.sap<()[s0] -> (s0 * 16), [[8, 2], [1, 8]]>], "
    "%u[#bir.ap<0, [[8, 2], [1, 8]]>] : !bir.dram<4x8xf32>, "
    "!bir.sbuf<2x8xf32>\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

static void printAllocation(MlirOperation func, void *userData) {
  (void)userData;
  WalrusAllocation allocation = walrusAllocationGet(func);
  if (walrusAllocationIsNull(allocation))
    return;
  print(walrusAllocationGetFunction(allocation), NULL);
  printf(": core %lld, peak %lld, lower bound %lld, spills %lld\n",
         (long long)walrusAllocationGetCore(allocation),
         (long long)walrusAllocationGetPeak(allocation),
         (long long)walrusAllocationGetLowerBound(allocation),
         (long long)walrusAllocationGetSpills(allocation));
  for (intptr_t i = 0; i < walrusAllocationGetNumTensors(allocation); ++i) {
    WalrusTensorPlacement tensor = walrusAllocationGetTensor(allocation, i);
    printf("  ");
    print(tensor.tensor, NULL);
    printf(
        ": partitions [%lld, +%lld) bytes [%lld, +%lld) points [%lld, %lld]\n",
        (long long)tensor.basePartition, (long long)tensor.partitions,
        (long long)tensor.address, (long long)tensor.bytes,
        (long long)tensor.start, (long long)tensor.end);
  }
  walrusAllocationDestroy(allocation);
  WalrusCoreTimeline timeline = walrusTimelineGet(func, 0);
  if (timeline.valid)
    printf("  timeline: core %lld, %.3f ns, %lld instructions, DMA %.0f B, "
           "bound %d\n",
           (long long)timeline.core, timeline.finishNs,
           (long long)timeline.instructions, timeline.dmaBytes,
           (int)timeline.bound);
}

/// Each core's estimate, its kernel estimated once.
static void printTimeline(MlirOperation func, WalrusCoreTimeline timeline,
                          void *userData) {
  (void)func;
  (void)userData;
  printf("walked timeline: core %lld, %.3f ns, %lld instructions\n",
         (long long)timeline.core, timeline.finishNs,
         (long long)timeline.instructions);
}

/// A function in linalg on tensors, lowered and allocated by one named
/// pipeline.
static const char *kLinalg =
    "func.func @scale(%x: tensor<200x64xf32>) -> tensor<200x64xf32> {\n"
    "  %e = tensor.empty() : tensor<200x64xf32>\n"
    "  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, "
    "affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", "
    "\"parallel\"]} ins(%x : tensor<200x64xf32>) outs(%e : "
    "tensor<200x64xf32>) {\n"
    "  ^bb0(%a: f32, %o: f32):\n"
    "    %c = arith.constant 2.0 : f32\n"
    "    %m = arith.mulf %a, %c : f32\n"
    "    linalg.yield %m : f32\n"
    "  } -> tensor<200x64xf32>\n"
    "  return %y : tensor<200x64xf32>\n"
    "}\n";

static int runLinalg(MlirContext context) {
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kLinalg));
  if (mlirModuleIsNull(module))
    return 7;
  MlirPassManager pm = mlirPassManagerCreate(context);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString(
              "builtin.module(walrus-from-linalg{lnc-size=2})"),
          print, NULL)) ||
      mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 8;
  if (mlirLogicalResultIsFailure(walrusWalkKernelFunctions(
          mlirModuleGetOperation(module), printAllocation, NULL)))
    return 9;
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return 0;
}

static int runHost(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__bir__(), registry);
  walrusRegisterHostDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kHost));
  if (mlirModuleIsNull(module))
    return 4;
  MlirPassManager pm = mlirPassManagerCreate(context);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString("builtin.module(walrus-pipeline)"),
          print, NULL)) ||
      mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 5;
  if (mlirLogicalResultIsFailure(walrusWalkKernelFunctions(
          mlirModuleGetOperation(module), printAllocation, NULL)))
    return 6;
  if (mlirLogicalResultIsFailure(walrusWalkTimelines(
          mlirModuleGetOperation(module), printTimeline, NULL)))
    return 10;
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  int status = runLinalg(context);
  if (status)
    return status;
  mlirContextDestroy(context);
  return 0;
}

int main(void) {
  MlirContext context = mlirContextCreate();
  MlirDialectHandle bir = mlirGetDialectHandle__bir__();
  mlirDialectHandleRegisterDialect(bir, context);
  mlirDialectHandleLoadDialect(bir, context);
  walrusRegisterPasses();
  walrusRegisterPipelines();

  int64_t shape[] = {128, 512};
  MlirType sbuf =
      walrusSbufTypeGet(context, 2, shape, mlirBF16TypeGet(context));
  mlirTypePrint(sbuf, print, NULL);
  printf(" memory=%d partitions=%lld bytes=%lld\n",
         walrusTypeIsAMemoryType(sbuf),
         (long long)walrusMemoryTypeGetPartitions(sbuf),
         (long long)walrusMemoryTypeGetBytesPerPartition(sbuf));
  MlirType dram = walrusDramTypeGet(context, 2, shape, mlirF32TypeGet(context));
  mlirTypePrint(dram, print, NULL);
  printf(" bytes=%lld\n",
         (long long)walrusMemoryTypeGetBytesPerPartition(dram));

  int64_t steps[] = {512, 1}, nums[] = {128, 256};
  MlirAttribute pattern = walrusAccessPatternGet(context, 0, 2, steps, nums);
  mlirAttributePrint(pattern, print, NULL);
  printf(" pattern=%d elements=%lld\n",
         walrusAttributeIsAnAccessPattern(pattern),
         (long long)walrusAccessPatternGetNumElements(pattern));
  MlirAttribute target =
      walrusTargetGetPreset(context, mlirStringRefCreateFromCString("trn1"));
  mlirAttributePrint(target, print, NULL);
  printf(" partitions=%lld bytes=%lld\n",
         (long long)walrusTargetGetSbufPartitions(target),
         (long long)walrusTargetGetSbufBytesPerPartition(target));
  printf("unknown preset is null: %d\n",
         mlirAttributeIsNull(walrusTargetGetPreset(
             context, mlirStringRefCreateFromCString("trn9"))));

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kProgram));
  if (mlirModuleIsNull(module))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(context);
  // Nested where a module pass cannot run, the pipeline is an error with
  // a message, not an abort of the embedding process.
  MlirPassManager misnested = mlirPassManagerCreate(context);
  printf("misnested pipeline: ");
  if (!mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(misnested),
          mlirStringRefCreateFromCString(
              "builtin.module(func.func(walrus-pipeline))"),
          print, NULL)))
    return 7;
  printf("\n");
  mlirPassManagerDestroy(misnested);
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString("builtin.module(walrus-pipeline)"),
          print, NULL)))
    return 2;
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module))))
    return 3;
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return runHost();
}
