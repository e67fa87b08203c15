//===- BIRTypes.td - bir memory types ----------------------*- tablegen -*-===//

#ifndef WALRUS_DIALECT_BIR_IR_BIRTYPES_TD
#define WALRUS_DIALECT_BIR_IR_BIRTYPES_TD

include "Walrus/Dialect/BIR/IR/BIRDialect.td"
include "Walrus/Dialect/BIR/IR/BIRInterfaces.td"
include "mlir/IR/AttrTypeBase.td"

class BIR_MemoryTypeDef<string name, string typeMnemonic, string space>
    : TypeDef<BIR_Dialect, name, [BIR_MemoryTypeInterface]> {
  let mnemonic = typeMnemonic;
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<Shape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::walrus::bir::MemorySpace getMemorySpace() const {
      return ::walrus::bir::MemorySpace::}] # space # [{;
    }
    ::walrus::bir::MemoryType cloneWith(::llvm::ArrayRef<int64_t> shape) const {
      return get(getContext(), shape, getElementType());
    }
  }];
}

def BIR_SbufType : BIR_MemoryTypeDef<"Sbuf", "sbuf", "SBUF"> {
  let summary = "a tensor in the 2-D on-chip state buffer (SBUF)";
  let description = [{
    Partition count x free shape x element type. The partition dimension
    comes first and is at most the target's partition count (128).

    ```mlir
    !bir.sbuf<128x512xbf16>
    !bir.sbuf<128x4x512xf32>   // four 512-column blocks per partition
    ```
  }];
}

def BIR_PsumType : BIR_MemoryTypeDef<"Psum", "psum", "PSUM"> {
  let summary = "a tensor in the partial-sum (matmul accumulator) buffer";
  let description = [{
    Partition count x free shape x element type, like `!bir.sbuf`. Matmults
    accumulate into PSUM in fp32 (or int32).

    ```mlir
    !bir.psum<128x512xf32>
    ```
  }];
}

def BIR_DramType : BIR_MemoryTypeDef<"Dram", "dram", "DRAM"> {
  let summary = "a tensor in device DRAM (HBM)";
  let description = [{
    A row-major tensor in DRAM; its first dimension has no partition meaning
    but access patterns are written the same way as for on-chip tensors.

    ```mlir
    !bir.dram<1024x512xbf16>
    ```
  }];
}

def BIR_AnyMemoryType : Type<
    CPred<"::llvm::isa<::walrus::bir::MemoryType>($_self)">,
    "a bir memory type", "::walrus::bir::MemoryType">;

#endif // WALRUS_DIALECT_BIR_IR_BIRTYPES_TD
