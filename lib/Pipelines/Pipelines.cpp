//===- Pipelines.cpp - The Walrus pass pipeline ---------------------------===//

#include "Walrus/Pipelines/Pipelines.h"
#include "Walrus/Conversion/Passes.h"
#include "Walrus/Support/ListedOptions.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace walrus;

void walrus::buildWalrusPipeline(OpPassManager &pm,
                                 const WalrusPipelineOptions &options) {
  pm.addPass(createExpandReplication());
  // Before the split too: what makes a kernel unsplittable (a masked
  // barrier, a peer out of range) is named at the instruction there, where
  // after the split only its consequence shows.
  LncVerifyOptions symbolic;
  symbolic.lncSizeOverride = options.lncSize;
  pm.addPass(createLncVerify(symbolic));
  LncSplitOptions split;
  split.lncSizeOverride = options.lncSize;
  split.report = options.report;
  pm.addPass(createLncSplit(split));
  LncVerifyOptions verify;
  verify.lncSizeOverride = options.lncSize;
  pm.addPass(createLncVerify(verify));
  VnSplitOptions vnSplit;
  vnSplit.report = options.report;
  vnSplit.dramToSbBytes = options.dramToSbBytes;
  pm.addPass(createVnSplit(vnSplit));
  ShrinkDnOptions shrink;
  shrink.report = options.report;
  pm.addPass(createShrinkDn(shrink));
  if (options.schedule) {
    BirScheduleOptions schedule;
    schedule.report = options.report;
    pm.addPass(createBirSchedule(schedule));
  }
  SbAllocOptions alloc;
  alloc.report = options.report;
  pm.addPass(createSbAlloc(alloc));
  pm.addPass(createSbAllocVerify());
  PsumAllocOptions psum;
  psum.report = options.report;
  pm.addPass(createPsumAlloc(psum));
  pm.addPass(createPsumAllocVerify());
  // The report ends with what the result would cost (docs/TimingModel.md).
  if (options.report)
    pm.addPass(createPrintBirTimeline());
}

void walrus::buildWalrusFromLinalgPipeline(
    OpPassManager &pm, const WalrusFromLinalgOptions &options) {
  // A TOSA module (TFLite, torch-mlir's TOSA path) becomes linalg first.
  pm.addPass(createImportTosa());
  // A called function's ops lower in the kernel of their caller: calls are
  // inlined (no other pipeline on the callees), and private functions left
  // uncalled go.
  pm.addPass(
      createInlinerPass(/*opPipelines=*/{},
                        /*defaultPipelineBuilder=*/[](OpPassManager &) {}));
  pm.addPass(createSymbolDCEPass());
  // A 16-bit contraction sums in f32, as the tensor engine does, visibly.
  WidenAccumulatorsOptions widen;
  widen.refuse = !options.widenAccumulators;
  pm.addPass(createWidenAccumulators(widen));
  // Constants a body computes and results nothing reads are gone before
  // anything matches a form.
  pm.addPass(createNormalizeLinalg());
  // A weight transposed or broadcast over the batch for a matmul is read
  // where it is, not copied first (a torch-mlir linear).
  pm.addPass(createFoldIntoMatmul());
  // One generic per elementwise chain: its intermediates stay on chip.
  pm.addPass(createFuseElementwise());
  // A softmax of scores is one op the attention nest reads.
  pm.addPass(createRaiseSoftmax());
  // An op whose result is inserted into a slice writes into the slice:
  // per-head attention outputs land in their columns of the context
  // instead of a buffer copied there (docs/LinalgToBir.md, "Bufferization").
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Elementwise ops that read one buffer read it once (rope's halves).
  pm.addPass(createFuseSiblings());
  ConvertLinalgToBirOptions lower;
  lower.lncSize = options.lncSize;
  lower.targetName = options.target;
  lower.columnTile = options.columnTile;
  lower.matmulBuffers = options.matmulBuffers;
  lower.elementwiseBuffers = options.elementwiseBuffers;
  lower.normalizationBuffers = options.normalizationBuffers;
  lower.attentionBuffers = options.attentionBuffers;
  lower.autoCast = options.autoCast;
  lower.f64AsF32 = options.f64AsF32;
  pm.addPass(createConvertLinalgToBir(lower));
  WalrusPipelineOptions walrus;
  walrus.report = options.report;
  walrus.dramToSbBytes = options.dramToSbBytes;
  walrus.schedule = options.schedule;
  buildWalrusPipeline(pm, walrus);
}

/// Registers a pipeline of module passes that refuses, with an error
/// instead of LLVM's abort, to be nested where a module pass cannot run
/// (`func.func(walrus-pipeline)`).
template <typename Options>
static void registerModulePipeline(StringRef argument, StringRef description,
                                   void (*build)(OpPassManager &,
                                                 const Options &)) {
  registerPassPipeline(
      argument, description,
      [argument = argument.str(),
       build](OpPassManager &pm, StringRef optionsText,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        // "any" is a top-level pass manager (Python's, the C API's): it
        // schedules module passes on the module it runs on.
        StringRef anchor = pm.getOpAnchorName();
        if (anchor != ModuleOp::getOperationName() &&
            anchor != OpPassManager::getAnyOpAnchorName())
          return errorHandler("'" + argument +
                              "' runs on a builtin.module, not nested in '" +
                              anchor + "' (use --pass-pipeline='" +
                              "builtin.module(" + argument + ")')");
        Options options;
        std::string error;
        llvm::raw_string_ostream errorStream(error);
        if (failed(options.parseFromString(optionsText, errorStream))) {
          std::string printed;
          llvm::raw_string_ostream os(printed);
          Options().print(os);
          return errorHandler(StringRef(error).rtrim() + "; '" + argument +
                              "' takes: " + getOptionNames(printed));
        }
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> handler) {
        handler(Options());
      });
}

void walrus::registerWalrusPipelines() {
  registerModulePipeline<WalrusPipelineOptions>(
      "walrus-pipeline",
      "The whole Walrus job: expand-replication, lnc-verify, lnc-split, "
      "lnc-verify, "
      "vn-split, shrink-dn, sb-alloc, sb-alloc-verify, psum-alloc, "
      "psum-alloc-verify",
      buildWalrusPipeline);
  registerModulePipeline<WalrusFromLinalgOptions>(
      "walrus-from-linalg",
      "From linalg to allocated per-core programs: import-tosa, inline, "
      "symbol-dce, widen-accumulators, "
      "normalize-linalg, "
      "fold-into-matmul, fuse-elementwise, raise-softmax, "
      "one-shot-bufferize "
      "(function boundaries, identity layouts), convert-linalg-to-bir, then "
      "walrus-pipeline",
      buildWalrusFromLinalgPipeline);
}
