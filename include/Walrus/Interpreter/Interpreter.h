//===- Interpreter.h - Reference interpreter for BIR ------------*- C++ -*-===//
//
// Executes BIR programs on byte arrays: the oracle that tells whether a
// pass kept every DRAM output byte. docs/Interpreter.md defines the memory
// model, the order of cores and the semantics of cross-core instructions.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_INTERPRETER_INTERPRETER_H
#define WALRUS_INTERPRETER_INTERPRETER_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "llvm/ADT/MapVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace walrus::interp {

/// One DRAM tensor, shared by every core and every program of a run.
struct DramTensor {
  bir::MemoryType type;
  bir::TensorKind kind;
  std::vector<uint8_t> bytes;
};

/// DRAM by memory-location name, in the order the tensors first appear.
using Dram = llvm::MapVector<llvm::StringRef, DramTensor>;

struct RunOptions {
  /// Seeds the values of inputs not given in `inputFiles`.
  uint64_t seed = 0;
  /// Input name -> file (.npy, or raw bytes of exactly the tensor's size).
  llvm::StringMap<std::string> inputFiles;
  /// Byte that on-chip memory holds before anything writes it; reading
  /// unwritten memory then shows in the outputs instead of reading zeros.
  uint8_t uninitializedByte = 0xA5;
  /// The most bytes the run may hold at once (DRAM tensors, each core's
  /// on-chip memories, an instruction's operands): past it the run stops
  /// with an error at the tensor or instruction, before allocating.
  int64_t maxBytes = int64_t(4) << 30;
  /// The most loop iterations the run may execute, over all cores: a
  /// program of billions of iterations stops with an error at the loop.
  int64_t maxIterations = int64_t(1) << 22;
  /// The most operand elements the run's instructions may read and write,
  /// over all cores: a few loop iterations over large tiles are as long a
  /// run as many over small ones.
  int64_t maxElements = int64_t(1) << 28;
};

/// Runs every program in `top` over one DRAM: a symbolic module once per
/// core (shard id bound), or each group of per-core modules produced by
/// -lnc-split. Errors are emitted as diagnostics at the offending op.
mlir::FailureOr<Dram> run(mlir::ModuleOp top, const RunOptions &options);

/// Prints `tensor`'s elements, row-major, one row per line.
void printTensor(llvm::raw_ostream &os, llvm::StringRef name,
                 const DramTensor &tensor);

/// Writes `tensor` as a .npy file (bf16 and fp8 as float32, values exact).
mlir::LogicalResult writeNpy(llvm::StringRef path, const DramTensor &tensor,
                             std::string &error);

/// Compares the outputs of two runs bit for bit. Returns the description of
/// the first difference, or std::nullopt when they are identical.
std::optional<std::string> compareOutputs(const Dram &before,
                                          const Dram &after);

} // namespace walrus::interp

#endif // WALRUS_INTERPRETER_INTERPRETER_H
