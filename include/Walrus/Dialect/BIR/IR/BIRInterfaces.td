//===- BIRInterfaces.td - bir type, attribute and op interfaces -*- tablegen -*-===//

#ifndef WALRUS_DIALECT_BIR_IR_BIRINTERFACES_TD
#define WALRUS_DIALECT_BIR_IR_BIRINTERFACES_TD

include "mlir/IR/OpBase.td"

def BIR_MemoryTypeInterface : TypeInterface<"MemoryType"> {
  let cppNamespace = "::walrus::bir";
  let description = [{
    A tensor stored in one of the NeuronCore memories. The first dimension of
    an on-chip (SBUF, PSUM) tensor is its partition dimension; the remaining
    dimensions are the free shape, laid out row-major inside each partition.
    Element `e` of a tensor with `F` free elements sits in partition `e / F`
    at column `e % F`.
  }];
  let methods = [
    InterfaceMethod<"The full shape, partition dimension first.",
      "::llvm::ArrayRef<int64_t>", "getShape">,
    InterfaceMethod<"The element type.", "::mlir::Type", "getElementType">,
    InterfaceMethod<"The memory this tensor lives in.",
      "::walrus::bir::MemorySpace", "getMemorySpace">,
    InterfaceMethod<[{
        The same kind of tensor (memory and element type) with another
        shape, partition dimension first.
      }], "::walrus::bir::MemoryType", "cloneWith",
      (ins "::llvm::ArrayRef<int64_t>":$shape)>,
  ];
  let extraSharedClassDeclaration = [{
    /// Number of partitions (the leading dimension).
    int64_t getPartitions() { return $_type.getShape().front(); }
    /// Number of elements per partition (product of the free shape).
    int64_t getFreeSize() {
      int64_t size = 1;
      for (int64_t dim : $_type.getShape().drop_front())
        size *= dim;
      return size;
    }
    int64_t getNumElements() { return getPartitions() * getFreeSize(); }
    int64_t getElementBytes() {
      return $_type.getElementType().getIntOrFloatBitWidth() / 8;
    }
    int64_t getBytesPerPartition() { return getFreeSize() * getElementBytes(); }
    bool isOnChip() {
      return $_type.getMemorySpace() != ::walrus::bir::MemorySpace::DRAM;
    }
  }];
}

def BIR_AccessPatternAttrInterface : AttrInterface<"AccessPatternAttr"> {
  let cppNamespace = "::walrus::bir";
  let description = [{
    An access pattern: a start element plus `[step, num]` pairs. The pattern
    touches `start + sum(step_i * idx_i)` for `0 <= idx_i < num_i`; pair 0
    walks partitions. Physical patterns have a constant start; symbolic ones
    compute it from loop induction variables and the shard id.
  }];
  let methods = [
    InterfaceMethod<"Step of each dimension, partition dimension first.",
      "::llvm::ArrayRef<int64_t>", "getSteps">,
    InterfaceMethod<"Extent of each dimension, partition dimension first.",
      "::llvm::ArrayRef<int64_t>", "getNums">,
    InterfaceMethod<[{
        The start element as a single-result map over the enclosing loop
        induction variables (dims) and the shard id (symbol 0).
      }], "::mlir::AffineMap", "getStartMap">,
  ];
  let extraSharedClassDeclaration = [{
    /// Number of elements the pattern touches.
    int64_t getNumElements() {
      int64_t count = 1;
      for (int64_t num : $_attr.getNums())
        count *= num;
      return count;
    }
    /// Number of partitions the pattern walks (its first extent).
    int64_t getPartitionCount() { return $_attr.getNums().front(); }
    /// Number of elements it touches per partition.
    int64_t getFreeCount() { return getNumElements() / getPartitionCount(); }
    /// Lowest and highest element touched relative to the start.
    std::pair<int64_t, int64_t> getRelativeExtent() {
      int64_t low = 0, high = 0;
      for (auto [step, num] : llvm::zip($_attr.getSteps(), $_attr.getNums())) {
        int64_t span = step * (num - 1);
        (span < 0 ? low : high) += span;
      }
      return {low, high};
    }
  }];
}

def BIR_InstructionOpInterface : OpInterface<"InstructionOpInterface"> {
  let cppNamespace = "::walrus::bir";
  let description = [{
    A leaf instruction of a NeuronCore program. It lists every tensor access
    it makes (memory location, access pattern, read or write), so passes find
    readers and writers without switching on op kinds, and it may carry an
    affine `mask` over the shard id: the instruction runs on core `c` iff the
    mask holds for `s0 = c`.
  }];
  let methods = [
    InterfaceMethod<"Appends every access the instruction makes.",
      "void", "getAccesses",
      (ins "::llvm::SmallVectorImpl<::walrus::bir::Access> &":$accesses)>,
    InterfaceMethod<"The shard mask, or null if it runs on every core.",
      "::mlir::IntegerSetAttr", "getMaskAttr">,
  ];
  let verify = [{ return ::walrus::bir::verifyInstruction($_op); }];
}

#endif // WALRUS_DIALECT_BIR_IR_BIRINTERFACES_TD
