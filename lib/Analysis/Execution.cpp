//===- Execution.cpp - The instructions a core executes -------------------===//

#include "Walrus/Analysis/Execution.h"
#include "Walrus/Dialect/BIR/IR/ShardBinding.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// Whether `loop` holds an instruction at any depth.
static bool hasInstructions(LoopOp loop) {
  return loop
      .walk([](InstructionOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Whether instruction `inst` runs on `shard`.
static bool runsOn(InstructionOpInterface inst, int64_t shard) {
  IntegerSetAttr mask = inst.getMaskAttr();
  return !mask || isMaskTrueAt(mask.getValue(), shard);
}

ExecutionCursor::ExecutionCursor(Block &block, int64_t shard) : shard(shard) {
  frames.push_back({block.begin(), block.end(), nullptr});
}

Operation *ExecutionCursor::next() {
  while (!frames.empty()) {
    Frame &frame = frames.back();
    if (frame.at == frame.end) {
      if (frame.loop) {
        std::optional<int64_t> iv =
            llvm::checkedAdd(ivs.back(), frame.loop.getStepSize());
        if (iv && *iv < frame.loop.getUpperBound()) {
          ivs.back() = *iv;
          frame.at = frame.loop.getBody().front().begin();
          continue;
        }
        ivs.pop_back();
      }
      frames.pop_back();
      continue;
    }
    Operation &op = *frame.at++;
    if (auto loop = dyn_cast<LoopOp>(op)) {
      if (loop.getLowerBound() >= loop.getUpperBound() ||
          !hasInstructions(loop))
        continue;
      Block &body = loop.getBody().front();
      ivs.push_back(loop.getLowerBound());
      frames.push_back({body.begin(), body.end(), loop});
      continue;
    }
    auto inst = dyn_cast<InstructionOpInterface>(op);
    if (inst && runsOn(inst, shard))
      return &op;
  }
  return nullptr;
}

/// The instructions `shard` executes in one run of `block`, which runs
/// `times` times in all; `heaviest` follows the instruction run most.
static int64_t count(Block &block, int64_t shard, int64_t times,
                     HeaviestInstruction *heaviest) {
  constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();
  int64_t total = 0;
  for (Operation &op : block) {
    int64_t executed = 0;
    if (auto loop = dyn_cast<LoopOp>(op)) {
      int64_t trips =
          loop.getLowerBound() < loop.getUpperBound() ? loop.getTripCount() : 0;
      int64_t body =
          count(loop.getBody().front(), shard,
                llvm::checkedMul(times, trips).value_or(kSaturated), heaviest);
      executed = llvm::checkedMul(body, trips).value_or(kSaturated);
    } else if (auto inst = dyn_cast<InstructionOpInterface>(op)) {
      executed = runsOn(inst, shard) ? 1 : 0;
      if (executed && heaviest && times > heaviest->times)
        *heaviest = {&op, times};
    }
    total = llvm::checkedAdd(total, executed).value_or(kSaturated);
  }
  return total;
}

int64_t walrus::countExecuted(Block &block, int64_t shard,
                              HeaviestInstruction *heaviest) {
  return count(block, shard, 1, heaviest);
}
