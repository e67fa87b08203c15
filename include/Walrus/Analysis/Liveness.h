//===- Liveness.h - Live ranges of tensors in program order -----*- C++ -*-===//
//
// The time axis of SBUF allocation: a linear order of program points and,
// per memory location, the interval during which it holds a value anyone
// still reads, extended across loops as the reference allocator does
// (live_range's common loop-nest prefix rule:
// docs/Reference.md, the allocator page, "The time axis"). Never mutates the
// IR.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_LIVENESS_H
#define WALRUS_ANALYSIS_LIVENESS_H

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Placement/Problem.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace walrus {

using placement::LiveRange;
using placement::RowBlockRange;

/// Program points of a function in execution order: each instruction, and
/// for each loop a header point before its body and an end point after it.
/// Instructions learn their points from a visitor during numbering (a map
/// from every instruction back to its point costs more than the walk).
class ProgramOrder {
public:
  /// Called on each instruction in program order with its point and the
  /// loops around it, outermost first.
  using InstructionVisitor = llvm::function_ref<void(
      bir::InstructionOpInterface, unsigned, llvm::ArrayRef<bir::LoopOp>)>;

  /// Numbers `func`'s points, showing each instruction to `visit` and,
  /// in the same walk, each memory location to `visitMemloc` (memory
  /// locations dominate their uses, so each is seen before its accesses).
  explicit ProgramOrder(
      bir::FuncOp func, InstructionVisitor visit = nullptr,
      llvm::function_ref<void(bir::MemlocOp)> visitMemloc = nullptr);
  /// No points (until assigned).
  ProgramOrder() = default;

  unsigned getLoopHeader(bir::LoopOp loop) const {
    return loopHeaders.lookup(loop);
  }
  unsigned getLoopEnd(bir::LoopOp loop) const { return loopEnds.lookup(loop); }
  unsigned getNumPoints() const { return numPoints; }

private:
  llvm::DenseMap<mlir::Operation *, unsigned> loopHeaders, loopEnds;
  unsigned numPoints = 0;
};

/// Live ranges of every memory location of a function (accesses through
/// views count for the viewed location).
///
/// The range runs from the first to the last access. An access nested in a
/// loop that the location's other accesses are outside of counts from that
/// loop's header to its end (a value written in iteration i may be read
/// after the loop, a value read in iteration i may have been written before
/// it). When every access sits inside one loop, the value stays inside an
/// iteration only if the first access of the body is a plain, unmasked
/// write of a fixed rectangle that contains everything the body reads, by
/// an instruction that does not read the location too (it would read the
/// previous iteration's value); otherwise the range covers the whole loop.
/// A rotating buffer (`bir.rotating`) always covers the whole loop, so the
/// buffers of one rotation never share bytes. Inputs are live from the
/// start, outputs until the end.
class TensorLiveness {
public:
  /// With `visit`, also shows each instruction to it, with its point, on
  /// the same walk (so that callers need no walk of their own).
  explicit TensorLiveness(bir::FuncOp func,
                          ProgramOrder::InstructionVisitor visit = nullptr);

  const ProgramOrder &getOrder() const { return order; }
  /// The function's memory locations, in order; an index below is a
  /// position in this list.
  llvm::ArrayRef<bir::MemlocOp> getMemlocs() const { return memlocs; }
  std::optional<unsigned> getIndex(bir::MemlocOp memloc) const {
    auto it = indexOf.find(memloc.getResult());
    if (it == indexOf.end())
      return std::nullopt;
    return it->second;
  }
  /// The range of memory location `index`, or nothing if it is never
  /// accessed and is no program input or output.
  std::optional<LiveRange> getLiveRange(unsigned index) const {
    return ranges[index];
  }
  std::optional<LiveRange> getLiveRange(bir::MemlocOp memloc) const {
    std::optional<unsigned> index = getIndex(memloc);
    return index ? ranges[*index] : std::nullopt;
  }
  /// How often memory location `index` is accessed: each access weighted
  /// by the trip counts of the loops around it.
  double getAccessWeight(unsigned index) const { return accessWeights[index]; }
  /// Whether an instruction after the first to access memory location
  /// `index` writes it without reading it, unmasked: a new value may start
  /// there (where memloc_split may cut).
  bool isRewritten(unsigned index) const { return rewritten[index]; }

  /// Per memory location (by index), the ranges of its blocks of
  /// `blockRows` partitions when they differ: each block's range follows
  /// the rules above over the accesses that touch its rows, so a block
  /// whose last reader comes early dies early (the reference's eInterval
  /// per partition block). Empty for a location whose blocks all live
  /// over getLiveRange, and for program inputs and outputs and locations
  /// that no access reads in part. Walks the function again, only when
  /// some access touches part of a location's rows.
  std::vector<llvm::SmallVector<RowBlockRange, 0>>
  getBlockRanges(int64_t blockRows) const;

private:
  bir::FuncOp func;
  ProgramOrder order;
  llvm::SmallVector<bir::MemlocOp, 0> memlocs;
  /// Keyed by the location's value: an access names it, so the walk finds
  /// a location without reading its operation (at 60k tensors the IR no
  /// longer fits in any cache, and that read was a miss per access).
  llvm::DenseMap<mlir::Value, unsigned> indexOf;
  std::vector<std::optional<LiveRange>> ranges;
  std::vector<double> accessWeights;
  std::vector<bool> rewritten;
  /// Whether some access reads or writes part of the location's rows.
  std::vector<bool> partialRows;
  /// Whether some access sits in a loop.
  std::vector<bool> inLoops;
};

} // namespace walrus

#endif // WALRUS_ANALYSIS_LIVENESS_H
