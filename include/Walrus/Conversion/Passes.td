//===- Passes.td - Walrus conversions into bir -------------*- tablegen -*-===//
//
// Lowerings from upstream dialects into `bir`. A library of their own
// (WalrusLinalgToBir), which the bir passes (WalrusTransforms) do not link;
// the pipelines that run both live above them (WalrusPipelines).
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_CONVERSION_PASSES_TD
#define WALRUS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToBir : Pass<"convert-linalg-to-bir", "mlir::ModuleOp"> {
  let summary = "Lower func.func bodies of linalg ops on memrefs to bir kernels";
  let description = [{
    Each `func.func` holding `linalg` ops on static, row-major memrefs
    becomes a `bir.kernel` with one symbolic program (`bir.lnc_size` =
    `lnc-size`, `bir.target` = `target`): a DRAM memory location per memref
    the ops use (arguments they only read are `input`s, arguments they write
    and returned allocations are `output`s, other allocations `internal`),
    and per linalg op a loop nest over tiles of 128 rows, dealt round-robin
    to the cores through the shard id in the DRAM addresses, with masks on
    the last round and the partial last tile. The function keeps its
    allocations of returned memrefs and launches the kernel on its memrefs
    (`bir.launch`). Supported: elementwise ops (generic and named, `fill`,
    `copy`, with whole-row or whole-column broadcasts), reductions along the
    innermost dimension, `matmul` (either operand transposed),
    `batch_matmul`, 2-D `transpose`, `softmax` along the innermost
    dimension. Anything else is an error at the op that names what is not
    supported; nothing is dropped. docs/LinalgToBir.md has the tiling.

    Tensors first go through upstream bufferization:
    `-one-shot-bufferize="bufferize-function-boundaries"`.
  }];
  // memref.copy becomes linalg.copy: linalg is loaded even where the
  // input holds no linalg op.
  let dependentDialects = ["walrus::bir::BIRDialect",
                           "mlir::linalg::LinalgDialect"];
  let options = [
    Option<"lncSize", "lnc-size", "int64_t", /*default=*/"1",
           "Logical cores the kernel is written for (1 to 128)">,
    Option<"targetName", "target", "std::string", /*default=*/"\"trn2\"",
           "Target preset: trn1, trn2 or trn3">,
    Option<"columnTile", "column-tile", "int64_t", /*default=*/"0",
           "Columns per tile of elementwise ops and reductions, and at most "
           "per matmul output tile (1 to 65536; 0: 2048 for elementwise ops "
           "and reductions, as SBUF holds them, and 512 for the rest)">,
    Option<"matmulBuffers", "matmul-buffers", "int64_t", /*default=*/"2",
           "Rotating SBUF tiles for a matmul's loads and PSUM tiles for its "
           "accumulation groups, so consecutive tiles overlap (1 to 4)">,
    Option<"elementwiseBuffers", "elementwise-buffers", "int64_t",
           /*default=*/"2",
           "Rotating sets of SBUF tiles for an elementwise op's inner tile "
           "loop and a reduction's row tiles, so one tile's loads overlap "
           "the last one's compute and store (1 to 4)">,
    Option<"normalizationBuffers", "normalization-buffers", "int64_t",
           /*default=*/"4",
           "Rotating sets of SBUF tiles for a normalization nest's row "
           "tiles (a reduction and the ops that normalize by it), so one "
           "row tile's load overlaps the last ones' chain (1 to 4)">,
    Option<"attentionBuffers", "attention-buffers", "int64_t",
           /*default=*/"4",
           "Rotating sets of SBUF and PSUM tiles for an attention nest's "
           "query tiles, so one tile's scores overlap the last one's "
           "softmax and P V (1 to 4)">,
    Option<"autoCast", "auto-cast", "std::string", /*default=*/"\"matmult\"",
           "matmult: f32 matmul operands go to the tensor engine in bf16, "
           "accumulating in f32 (the Neuron compiler's default); none: as "
           "written">,
    Option<"f64AsF32", "f64-as-f32", "bool", /*default=*/"true",
           "Compute f64 intermediates in f32 (the engines have no f64), "
           "with a remark at each op">,
    Option<"instructionLimit", "instruction-limit", "int64_t",
           /*default=*/"1000000",
           "Instructions a kernel may have, counted once per core (what "
           "-lnc-split makes of it), before the lowering gives up">,
  ];
}

