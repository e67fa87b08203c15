//===- BIRAttrs.td - bir attributes ------------------------*- tablegen -*-===//

#ifndef WALRUS_DIALECT_BIR_IR_BIRATTRS_TD
#define WALRUS_DIALECT_BIR_IR_BIRATTRS_TD

include "Walrus/Dialect/BIR/IR/BIRDialect.td"
include "Walrus/Dialect/BIR/IR/BIREnums.td"
include "Walrus/Dialect/BIR/IR/BIRInterfaces.td"
include "mlir/IR/AttrTypeBase.td"

class BIR_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<BIR_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def BIR_PhysicalAccessPatternAttr : BIR_Attr<"PhysicalAccessPattern", "ap",
    [DeclareAttrInterfaceMethods<BIR_AccessPatternAttrInterface>]> {
  let summary = "concrete access pattern: element offset and [step, num] pairs";
  let description = [{
    Touches the elements `offset + sum(step_i * idx_i)` for
    `0 <= idx_i < num_i`. Pair 0 walks partitions; for a tensor with `F`
    elements per partition its step is normally `F`.

    ```mlir
    // Rows 0..127, the first 256 columns of a 128x512 tensor.
    #bir.ap<0, [[512, 128], [1, 256]]>
    ```
  }];
  let parameters = (ins "int64_t":$offset,
                        ArrayRefParameter<"int64_t">:$steps,
                        ArrayRefParameter<"int64_t">:$nums);
  let assemblyFormat = "`<` $offset `,` custom<Pairs>($steps, $nums) `>`";
  let genVerifyDecl = 1;
}

def BIR_SymbolicAccessPatternAttr : BIR_Attr<"SymbolicAccessPattern", "sap",
    [DeclareAttrInterfaceMethods<BIR_AccessPatternAttrInterface>]> {
  let summary = "access pattern whose start depends on loop ivs and the shard id";
  let description = [{
    Like `#bir.ap`, but the start element is computed by affine maps whose
    dims are the induction variables of the enclosing `bir.loop`s (outermost
    first) and whose only symbol `s0` is the shard id. The start is the sum
    of the `offset` map and of the optional `tile` and `block` maps; the two
    named parts let passes see which component selects the partition tile
    and which the block of a multi-buffered tensor.

    ```mlir
    // Core s0 handles columns [s0 * 256, s0 * 256 + 256), block d0.
    #bir.sap<(d0)[s0] -> (s0 * 256), [[2048, 128], [1, 256]],
             block = (d0)[s0] -> (d0 * 512)>
    ```
  }];
  let parameters = (ins "::mlir::AffineMap":$offset,
                        ArrayRefParameter<"int64_t">:$steps,
                        ArrayRefParameter<"int64_t">:$nums,
                        OptionalParameter<"::mlir::AffineMap">:$tile,
                        OptionalParameter<"::mlir::AffineMap">:$block);
  // Hand-written, unlike #bir.ap: `tile` and `block` come in either order,
  // and an unknown or repeated key gets its own error at the key. An ODS
  // format's optional groups fix one order and report any other key as
  // "expected '>'".
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The maps that make up the start (offset, then tile and block if set).
    ::llvm::SmallVector<::mlir::AffineMap, 3> getStartParts() const;
  }];
}

def BIR_ReplicationAttr : BIR_Attr<"Replication", "replication"> {
  let summary = "IFMAP replication parameters of a matmult";
  let description = [{
    The moving (IFMAP) operand of a matmult is stacked `factor` times along
    the partition axis, replica `r` starting at partition
    `r * partition_stride` and shifted by `r * shift` elements along the
    free axis (conv1d filter-tap stacking). `-expand-replication` makes the
    replicas explicit.

    ```mlir
    #bir.replication<factor = 4, partition_stride = 32, shift = 1>
    ```
  }];
  let parameters = (ins "int64_t":$factor, "int64_t":$partition_stride,
                        "int64_t":$shift);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def BIR_TargetAttr : BIR_Attr<"Target", "target"> {
  let summary = "NeuronCore geometry the program is compiled for";
  let description = [{
    Every hardware number a verifier or pass needs, in one place. Presets:
    `trn1` (NeuronCore-v2, 192 KiB per SBUF partition), `trn2` (v3, 224 KiB)
    and `trn3` (v4, 256 KiB); all have 128 partitions, a 16 KiB x 128 PSUM
    in 8 banks, and tensor-engine tiles of at most 128 stationary and 512
    moving columns. A module without `bir.target` targets `trn2`.
    `psum_reserved_banks` (optional in the full form, 0 by default) is how
    many of the last PSUM banks -psum-alloc leaves alone: 1 where a DMA
    transpose is lowered to a PE transpose, which keeps bank 7 for itself
    (docs/PsumAlloc.md).

    ```mlir
    #bir.target<"trn1">
    #bir.target<name = "tiny", sbuf_partitions = 128,
                sbuf_bytes_per_partition = 4096, psum_partitions = 128,
                psum_bytes_per_partition = 16384, psum_banks = 8,
                max_stationary_free = 128, max_moving_free = 512,
                psum_reserved_banks = 1>
    ```
  }];
  let parameters = (ins StringRefParameter<>:$name,
                        "int64_t":$sbuf_partitions,
                        "int64_t":$sbuf_bytes_per_partition,
                        "int64_t":$psum_partitions,
                        "int64_t":$psum_bytes_per_partition,
                        "int64_t":$psum_banks,
                        "int64_t":$max_stationary_free,
                        "int64_t":$max_moving_free,
                        "int64_t":$psum_reserved_banks);
  // Hand-written: accepts a preset name as well as the full parameter list.
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The preset of that name (trn1, trn2, trn3), or null.
    static TargetAttr getPreset(::mlir::MLIRContext *context,
                                ::llvm::StringRef name);
    /// The target used when a module names none.
    static TargetAttr getDefault(::mlir::MLIRContext *context) {
      return getPreset(context, "trn2");
    }
  }];
}

#endif // WALRUS_DIALECT_BIR_IR_BIRATTRS_TD
