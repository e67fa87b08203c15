//===- Pipelines.h - The Walrus pass pipeline -------------------*- C++ -*-===//

#ifndef WALRUS_PIPELINES_PIPELINES_H
#define WALRUS_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace walrus {

struct WalrusPipelineOptions
    : public mlir::PassPipelineOptions<WalrusPipelineOptions> {
  Option<int64_t> lncSize{*this, "lnc-size",
                          llvm::cl::desc("Number of logical cores; 0 reads "
                                         "bir.lnc_size"),
                          llvm::cl::init(0)};
  Option<bool> report{
      *this, "report",
      llvm::cl::desc(
          "Summary remarks from every pass, then the timeline estimate"),
      llvm::cl::init(false)};
  Option<int64_t> dramToSbBytes{
      *this, "dram-to-sb-bytes",
      llvm::cl::desc("Bytes per partition internal DRAM tensors moved into "
                     "SBUF may take (vn-split); 0 moves none"),
      llvm::cl::init(0)};
  Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("Reorder instructions for the timing model before "
                     "allocation (-bir-schedule)"),
      llvm::cl::init(false)};
};

/// The whole job in pipeline order: expand-replication, lnc-split, the SPMD
/// verifier, vn-split, shrink-dn, bir-schedule (with `schedule`), sb-alloc,
/// psum-alloc and the allocation verifiers.
void buildWalrusPipeline(mlir::OpPassManager &pm,
                         const WalrusPipelineOptions &options);

struct WalrusFromLinalgOptions
    : public mlir::PassPipelineOptions<WalrusFromLinalgOptions> {
  Option<int64_t> lncSize{*this, "lnc-size",
                          llvm::cl::desc("Logical cores of the kernels"),
                          llvm::cl::init(1)};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("Target preset: trn1, trn2, trn3"),
                             llvm::cl::init("trn2")};
  Option<int64_t> columnTile{
      *this, "column-tile",
      llvm::cl::desc("Columns per tile, 0 for each op family's own "
                     "(-convert-linalg-to-bir)"),
      llvm::cl::init(0)};
  Option<int64_t> matmulBuffers{
      *this, "matmul-buffers",
      llvm::cl::desc("Rotating load and PSUM tiles of a matmul "
                     "(-convert-linalg-to-bir)"),
      llvm::cl::init(2)};
  Option<int64_t> elementwiseBuffers{
      *this, "elementwise-buffers",
      llvm::cl::desc("Rotating tile sets of an elementwise op "
                     "(-convert-linalg-to-bir)"),
      llvm::cl::init(2)};
  Option<int64_t> normalizationBuffers{
      *this, "normalization-buffers",
      llvm::cl::desc("Rotating row-tile sets of a normalization nest "
                     "(-convert-linalg-to-bir)"),
      llvm::cl::init(4)};
  Option<int64_t> attentionBuffers{
      *this, "attention-buffers",
      llvm::cl::desc("Rotating query-tile sets of an attention nest "
                     "(-convert-linalg-to-bir)"),
      llvm::cl::init(4)};
  Option<std::string> autoCast{
      *this, "auto-cast",
      llvm::cl::desc("matmult (f32 matmul operands in bf16) or none "
                     "(-convert-linalg-to-bir)"),
      llvm::cl::init("matmult")};
  Option<bool> widenAccumulators{
      *this, "widen-accumulators",
      llvm::cl::desc("Accumulate bf16/f16 contractions in f32 and round "
                     "once (-widen-accumulators); false makes them errors"),
      llvm::cl::init(true)};
  Option<bool> f64AsF32{
      *this, "f64-as-f32",
      llvm::cl::desc(
          "Compute f64 intermediates in f32 (-convert-linalg-to-bir)"),
      llvm::cl::init(true)};
  Option<bool> report{
      *this, "report",
      llvm::cl::desc(
          "Summary remarks from every pass, then the timeline estimate"),
      llvm::cl::init(false)};
  Option<int64_t> dramToSbBytes{
      *this, "dram-to-sb-bytes",
      llvm::cl::desc("Bytes per partition internal DRAM tensors moved into "
                     "SBUF may take (vn-split); 0 moves none"),
      llvm::cl::init(0)};
  Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("Reorder instructions for the timing model before "
                     "allocation (-bir-schedule; never slower by the "
                     "estimate)"),
      llvm::cl::init(true)};
};

/// From linalg to allocated per-core programs: upstream one-shot
/// bufferization of tensors (function boundaries, row-major memrefs),
/// -convert-linalg-to-bir, then the Walrus pipeline.
void buildWalrusFromLinalgPipeline(mlir::OpPassManager &pm,
                                   const WalrusFromLinalgOptions &options);

/// Registers `walrus-pipeline` for the command line.
void registerWalrusPipelines();

} // namespace walrus

#endif // WALRUS_PIPELINES_PIPELINES_H
