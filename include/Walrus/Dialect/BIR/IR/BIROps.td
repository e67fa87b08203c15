//===- BIROps.td - bir operations --------------------------*- tablegen -*-===//

#ifndef WALRUS_DIALECT_BIR_IR_BIROPS_TD
#define WALRUS_DIALECT_BIR_IR_BIROPS_TD

include "Walrus/Dialect/BIR/IR/BIRDialect.td"
include "Walrus/Dialect/BIR/IR/BIRAttrs.td"
include "Walrus/Dialect/BIR/IR/BIRTypes.td"
include "Walrus/Dialect/BIR/IR/BIRInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

def BIR_KernelOp : BIR_Op<"kernel", [Symbol, SymbolTable, IsolatedFromAbove,
    NoTerminator, SingleBlock, NoRegionArguments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "a kernel a host program refers to by symbol";
  let description = [{
    The container of one kernel inside a host compiler's module, as
    `gpu.module` is for GPU code: it holds the kernel's symbolic program
    module and, after `-lnc-split`, its per-core modules in its place, so
    `@name` stays valid for the host across the split (a `bir.launch` or any
    other symbol reference). Only `builtin.module`s that hold `bir.func`s
    may sit in it. docs/Rationale.md, "Where kernels are", has the rule
    every pass follows.

    ```mlir
    bir.kernel @rmsnorm {
      module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
        bir.func @main { ... }
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
}

def BIR_LaunchOp : BIR_Op<"launch", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run a kernel from host code on memrefs";
  let description = [{
    Host-side reference to a `bir.kernel`: the memref operands are bound,
    in order, to the DRAM `input` and `output` memory locations of the
    kernel's `@main` function, in the order they are declared. The symbol
    must name a `bir.kernel`; each operand must have the element type and
    element count of the memory location it is bound to. The op has no
    lowering of its own: it is how a host program names the kernel and its
    arguments, and the reference the verifier keeps valid across the split.

    ```mlir
    func.func @forward(%x: memref<300x1024xbf16>, %y: memref<300x1024xbf16>) {
      bir.launch @rmsnorm(%x, %y) : memref<300x1024xbf16>, memref<300x1024xbf16>
      return
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                       Variadic<AnyMemRef>:$arguments);
  let assemblyFormat = [{
    $kernel `(` $arguments `)` attr-dict (`:` type($arguments)^)?
  }];
}

def BIR_FuncOp : BIR_Op<"func", [Symbol, IsolatedFromAbove, NoTerminator,
                                 SingleBlock, HasParent<"::mlir::ModuleOp">]> {
  let summary = "a BIR function: memory locations followed by instructions";
  let description = [{
    A function holds the memory locations it uses (and views of them),
    then the instructions, in program order, that access them. It takes no arguments and returns
    nothing: program inputs and outputs are `bir.memloc`s of kind `input`
    and `output`. Memory-location names are unique within a function.

    ```mlir
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x512xf32>
      bir.memset %t[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0
        : !bir.sbuf<128x512xf32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    /// The memory locations, in order. They come before the first
    /// instruction (the verifier checks it), so this reads only them, not
    /// the body after them.
    ::llvm::iterator_range<::mlir::Block::op_iterator<MemlocOp>>
    getMemlocs();
  }];
}

def BIR_LoopOp : BIR_Op<"loop", [NoTerminator, SingleBlock,
    ParentOneOf<["FuncOp", "LoopOp"]>]> {
  let summary = "a counted loop with static bounds";
  let description = [{
    Runs its body for `iv = lower, lower + step, ... < upper`. The induction
    variable has no SSA value: symbolic access patterns of instructions
    nested in `n` loops name the loop induction variables as dims
    `d0 .. d(n-1)`, outermost first. This is BIR's nested-region
    instruction (opcode 105).

    ```mlir
    bir.loop 0 to 4 step 1 {
      bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>],
                  %w[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>],
                  %x[#bir.sap<(d0)[s0] -> (d0 * 512), [[2048, 128], [1, 512]]>]
        : !bir.psum<128x512xf32>, !bir.sbuf<128x512xbf16>, !bir.sbuf<128x2048xbf16>
    }
    ```
  }];
  let arguments = (ins I64Attr:$lower, I64Attr:$upper, I64Attr:$step);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$lower `to` $upper `step` $step attr-dict-with-keyword $body";
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "int64_t":$lower, "int64_t":$upper,
                                 "int64_t":$step)>];
  let extraClassDeclaration = [{
    // Signed views of the bounds (the I64Attr getters are unsigned).
    int64_t getLowerBound() { return getLowerAttr().getInt(); }
    int64_t getUpperBound() { return getUpperAttr().getInt(); }
    int64_t getStepSize() { return getStepAttr().getInt(); }
    /// Number of iterations.
    int64_t getTripCount() {
      return (getUpperBound() - getLowerBound() + getStepSize() - 1) /
             getStepSize();
    }
    /// Value of the induction variable on the last iteration.
    int64_t getLastValue() {
      return getLowerBound() + (getTripCount() - 1) * getStepSize();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Memory locations
//===----------------------------------------------------------------------===//

def BIR_MemlocOp : BIR_Op<"memloc", [HasParent<"FuncOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a named tensor in SBUF, PSUM or DRAM";
  let description = [{
    Defines a tensor (BIR's MemoryLocation). Its type gives the memory, the
    partition count, the free shape and the element type; `kind` says whether
    the program reads it from outside (`input`), leaves it for outside
    (`output`) or uses it internally. Memory locations that share storage
    name the same `set` (BIR's MemoryLocationSet). After allocation an
    on-chip tensor carries its byte `address` within each partition and its
    `base_partition`.

    ```mlir
    %x = bir.memloc "x" input : !bir.dram<512x2048xbf16>
    %acc = bir.memloc "acc" internal set "acc_set" : !bir.psum<128x512xf32>
    %t = bir.memloc "t" internal address 1024 base_partition 0
      : !bir.sbuf<128x512xbf16>
    ```
  }];
  let arguments = (ins StrAttr:$name, BIR_TensorKind:$kind,
                       OptionalAttr<StrAttr>:$set,
                       OptionalAttr<I64Attr>:$address,
                       OptionalAttr<I64Attr>:$base_partition);
  let results = (outs BIR_AnyMemoryType:$result);
  let assemblyFormat = [{
    $name $kind (`set` $set^)? (`address` $address^)?
    (`base_partition` $base_partition^)? attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::walrus::bir::MemoryType getMemoryType() {
      return ::llvm::cast<::walrus::bir::MemoryType>(getResult().getType());
    }
  }];
}

def BIR_ViewOp : BIR_Op<"view", [HasParent<"FuncOp">, Pure]> {
  let summary = "a reinterpret-cast view of a memory location";
  let description = [{
    Gives the storage of `source` another shape or element type, in the same
    memory and with the same partition count. Accesses through the view
    access the source's bytes, so passes that reshape tensors leave a
    memory location that has views alone.

    ```mlir
    %t = bir.memloc "t" internal : !bir.sbuf<128x512xbf16>
    %v = bir.view %t : !bir.sbuf<128x512xbf16> to !bir.sbuf<128x256xf32>
    ```
  }];
  let arguments = (ins BIR_AnyMemoryType:$source);
  let results = (outs BIR_AnyMemoryType:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

// A tensor operand of an instruction, accessed through the pattern
// `<name>_ap` beside it. The marking gives the op's memory effects and,
// unless the op writes its own, its getAccesses.
class BIR_TensorArg<string accessKind, list<OpVariableDecorator> effects>
    : Arg<BIR_AnyMemoryType, "a tensor the instruction accesses", effects> {
  string kind = accessKind;
}
// The constant of a memset or tensor_scalar: an i64 integer attribute for
// integer tensors (exact up to 64 bits), an f64 float attribute otherwise.
def BIR_ImmediateAttr : AnyAttrOf<[I64Attr, F64Attr]>;

def BIR_ReadTensor : BIR_TensorArg<"Read", [MemRead]>;
def BIR_WrittenTensor : BIR_TensorArg<"Write", [MemWrite]>;
def BIR_UpdatedTensor : BIR_TensorArg<"ReadWrite", [MemRead, MemWrite]>;

class BIR_Capitalized<string name> {
  string result = !toupper(!substr(name, 0, 1)) # !substr(name, 1);
}

class BIR_InstOp<string mnemonic, list<Trait> traits = []>
    : BIR_Op<mnemonic, traits # [ParentOneOf<["FuncOp", "LoopOp"]>,
        DeclareOpInterfaceMethods<BIR_InstructionOpInterface,
                                  ["getAccesses"]>]> {
  // Whether getAccesses lists the BIR_TensorArg operands in order.
  bit generateAccesses = 1;
  let extraClassDefinition = !if(generateAccesses,
    "void $cppClass::getAccesses(\n"
    "    ::llvm::SmallVectorImpl<::walrus::bir::Access> &accesses) {\n" #
    !interleave(!foreach(i, !filter(i, !range(!size(arguments)),
                                    !initialized(!getdagarg<BIR_TensorArg>(
                                        arguments, i))),
      "  accesses.push_back({&get" #
      BIR_Capitalized<!getdagname(arguments, i)>.result # "Mutable(), get" #
      BIR_Capitalized<!getdagname(arguments, i)>.result #
      "ApAttrName(), &getProperties()." # !getdagname(arguments, i) #
      "_ap, ::walrus::bir::AccessKind::" #
      !getdagarg<BIR_TensorArg>(arguments, i).kind # "});"), "\n") #
    "\n}\n", "");
}

def BIR_DmaOp : BIR_InstOp<"dma"> {
  let summary = "DMA between DRAM and an on-chip tensor, or within SBUF";
  let description = [{
    Copies the elements of `src` to `dst` in pattern order: between DRAM and
    an on-chip tensor, or from SBUF to SBUF. Both sides have the same
    element type and count.

    ```mlir
    bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>],
            %x[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
    ```
  }];
  let arguments = (ins BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` attr-dict `:` type($dst)
    `,` type($src)
  }];
  let hasVerifier = 1;
}

def BIR_DmaGatherOp : BIR_InstOp<"dma_gather"> {
  let summary = "indirect DMA: rows of a DRAM table chosen by an index tile";
  let description = [{
    Gathers rows of a DRAM table into SBUF, as the hardware's indirect DMA
    does for embedding lookups: `src_ap` is `[[row_step, rows], [step,
    width]]`, the table's `rows` rows of `width` elements; `indices` holds
    one integer per partition of `dst`; partition `p` of `dst` receives
    row `indices[p]` of the table. An index outside `[0, rows)` is a
    run-time error naming the partition and the row.

    ```mlir
    bir.dma_gather %t[#bir.ap<0, [[768, 128], [1, 768]]>],
                   %table[#bir.ap<0, [[768, 30522], [1, 768]]>],
                   %ids[#bir.ap<0, [[1, 128], [1, 1]]>]
      : !bir.sbuf<128x768xf32>, !bir.dram<30522x768xf32>, !bir.sbuf<128x1xi64>
    ```
  }];
  let arguments = (ins BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       BIR_ReadTensor:$indices,
                       BIR_AccessPatternAttrInterface:$indices_ap,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` `,` $indices
    `[` $indices_ap `]` attr-dict `:` type($dst) `,` type($src) `,`
    type($indices)
  }];
  let hasVerifier = 1;
}

def BIR_TensorCopyOp : BIR_InstOp<"tensor_copy"> {
  let summary = "on-chip copy, converting the element type if they differ";
  let description = [{
    Copies `src` to `dst` element by element in pattern order; neither side
    is in DRAM. Both patterns touch the same number of elements.

    ```mlir
    bir.tensor_copy %o[#bir.ap<0, [[512, 128], [1, 512]]>],
                    %acc[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xbf16>, !bir.psum<128x512xf32>
    ```
  }];
  let arguments = (ins BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       OptionalAttr<IntegerSetAttr>:$mask,
                       OptionalAttr<BIR_ComputeEngine>:$engine);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` (`on` $engine^)? attr-dict
    `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def BIR_TensorCopyPredicatedOp : BIR_InstOp<"tensor_copy_predicated"> {
  let summary = "vector-engine copy of the elements a predicate selects";
  let description = [{
    Where `predicate` is nonzero (zero with `reverse`), `dst` takes `src`'s
    element; elsewhere `dst` keeps its value. `predicate` holds integers
    (NKI's `nki.isa.tensor_copy_predicated` takes uint8, uint16 or
    uint32); `src` and `dst` have one element type; every pattern touches
    as many elements as `dst`'s. A select is a copy of one side, then this
    copy of the other (docs/LinalgToBir.md, "Predicates").

    ```mlir
    bir.tensor_copy_predicated %y[#bir.ap<0, [[512, 128], [1, 512]]>],
        %x[#bir.ap<0, [[512, 128], [1, 512]]>]
        if %p[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xi8>
    ```
  }];
  let arguments = (ins BIR_UpdatedTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       BIR_ReadTensor:$predicate,
                       BIR_AccessPatternAttrInterface:$predicate_ap,
                       UnitAttr:$reverse,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` `if` $predicate
    `[` $predicate_ap `]` (`reverse` $reverse^)? attr-dict `:` type($dst)
    `,` type($src) `,` type($predicate)
  }];
  let hasVerifier = 1;
}

def BIR_MemsetOp : BIR_InstOp<"memset"> {
  let summary = "fill an on-chip tensor with a constant";
  let description = [{
    ```mlir
    bir.memset %t[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0
      : !bir.sbuf<128x512xf32>
    ```
  }];
  let arguments = (ins BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ImmediateAttr:$value,
                       OptionalAttr<IntegerSetAttr>:$mask,
                       OptionalAttr<BIR_ComputeEngine>:$engine);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` custom<Immediate>($value) (`on` $engine^)?
    attr-dict `:` type($dst)
  }];
  let hasVerifier = 1;
}

def BIR_TransposeOp : BIR_InstOp<"transpose"> {
  let summary = "swap the partition and free axes of an on-chip tile";
  let description = [{
    `dst[f][p] = src[p][f]`: `dst` walks as many partitions as `src` has
    elements per partition and the other way round. Element types match.

    ```mlir
    bir.transpose %kt[#bir.ap<0, [[128, 64], [1, 128]]>],
                  %k[#bir.ap<0, [[64, 128], [1, 64]]>]
      : !bir.sbuf<64x128xbf16>, !bir.sbuf<128x64xbf16>
    ```
  }];
  let arguments = (ins BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` attr-dict `:` type($dst)
    `,` type($src)
  }];
  let hasVerifier = 1;
}

def BIR_MatmultOp : BIR_InstOp<"matmult"> {
  let summary = "tensor-engine matmul accumulating into PSUM";
  let description = [{
    `dst[m][n] (+)= sum_k stationary[k][m] * moving[k][n]`. The contraction
    runs over partitions: `stationary` and `moving` walk the same number of
    partitions `K`, `dst` walks `M` partitions (the stationary free size) and
    `N` columns (the moving free size). `start` zeroes the accumulator before
    adding, `stop` closes the accumulation group. `replication` marks a
    replicated IFMAP (see `#bir.replication`).

    ```mlir
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>],
                %wT[#bir.ap<0, [[128, 128], [1, 128]]>],
                %x[#bir.ap<0, [[512, 128], [1, 512]]>] start stop
      : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    ```
  }];
  // Without `start` it adds to what the accumulator holds: its own
  // getAccesses says so.
  let generateAccesses = 0;
  let arguments = (ins BIR_UpdatedTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$stationary,
                       BIR_AccessPatternAttrInterface:$stationary_ap,
                       BIR_ReadTensor:$moving,
                       BIR_AccessPatternAttrInterface:$moving_ap,
                       UnitAttr:$start, UnitAttr:$stop,
                       OptionalAttr<BIR_ReplicationAttr>:$replication,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` $stationary `[` $stationary_ap `]` `,`
    $moving `[` $moving_ap `]` (`start` $start^)? (`stop` $stop^)?
    (`replication` $replication^)? attr-dict `:` type($dst) `,`
    type($stationary) `,` type($moving)
  }];
  let hasVerifier = 1;
}

def BIR_ActivationOp : BIR_InstOp<"activation", [AttrSizedOperandSegments]> {
  let summary = "scalar-engine elementwise function";
  let description = [{
    `dst = func(src * scale + bias)` element by element. The optional
    `bias` is one f32 value per partition (its pattern steps 0 along the
    free dimensions), as the scalar engine's bias vector is. The optional
    `scales` multiply each partition's elements by its own f32 value, as
    the scalar engine's scale vector does (NKI's `nisa.activation` takes
    `scale` as a constant or such a vector): then `scale` is 1. Trailing
    types: `dst`, `src`, then `bias`'s and `scales`' when present.

    ```mlir
    bir.activation exp %p[#bir.ap<0, [[512, 128], [1, 512]]>],
                       %s[#bir.ap<0, [[512, 128], [1, 512]]>]
                       bias %negmax[#bir.ap<0, [[1, 128], [0, 512]]>]
                       scale 0.125
      : !bir.sbuf<128x512xbf16>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x1xf32>
    bir.activation identity %y[#bir.ap<0, [[512, 128], [1, 512]]>],
                            %x[#bir.ap<0, [[512, 128], [1, 512]]>]
                            scales %r[#bir.ap<0, [[1, 128], [0, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x1xf32>
    ```
  }];
  // `bias` and `scales` are optional: its own getAccesses lists them when
  // present.
  let generateAccesses = 0;
  let arguments = (ins BIR_ActivationFunction:$function,
                       BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       Arg<Optional<BIR_AnyMemoryType>,
                           "a per-partition bias", [MemRead]>:$bias,
                       OptionalAttr<BIR_AccessPatternAttrInterface>:$bias_ap,
                       Arg<Optional<BIR_AnyMemoryType>,
                           "per-partition scales", [MemRead]>:$scales,
                       OptionalAttr<BIR_AccessPatternAttrInterface>:$scales_ap,
                       DefaultValuedAttr<F64Attr, "1.0">:$scale,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $function $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]`
    (`bias` $bias^ `[` $bias_ap `]`)? (`scales` $scales^ `[` $scales_ap `]`)?
    (`scale` $scale^)? attr-dict `:`
    custom<ActivationTypes>(type($dst), type($src), ref($bias), type($bias),
                            ref($scales), type($scales))
  }];
  let builders = [
    OpBuilder<(ins "ActivationFunction":$function, "::mlir::Value":$dst,
                   "AccessPatternAttr":$dstAp, "::mlir::Value":$src,
                   "AccessPatternAttr":$srcAp, "::llvm::APFloat":$scale,
                   CArg<"::mlir::IntegerSetAttr", "{}">:$mask), [{
      build($_builder, $_state, function, dst, dstAp, src, srcAp,
            /*bias=*/::mlir::Value(), /*biasAp=*/AccessPatternAttr(),
            /*scales=*/::mlir::Value(), /*scalesAp=*/AccessPatternAttr(),
            scale, mask);
    }]>,
    OpBuilder<(ins "ActivationFunction":$function, "::mlir::Value":$dst,
                   "AccessPatternAttr":$dstAp, "::mlir::Value":$src,
                   "AccessPatternAttr":$srcAp, "::mlir::Value":$bias,
                   "AccessPatternAttr":$biasAp, "::llvm::APFloat":$scale,
                   CArg<"::mlir::IntegerSetAttr", "{}">:$mask), [{
      build($_builder, $_state, function, dst, dstAp, src, srcAp, bias,
            biasAp, /*scales=*/::mlir::Value(),
            /*scalesAp=*/AccessPatternAttr(), scale, mask);
    }]>
  ];
  let hasVerifier = 1;
}

def BIR_TensorTensorOp : BIR_InstOp<"tensor_tensor"> {
  let summary = "vector-engine elementwise operation of two tensors";
  let description = [{
    `dst = lhs <op> rhs` element by element; a step of 0 broadcasts.

    ```mlir
    bir.tensor_tensor multiply %y[#bir.ap<0, [[512, 128], [1, 512]]>],
        %x[#bir.ap<0, [[512, 128], [1, 512]]>],
        %r[#bir.ap<0, [[1, 128], [0, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x1xf32>
    ```
  }];
  let arguments = (ins BIR_AluOp:$op,
                       BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$lhs,
                       BIR_AccessPatternAttrInterface:$lhs_ap,
                       BIR_ReadTensor:$rhs,
                       BIR_AccessPatternAttrInterface:$rhs_ap,
                       OptionalAttr<IntegerSetAttr>:$mask,
                       OptionalAttr<BIR_ComputeEngine>:$engine);
  let assemblyFormat = [{
    $op $dst `[` $dst_ap `]` `,` $lhs `[` $lhs_ap `]` `,` $rhs `[` $rhs_ap `]`
    (`on` $engine^)? attr-dict `:` type($dst) `,` type($lhs) `,` type($rhs)
  }];
  let hasVerifier = 1;
}

def BIR_TensorScalarOp : BIR_InstOp<"tensor_scalar"> {
  let summary = "vector-engine elementwise operation with a constant";
  let description = [{
    `dst = src <op> scalar` element by element, or `scalar <op> src` with
    `reverse`. An integer immediate on integer tensors is exact
    (`#bir` ALU semantics, see `AluOp`); on floats it is a double.

    ```mlir
    bir.tensor_scalar multiply %y[#bir.ap<0, [[512, 128], [1, 512]]>],
                               %x[#bir.ap<0, [[512, 128], [1, 512]]>], 0.5
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    ```
  }];
  let arguments = (ins BIR_AluOp:$op,
                       BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       BIR_ImmediateAttr:$scalar,
                       UnitAttr:$reverse,
                       OptionalAttr<IntegerSetAttr>:$mask,
                       OptionalAttr<BIR_ComputeEngine>:$engine);
  let assemblyFormat = [{
    $op $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` `,`
    custom<Immediate>($scalar) (`reverse` $reverse^)? (`on` $engine^)?
    attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def BIR_TensorReduceOp : BIR_InstOp<"tensor_reduce"> {
  let summary = "vector-engine reduction along the innermost pattern dimension";
  let description = [{
    Reduces `src` with `op` over its last `[step, num]` pair: `dst` touches
    `num` times fewer elements than `src`.

    ```mlir
    bir.tensor_reduce max %m[#bir.ap<0, [[1, 128], [1, 1]]>],
                          %s[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x512xf32>
    ```
  }];
  let arguments = (ins BIR_AluOp:$op,
                       BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $op $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` attr-dict `:` type($dst)
    `,` type($src)
  }];
  let hasVerifier = 1;
}

def BIR_TensorTensorScanOp : BIR_InstOp<"tensor_tensor_scan"> {
  let summary = "vector-engine scan of two tensors along each row";
  let description = [{
    A recurrence along the last `[step, num]` pair of the patterns (a row),
    NKI's `nki.isa.tensor_tensor_scan`: with `r` the previous result of the
    row (`initial` before its first element),
    `dst[i] = (data0[i] <op0> r) <op1> data1[i]`. `reverse0` swaps the
    operands of `op0`, `reverse1` those of `op1`. Computed in double and
    rounded at each store.

    ```mlir
    // h[t] = a[t] * h[t - 1] + b[t] along 512 steps, 128 rows at once.
    bir.tensor_tensor_scan multiply, add %h[#bir.ap<0, [[512, 128], [1, 512]]>],
        %a[#bir.ap<0, [[512, 128], [1, 512]]>],
        %b[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    ```
  }];
  let arguments = (ins BIR_AluOp:$op0,
                       BIR_AluOp:$op1,
                       BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$data0,
                       BIR_AccessPatternAttrInterface:$data0_ap,
                       BIR_ReadTensor:$data1,
                       BIR_AccessPatternAttrInterface:$data1_ap,
                       F64Attr:$initial,
                       UnitAttr:$reverse0,
                       UnitAttr:$reverse1,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $op0 `,` $op1 $dst `[` $dst_ap `]` `,` $data0 `[` $data0_ap `]` `,`
    $data1 `[` $data1_ap `]` `,` $initial (`reverse0` $reverse0^)?
    (`reverse1` $reverse1^)? attr-dict `:` type($dst) `,` type($data0) `,`
    type($data1)
  }];
  let hasVerifier = 1;
}

def BIR_CollectiveOp : BIR_InstOp<"collective"> {
  let summary = "cross-core collective whose geometry depends on the shard id";
  let description = [{
    A collective over all `lnc_size` cores (BIR opcode 48). `all_reduce`
    reduces (with the `reduce` operation) `src` of every core elementwise into `dst` of every core.
    `all_gather` places each core's `src` in every core's `dst` at element
    `shard_offset(core)` relative to the dst start; `reduce_scatter` reduces
    the slice of every core's `src` that starts at `shard_offset(core)`
    into that core's `dst`. `shard_offset` is a map with no dims and the
    shard id as its only symbol: the geometry on the op itself that
    `-lnc-split` binds per core.

    ```mlir
    bir.collective all_gather %g[#bir.ap<0, [[1024, 128], [1, 1024]]>],
        %l[#bir.ap<0, [[512, 128], [1, 512]]>]
        shard_offset affine_map<()[s0] -> (s0 * 512)>
      : !bir.sbuf<128x1024xf32>, !bir.sbuf<128x512xf32>
    ```
  }];
  let arguments = (ins BIR_CollectiveKind:$kind,
                       OptionalAttr<BIR_AluOp>:$reduction,
                       BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       OptionalAttr<AffineMapAttr>:$shard_offset,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $kind $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]`
    (`reduce` $reduction^)? (`shard_offset` $shard_offset^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def BIR_CoreBarrierOp : BIR_InstOp<"core_barrier"> {
  let summary = "named barrier across all logical cores";
  let description = [{
    Every core waits until all cores reach the barrier of the same name. The
    per-core programs must have the same barriers in the same order.

    ```mlir
    bir.core_barrier "after_partial_sums"
    ```
  }];
  let arguments = (ins StrAttr:$name, OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = "$name attr-dict";
  let hasVerifier = 1;
}

def BIR_Sb2SbOp : BIR_InstOp<"sb2sb"> {
  let summary = "copy from this core's SBUF into another core's SBUF";
  let description = [{
    Writes `src` of this core into `dst` of core `peer(shard id)`. `peer`
    is a map with no dims and the shard id as its only symbol.

    ```mlir
    bir.sb2sb %remote[#bir.ap<0, [[512, 128], [1, 512]]>],
              %local[#bir.ap<0, [[512, 128], [1, 512]]>]
              peer affine_map<()[s0] -> (1 - s0)>
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    ```
  }];
  let arguments = (ins BIR_WrittenTensor:$dst,
                       BIR_AccessPatternAttrInterface:$dst_ap,
                       BIR_ReadTensor:$src,
                       BIR_AccessPatternAttrInterface:$src_ap,
                       AffineMapAttr:$peer,
                       OptionalAttr<IntegerSetAttr>:$mask);
  let assemblyFormat = [{
    $dst `[` $dst_ap `]` `,` $src `[` $src_ap `]` `peer` $peer attr-dict
    `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

#endif // WALRUS_DIALECT_BIR_IR_BIROPS_TD
