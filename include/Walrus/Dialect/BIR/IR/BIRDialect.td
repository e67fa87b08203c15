//===- BIRDialect.td - The bir dialect definition ----------*- tablegen -*-===//
//
// The Neuron backend IR (BIR) as an MLIR dialect.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_DIALECT_BIR_IR_BIRDIALECT_TD
#define WALRUS_DIALECT_BIR_IR_BIRDIALECT_TD

include "mlir/IR/OpBase.td"

def BIR_Dialect : Dialect {
  let name = "bir";
  let cppNamespace = "::walrus::bir";
  let summary = "The Neuron backend IR: memory locations, access patterns and "
                "engine instructions of a Trainium-style NeuronCore";
  let description = [{
    `bir` models a NeuronCore program after scheduling and before memory
    allocation. Tensors live in a 2-D on-chip SBUF (partitions x bytes per
    partition), in PSUM matmul accumulators, or in DRAM. A `bir.memloc`
    defines a tensor as an SSA value; every instruction names the tensors it
    reads and writes together with an *access pattern*: an element offset
    plus a list of `[step, num]` pairs whose first pair walks partitions.

    A program written once for `lnc_size` logical cores is *symbolic*: access
    pattern offsets are affine maps over the enclosing `bir.loop` induction
    variables (dims) and the shard id (symbol `s0`), and an instruction may
    carry an affine `mask` over the shard id that says on which cores it runs.

    ```mlir
    module @nc_symbolic attributes {bir.lnc_size = 2 : i64,
                                    bir.target = #bir.target<"trn2">} {
      bir.func @main {
        %in = bir.memloc "in" input : !bir.dram<256x512xbf16>
        %t = bir.memloc "t" internal : !bir.sbuf<128x512xbf16>
        bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>],
                %in[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>]
          : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
      }
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Module attribute names.
    static constexpr ::llvm::StringLiteral kLncSizeAttrName = "bir.lnc_size";
    /// The most logical cores a kernel may be written for: every verifier
    /// and pass iterates over the cores.
    static constexpr int64_t kMaxLncSize = 128;
    static constexpr ::llvm::StringLiteral kNeuronCoreIdAttrName =
        "bir.neuron_core_id";
    static constexpr ::llvm::StringLiteral kTargetAttrName = "bir.target";
    /// Memory-location annotations of -shrink-dn (the reference's
    /// shrinkTensor): the collapsed block dimension and its live blocks.
    static constexpr ::llvm::StringLiteral kShrinkDimAttrName =
        "bir.shrink_dim";
    static constexpr ::llvm::StringLiteral kLiveNAttrName = "bir.live_n";
    /// Marks an on-chip tile the lowering rotates through with others of
    /// its kind (multi-buffering): the buffer's index, 0 for the first.
    static constexpr ::llvm::StringLiteral kRotatingAttrName = "bir.rotating";
    /// Marks the DRAM home -sb-alloc gives a tensor it spills.
    static constexpr ::llvm::StringLiteral kSpillHomeAttrName =
        "bir.spill_home";

  private:
    void registerAttributes();
    void registerTypes();
  public:
  }];
}

class BIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<BIR_Dialect, mnemonic, traits>;

#endif // WALRUS_DIALECT_BIR_IR_BIRDIALECT_TD
