//===- Allocation.h - A function's SBUF allocation as data ------*- C++ -*-===//
//
// What an embedder reads after -sb-alloc, without re-parsing `address` and
// `base_partition` by hand: each SBUF tensor's rectangle (partitions x
// bytes) over its live range, the peak, the lower bound and the spills. The
// Python package and the C API are views of this.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_ALLOCATION_H
#define WALRUS_ANALYSIS_ALLOCATION_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include <optional>
#include <string>
#include <vector>

namespace walrus {

/// One allocation node: an SBUF tensor, or partners sharing one place.
struct TensorPlacement {
  /// The tensors at this place; the first names the node.
  std::vector<std::string> tensors;
  int64_t partitions = 0;
  int64_t bytes = 0; // per partition
  /// Which partition bands it may take (docs/placement/Problem.md, "Nodes,
  /// bands and placements").
  unsigned bandClass = 0;
  /// Set when the tensor is placed.
  std::optional<int64_t> basePartition, address;
  /// Program points [start, end]; unset when nothing accesses the tensor.
  std::optional<int64_t> start, end;
};

/// The SBUF allocation of one function.
struct FunctionAllocation {
  /// "@kernel::@nc00::@main".
  std::string function;
  /// The core of a split program.
  std::optional<int64_t> core;
  std::vector<TensorPlacement> tensors;
  /// Highest byte any tensor reaches, per partition; unset while some
  /// tensor has no place.
  std::optional<int64_t> peak;
  /// The largest footprint live at one point (bytes per partition): no
  /// placement peaks lower.
  int64_t lowerBound = 0;
  /// DRAM homes -sb-alloc gave tensors it spilled.
  int64_t spills = 0;
  /// The target's SBUF and the function's number of program points.
  int64_t sbufPartitions = 0, sbufBytesPerPartition = 0;
  int64_t points = 0;
};

/// The allocation `func` carries, with live ranges and lower bound from
/// the analyses -sb-alloc and -sb-alloc-verify use.
FunctionAllocation getAllocation(bir::FuncOp func);

} // namespace walrus

#endif // WALRUS_ANALYSIS_ALLOCATION_H