def FoldIntoMatmul : Pass<"fold-into-matmul"> {
  let summary = "Read a matmul's operands where a transpose or a batch "
                "broadcast of them came from (linalg on tensors)";
  let description = [{
    Frontends hand a weight to a matmul through ops that only move it:
    torch-mlir lowers `aten.linear` on 3-D activations to a transpose of the
    weight, a broadcast of it over the batch and `linalg.batch_matmul`; a
    2-D `aten.mm` by a transposed weight to `linalg.transpose` and
    `linalg.matmul`. Lowered as written, each copy moves the whole weight
    through DRAM. This pass (on `linalg` ops on tensors, before
    bufferization) rewrites:

    - a `linalg.batch_matmul` whose B is the same for every batch (an op
      that only copies a 2-D tensor to each batch, transposed or not) into
      a `linalg.matmul` of the batches' rows stacked (`tensor.collapse_shape`
      of A and C, `tensor.expand_shape` of the result);
    - a `linalg.matmul` operand that is a 2-D transpose of a tensor into
      that tensor, read through the matmul's indexing map (`(n, k)` for B,
      `(k, m)` for A).

    An op that only moves data is a `linalg.generic`, `linalg.transpose` or
    `linalg.broadcast` with one input read through a projected permutation,
    its output written whole, and a body that yields the input. The moving
    ops stay for any other user and are erased when none is left. Anything
    else is left as it is. `-walrus-from-linalg` runs it first.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

def FuseElementwise : Pass<"fuse-elementwise"> {
  let summary = "Fuse chains of elementwise generics into one (linalg on "
                "tensors)";
  let description = [{
    Frontends write one elementwise op per PyTorch op: lowered as written,
    each reads its inputs from DRAM and writes its result back. This pass
    (on tensors, before bufferization) fuses an all-parallel
    `linalg.generic` into an all-parallel generic that reads its result
    through a permutation (upstream's `populateElementwiseOpsFusionPatterns`),
    where every reader of that result is such a generic: the producer
    then goes, and no reader is left to read it from memory. A producer a
    reduction, a contraction or a broadcast read (`(d0, 0)`) needs stays,
    and so does the form the lowering recognises around it
    (normalisations, softmax). A fused body is at most `max-body-ops` ops:
    a producer several readers share is computed in each. Then upstream's
    cleanups of unused operands and results and its generic
    canonicalizations, on the fused ops alone, drop the results nothing
    reads and the inputs a fused body reads twice; every other op stays as
    written.

    With `explain`, a remark at each fused op names the op fused into it.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "A remark at each op another was fused into">,
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"256",
           "The most ops a fused body may hold">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def FuseSiblings : Pass<"fuse-siblings"> {
  let summary = "Merge elementwise generics that read the same buffer "
                "(linalg on buffers)";
  let description = [{
    After `-fuse-elementwise`, two elementwise ops that read one tensor
    but feed different stores stay apart (rope's two halves, each
    reading `x1`, `x2`, `cos` and `sin`), and each reads the tensor from
    DRAM. This pass (on buffers, after bufferization) merges two
    all-parallel `linalg.generic`s of arith and math bodies into one
    generic with both outputs where:

    - they run the same static loops and read one buffer through the same
      map;
    - no op between them reads, writes or frees memory (views and
      allocations may be there), so the merged op may stand at the second;
    - neither reads a buffer either writes;
    - no other linalg op reads what they write: a reduction, contraction
      or elementwise reader keeps the single-output producer the lowering
      recognises around it;
    - their bodies hold at most `max-body-ops` ops together.

    The merged op reads an input both read once. `-convert-linalg-to-bir`
    computes every output of a tile from the same loaded inputs.

    With `explain`, a remark at each merged op.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "A remark at each merged op">,
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"256",
           "The most ops a merged body may hold">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def RaiseSoftmax : Pass<"raise-softmax"> {
  let summary = "Raise a decomposed softmax of scores into linalg.softmax "
                "(linalg on tensors)";
  let description = [{
    torch-mlir writes `aten._softmax` along the last dimension as four
    generics: the row maximum (from -inf or the lowest finite value,
    maybe with an unused argmax beside it), `exp(x - max)` (one generic
    or two), the row sum (from zero) and the division by it, each row
    value read through `(d0, ..., 0)` or a keepdim `tensor.expand_shape`.
    Where `x` is the result of a contraction, or of up to four elementwise
    ops of one (a scaling, a mask), this pass (on tensors, before bufferization)
    writes them as one `linalg.softmax` and erases the four where nothing
    else reads them. `-convert-linalg-to-bir` lowers such a softmax with
    the contraction before it, and the one reading the probabilities, as
    one attention nest that keeps the scores on chip. Any other softmax
    stays decomposed: the normalization nest lowers it in one pass over
    the rows.

    With `explain`, a remark at each raised softmax.
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "A remark at each softmax raised">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def NormalizeLinalg : Pass<"normalize-linalg"> {
  let summary = "Rewrite forms frontends emit into those convert-linalg-to-bir "
                "reads (linalg on tensors)";
  let description = [{
    Frontends write `linalg` one PyTorch op at a time, in forms the lowering
    need not know. This pass (on tensors, before bufferization) rewrites:

    - an `scf.for` with constant bounds into its iterations in sequence,
      innermost first (upstream's `loopUnrollFull`), and slices at offsets
      that became constant into static ones (upstream's canonicalizations,
      which also fold a `tensor.cast` to dynamic sizes into the pad or
      reshape that reads it);
      a loop whose trip count is not a constant, or whose copies would pass
      2^16 ops, is an error at the loop (a kernel is straight-line code);

    - a value computed from constants alone, in a body or outside, into
      the constant: upstream's folders, and an `arith.truncf` of a float
      constant rounded to nearest, ties to even, as the CPU computes it
      (torch-mlir's BatchNorm and LayerNorm truncate an f64 epsilon to f32
      inside every body; upstream folds only a truncation that is exact);
    - a generic's input whose elements are all one value into that value
      in the body: a splat constant (upstream's
      `populateInlineConstantOperandsPatterns`; torch-mlir's `tensor<f64>`
      divisors), or a `fill` or elementwise generic that yields a value
      from outside its body (torch-mlir's scalar tensors: `fill` of 6,
      `sitofp` of it, read by a clamp);
    - `arith` and `math` ops on whole tensors into elementwise generics
      (upstream's `populateElementwiseToLinalgConversionPatterns`), and
      `linalg.map` and `linalg.broadcast` into generics (upstream's
      `generalizeNamedOp`);
    - a boolean (`i1`) tensor one elementwise generic computes and another
      reads, computed where it is read (upstream's `fuseElementwiseOps`,
      for i1 producers only: torch-mlir's attention masks);
    - a `tensor.concat` into inserts into an empty tensor (upstream's
      `populateDecomposeTensorConcatPatterns`): empty-tensor elimination
      then has each part written where it lands in the result;
    - a `linalg.generic` result nothing reads, and the body ops that only
      computed it, dropped (upstream's
      `populateEraseUnusedOperandsAndResultsPatterns`): torch's max over a
      dimension computes the argmax beside the max;
    - a generic whose results are computed apart (no yield reads another
      result's init) into one generic per result;
    - a generic of its indices and dense constants alone (`torch.arange`;
      adaptive pooling's window counts; rotary embeddings' cos and sin
      tables) into the constant it computes, element by element with
      upstream's folders (a reduction's element is its last iteration's
      value), up to 2^20 elements;
    - a value a body computes from `linalg.index` and constants and uses
      with its data (the causal mask of `torch.tril`, a window's bounds)
      into a constant table over the loops it varies along (at most 2^20
      elements), read as an input; a `tensor.extract` at indices that are
      an affine function of the loops, checked in bounds at every
      iteration (adaptive pooling's window element), into an input read at
      that map. Tables and folds evaluate at most 2^24 body ops per run;
    - a `tensor.extract` at rows the body computes from its inputs and
      indices otherwise (an EmbeddingBag's ids, DLRM's index lists, an
      upsample's source rows, a reverse), and an input read through a map
      that walks backwards, into a gather generic of the embedding form
      (table flattened to rows, row ids as an input or a generic), read as
      an input;
    - torch's max over a dimension with its index (one generic, two
      results, `select(cmpf ogt)`) into the max, the first index of it and
      a pick (exact where no element is NaN);
    - `cmpf` `one`, `ueq`, and `ord` / `uno` of two values into two
      comparisons the vector engine has; `math.log1p` and `math.expm1`
      into `log(1 + x)` and `exp(x) - 1`;
    - in bodies, `math.floor`, `ceil`, `trunc`, `round` and `fptosi` of a
      value not known to be an integer into `math.roundeven` (the engine's
      conversion) and comparisons; `remsi`, `floordivsi`, `ceildivsi` and shifts by
      constants into `divsi` (the engine's division) and products; `remf`
      into `x - trunc(x / y) * y` corrected toward x; `powf` and `fpowi`
      by other than 1, 2, 3, 4, -1, 0.5, -0.5 into `exp(y * log|x|)` with
      powf's signs; then upstream's CSE on each body.

    Anything else is left as it is. `-walrus-from-linalg` runs it after
    inlining every call.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::math::MathDialect",
                           "mlir::tensor::TensorDialect"];
}

def ImportTosa : Pass<"import-tosa", "mlir::ModuleOp"> {
  let summary = "Lower a module's TOSA ops to linalg, tensor and arith with "
                "upstream's TOSA pipelines";
  let description = [{
    TFLite and torch-mlir's TOSA path hand over `tosa` ops. Where the
    module holds any, this pass runs upstream's TOSA lowering on every
    function: `addTosaToLinalgPasses` (optional decompositions, shape
    inference, broadcasts made explicit, `tosa-to-linalg-named`,
    `tosa-to-linalg`), then `tosa-to-arith` (constants, and with
    `include-apply-rescale` a quantized rescale's i64 arithmetic) and
    `tosa-to-tensor` (reshapes, slices, pads). A module without TOSA ops is
    left as it is, so `-walrus-from-linalg` runs it first on every input.
    A TOSA op upstream does not lower is upstream's error at the op.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::math::MathDialect",
                           "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect",
                           "mlir::tosa::TosaDialect"];
}

def WidenAccumulators : Pass<"widen-accumulators"> {
  let summary = "Accumulate a bf16 or f16 contraction in f32 and round once "
                "(linalg on tensors)";
  let description = [{
    A `linalg.matmul` (or any named contraction or convolution) into a bf16
    or f16 tensor rounds its running sum to 16 bits at every step when MLIR
    runs it; the tensor engine accumulates in f32 PSUM and can do nothing
    else. This pass makes the difference explicit in the IR: the op becomes
    the same op into an f32 init (the init widened with `arith.extf`, a
    fill of the widened value where it was a fill), followed by an
    `arith.truncf` of the result to the original type. The result then
    differs from the IR as written by the rounding of the running sum
    (docs/LinalgToBir.md, "16-bit accumulators"); the oracle applies the
    same rewrite to MLIR's run. Generic reductions and integer
    accumulators are left as they are.

    `-walrus-from-linalg` runs it unless `widen-accumulators=false`, in
    which case a 16-bit accumulator is an error at the op.
  }];
  let options = [
    Option<"refuse", "refuse", "bool", /*default=*/"false",
           "Emit an error at each 16-bit accumulator instead of widening it">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::linalg::LinalgDialect",
                           "mlir::tensor::TensorDialect"];
}

#endif // WALRUS_CONVERSION_PASSES_TD
