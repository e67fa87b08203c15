//===- Machine.h - Cores, their memories and instruction execution -*- C++
//-*-===//

#ifndef WALRUS_LIB_INTERPRETER_MACHINE_H
#define WALRUS_LIB_INTERPRETER_MACHINE_H

#include "Walrus/Interpreter/Interpreter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

namespace walrus::interp {

struct Operand;

/// Where the elements of a tensor value live: element `e` of an on-chip
/// tensor with `freeSize` elements per partition is at byte
/// `(e / freeSize) * pitch + (e % freeSize) * elementBytes` from `base`;
/// a DRAM tensor is row-major from `base`.
struct Storage {
  uint8_t *base = nullptr;
  int64_t pitch = 0;
  int64_t freeSize = 1;
  int64_t elementBytes = 1;
  int64_t numElements = 0;
  mlir::Type elementType;
  bool onChip = false;

  uint8_t *element(int64_t e) const {
    if (!onChip)
      return base + e * elementBytes;
    return base + (e / freeSize) * pitch + (e % freeSize) * elementBytes;
  }
};

/// What a run may still use: bytes to allocate (RunOptions::maxBytes) and
/// loop iterations to run (RunOptions::maxIterations).
struct MemoryBudget {
  int64_t left;
  int64_t iterationsLeft = int64_t(1) << 62;
  int64_t elementsLeft = int64_t(1) << 62;
  /// Takes `bytes`, or fails with an error at `op` naming `what`.
  mlir::LogicalResult take(int64_t bytes, mlir::Operation *op,
                           llvm::StringRef what);
  /// Counts `elements` of an operand of `op` against the run's work limit.
  mlir::LogicalResult process(int64_t elements, mlir::Operation *op);
};

/// One logical core running one function.
class Core {
public:
  Core(int64_t shard, bir::FuncOp func, uint8_t fill, MemoryBudget &budget);

  int64_t getShard() const { return shard; }
  bir::FuncOp getFunc() const { return func; }
  bool isFinished() const { return frames.empty(); }
  /// The cross-core instruction this core waits at, if any.
  mlir::Operation *getWaitingAt() const { return waitingAt; }

  /// Executes instructions until the core finishes or reaches a barrier or
  /// collective it takes part in (which it does not execute).
  mlir::LogicalResult runUntilSync(class Machine &machine);
  /// Moves past the barrier or collective the core waits at.
  void resume();

  /// Values of the enclosing loops' induction variables, outermost first.
  llvm::ArrayRef<int64_t> getInductionVariables() const { return ivs; }

  /// Storage of a tensor value of this core's function.
  mlir::FailureOr<Storage> resolve(mlir::Value tensor, Dram &dram);
  /// Storage of the memory location that `tensor` names, on this core,
  /// seen through `tensor`'s type (for writes from another core).
  mlir::FailureOr<Storage> resolveByName(mlir::Value tensor, Dram &dram);

private:
  struct Frame {
    mlir::Block::iterator next, end;
    bir::LoopOp loop; // null for the function body
  };
  void enterBlock(mlir::Block &block, bir::LoopOp loop);

  int64_t shard;
  bir::FuncOp func;
  uint8_t fill;
  MemoryBudget *budget;

public:
  MemoryBudget &getBudget() { return *budget; }
  llvm::SmallVector<Frame> frames;
  llvm::SmallVector<int64_t> ivs;
  mlir::Operation *waitingAt = nullptr;
  std::vector<uint8_t> sbuf, psum; // sized on first use by a placed tensor
  llvm::DenseMap<mlir::Operation *, std::vector<uint8_t>> ownBuffers;
  llvm::DenseMap<mlir::Value, Storage> storages;
  llvm::StringMap<bir::MemlocOp> memlocsByName;
};

struct CollectiveOperands;

/// The cores of one program over the shared DRAM.
class Machine {
public:
  Machine(Dram &dram, std::vector<Core> cores)
      : dram(dram), cores(std::move(cores)) {}

  /// Runs every core to completion, meeting at barriers and collectives.
  mlir::LogicalResult run();

  /// Executes one instruction on `core`.
  mlir::LogicalResult execute(Core &core, mlir::Operation *op);

private:
  mlir::LogicalResult synchronize();
  /// Every waiting core's operands of its collective (Machine.cpp).
  mlir::FailureOr<CollectiveOperands> loadCollective();
  mlir::LogicalResult executeCollective();
  /// Fetches `op`'s operands (each tensor through its pattern, as `core`
  /// sees it, within its element budget), then runs `run` on them.
  mlir::LogicalResult fetchAndRun(
      Core &core, mlir::Operation *op,
      llvm::ArrayRef<std::pair<mlir::Value, bir::AccessPatternAttr>> tensors,
      llvm::function_ref<mlir::LogicalResult(llvm::MutableArrayRef<Operand>)>
          run);
  mlir::LogicalResult executeMatmult(Core &core, bir::MatmultOp matmult,
                                     llvm::MutableArrayRef<Operand> operands);
  mlir::LogicalResult executeSb2Sb(Core &core, bir::Sb2SbOp copy);
  /// The activation and the vector engine's ALU instructions.
  mlir::LogicalResult executeVector(Core &core, mlir::Operation *op);
  mlir::LogicalResult executeGather(Core &core, bir::DmaGatherOp gather);

  Dram &dram;
  std::vector<Core> cores;
};

} // namespace walrus::interp

#endif // WALRUS_LIB_INTERPRETER_MACHINE_H
