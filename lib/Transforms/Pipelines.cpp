//===- Pipelines.cpp - The Walrus pass pipeline ---------------------------===//

#include "Walrus/Transforms/Pipelines.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace walrus;

void walrus::buildWalrusPipeline(OpPassManager &pm,
                                 const WalrusPipelineOptions &options) {
  pm.addPass(createExpandReplication());
  LncSplitOptions split;
  split.lncSizeOverride = options.lncSize;
  split.report = options.report;
  pm.addPass(createLncSplit(split));
  LncVerifyOptions verify;
  verify.lncSizeOverride = options.lncSize;
  pm.addPass(createLncVerify(verify));
  VnSplitOptions vnSplit;
  vnSplit.report = options.report;
  pm.addPass(createVnSplit(vnSplit));
  ShrinkDnOptions shrink;
  shrink.report = options.report;
  pm.addPass(createShrinkDn(shrink));
  SbAllocOptions alloc;
  alloc.report = options.report;
  pm.addPass(createSbAlloc(alloc));
  pm.addPass(createSbAllocVerify());
}

void walrus::registerWalrusPipelines() {
  PassPipelineRegistration<WalrusPipelineOptions>(
      "walrus-pipeline",
      "The whole Walrus job: expand-replication, lnc-split, lnc-verify, "
      "vn-split, shrink-dn, sb-alloc, sb-alloc-verify",
      buildWalrusPipeline);
}
