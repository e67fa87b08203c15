//===- walrus-fuzz-csv.cpp - libFuzzer target over the MiniMalloc importer ===//
//
// Any CSV may be rejected with a diagnostic, but nothing may crash: the
// input is imported; a small valid problem is allocated (-sb-alloc and its
// verifier, on the graph and down the dense path; an allocation the pass
// accepts that its verifier rejects aborts) and exported back.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Target/MiniMalloc.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
using namespace walrus;

/// Problems with more buffers than this are imported, not allocated: the
/// search is exact on small problems and would dominate the run.
static constexpr size_t kMaxAllocatedBuffers = 64;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext *context = fuzz::getContext();
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(reinterpret_cast<const char *>(data), size), "fuzz.csv"),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module = importMiniMallocCsv(sourceMgr, context, 0);
  if (!module)
    return 0;
  size_t buffers = 0;
  module->walk([&](bir::MemlocOp) { ++buffers; });
  if (buffers > kMaxAllocatedBuffers)
    return 0;
  // On the graph and down the dense path (window search, chains of
  // orders), on a copy. An allocation -sb-alloc accepts must verify.
  SbAllocOptions denseOptions;
  denseOptions.denseEdges = 0;
  denseOptions.denseEdgesPerNode = 0;
  OwningOpRef<ModuleOp> dense = module->clone();
  bool allocated = false;
  for (auto [target, options] : {std::make_pair(&dense, denseOptions),
                                 std::make_pair(&module, SbAllocOptions())}) {
    PassManager allocate(context);
    allocate.addPass(createSbAlloc(options));
    if (failed(allocate.run(**target)))
      continue;
    PassManager verify(context);
    verify.addPass(createSbAllocVerify());
    if (failed(verify.run(**target)))
      abort();
    allocated = target == &module;
  }
  if (!allocated)
    return 0;
  llvm::raw_null_ostream sink;
  (void)exportMiniMallocCsv(*module, sink);
  return 0;
}
