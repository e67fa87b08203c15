//===- FuseSiblings.cpp - elementwise generics that read one buffer -------===//
//
// Two elementwise generics over the same loops that read one buffer become
// one generic with both outputs, so that the buffer is read once
// (Passes.td, FuseSiblings).
//
//===----------------------------------------------------------------------===//

#include "FuseProducer.h"
#include "Walrus/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace walrus {
#define GEN_PASS_DEF_FUSESIBLINGS
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;

/// An all-parallel generic on buffers of static loops whose body computes
/// with arith and math alone.
static bool isElementwiseGeneric(linalg::GenericOp generic) {
  if (!generic.hasPureBufferSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      ShapedType::isDynamicShape(generic.getStaticLoopRanges()))
    return false;
  return walrus::computesWithArithAndMath(generic);
}

/// The buffer `value` views: through subviews, reshapes and casts.
static Value getRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

namespace {
/// The linalg ops that read each buffer (the buffer its views view).
struct BufferReaders {
  llvm::DenseMap<Value, llvm::SmallPtrSet<Operation *, 4>> readers;

  explicit BufferReaders(Operation *root) {
    root->walk([&](linalg::LinalgOp op) { add(op); });
  }
  void add(linalg::LinalgOp op) {
    for (OpOperand *input : op.getDpsInputOperands())
      readers[getRoot(input->get())].insert(op);
  }
  void remove(linalg::LinalgOp op) {
    for (OpOperand *input : op.getDpsInputOperands())
      readers[getRoot(input->get())].erase(op);
  }
  /// Whether a linalg op other than `a` and `b` reads `buffer`.
  bool readByOthers(Value buffer, Operation *a, Operation *b) const {
    auto found = readers.find(getRoot(buffer));
    return found != readers.end() &&
           llvm::any_of(found->second,
                        [&](Operation *op) { return op != a && op != b; });
  }
};
} // namespace

/// Whether an op only computes or allocates: a generic may move past it.
static bool touchesNoMemory(Operation &op) {
  if (isMemoryEffectFree(&op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Read>() &&
         !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

/// Whether `a` and `b` (b the first op after `a` that touches memory) may
/// become one generic at `b`: the same loops, at most `maxBodyOps` ops
/// together, neither reading a buffer either writes, and no other linalg
/// op reading what they write (the forms the lowering recognises around a
/// reader keep their single output).
static bool areSiblings(linalg::GenericOp a, linalg::GenericOp b,
                        int64_t maxBodyOps, const BufferReaders &readers) {
  if (a.getStaticLoopRanges() != b.getStaticLoopRanges() ||
      int64_t(a.getBody()->getOperations().size() +
              b.getBody()->getOperations().size()) > maxBodyOps)
    return false;
  llvm::SmallPtrSet<Value, 8> written;
  for (linalg::GenericOp op : {a, b})
    for (Value init : op.getDpsInits()) {
      written.insert(getRoot(init));
      if (readers.readByOthers(init, a, b))
        return false;
    }
  for (linalg::GenericOp op : {a, b})
    for (Value input : op.getDpsInputs())
      if (written.contains(getRoot(input)))
        return false;
  return true;
}

/// Whether `b` reads an input of `a` through the same map.
static bool sharesInput(linalg::GenericOp a, linalg::GenericOp b) {
  for (OpOperand *input : a.getDpsInputOperands())
    for (OpOperand *other : b.getDpsInputOperands())
      if (other->get() == input->get() &&
          b.getMatchingIndexingMap(other) == a.getMatchingIndexingMap(input))
        return true;
  return false;
}

/// One generic, at `b`, computing what `a` and then `b` compute; an input
/// both read once.
static linalg::GenericOp merge(linalg::GenericOp a, linalg::GenericOp b) {
  OpBuilder builder(b);
  SmallVector<Value> inputs, inits;
  SmallVector<AffineMap> inputMaps, initMaps;
  // Block arguments of a and b, by the merged op's operand each reads.
  SmallVector<std::pair<BlockArgument, unsigned>> arguments;
  for (linalg::GenericOp op : {a, b})
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      unsigned index = 0;
      while (index < inputs.size() &&
             (inputs[index] != input->get() || inputMaps[index] != map))
        ++index;
      if (index == inputs.size()) {
        inputs.push_back(input->get());
        inputMaps.push_back(map);
      }
      arguments.push_back({op.getMatchingBlockArgument(input), index});
    }
  for (linalg::GenericOp op : {a, b})
    for (OpOperand &init : op.getDpsInitsMutable()) {
      arguments.push_back({op.getMatchingBlockArgument(&init),
                           unsigned(inputs.size() + inits.size())});
      inits.push_back(init.get());
      initMaps.push_back(op.getMatchingIndexingMap(&init));
    }
  SmallVector<AffineMap> maps(inputMaps);
  llvm::append_range(maps, initMaps);
  auto merged = linalg::GenericOp::create(
      builder, b.getLoc(), TypeRange(), inputs, inits, maps,
      a.getIteratorTypesArray(),
      [&](OpBuilder &body, Location loc, ValueRange blockArguments) {
        IRMapping mapping;
        for (auto [argument, index] : arguments)
          mapping.map(argument, blockArguments[index]);
        SmallVector<Value> yielded;
        for (linalg::GenericOp op : {a, b}) {
          for (Operation &inner : op.getBody()->without_terminator())
            body.clone(inner, mapping);
          for (Value value : op.getBody()->getTerminator()->getOperands())
            yielded.push_back(mapping.lookupOrDefault(value));
        }
        linalg::YieldOp::create(body, loc, yielded);
      });
  a->erase();
  b->erase();
  return merged;
}

/// Whether `copy` copies a region onto itself: the same view, or two
/// subviews of it alike (bufferization leaves one where a result is
/// inserted into the slice it was computed in).
static bool isSelfCopy(memref::CopyOp copy) {
  Value source = copy.getSource(), target = copy.getTarget();
  if (source == target)
    return true;
  auto sourceView = source.getDefiningOp<memref::SubViewOp>();
  auto targetView = target.getDefiningOp<memref::SubViewOp>();
  return sourceView && targetView &&
         OperationEquivalence::isEquivalentTo(
             sourceView, targetView,
             OperationEquivalence::Flags::IgnoreLocations);
}

namespace {
struct FuseSiblings : walrus::impl::FuseSiblingsBase<FuseSiblings> {
  using FuseSiblingsBase::FuseSiblingsBase;

  /// Merges each elementwise generic of `block` with the next op that
  /// touches memory, where that is a sibling; a merged op may take the
  /// next sibling in turn.
  void mergeIn(Block *block, BufferReaders &readers) {
    for (Operation *op = &block->front(); op;) {
      auto a = dyn_cast<linalg::GenericOp>(op);
      Operation *next = op->getNextNode();
      if (!a || !isElementwiseGeneric(a)) {
        op = next;
        continue;
      }
      while (next && touchesNoMemory(*next))
        next = next->getNextNode();
      auto b = dyn_cast_or_null<linalg::GenericOp>(next);
      if (!b || !isElementwiseGeneric(b) || !sharesInput(a, b) ||
          !areSiblings(a, b, maxBodyOps, readers)) {
        op = op->getNextNode();
        continue;
      }
      if (explain)
        b->emitRemark("fuse-siblings: merged with an elementwise op that "
                      "reads the same buffer")
                .attachNote(a->getLoc())
            << "the op merged in";
      readers.remove(a);
      readers.remove(b);
      linalg::GenericOp merged = merge(a, b);
      readers.add(merged);
      op = merged;
    }
  }

  void runOnOperation() override {
    // A copy that does nothing does not keep two siblings apart.
    getOperation()->walk([](memref::CopyOp copy) {
      if (isSelfCopy(copy))
        copy->erase();
    });
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<linalg::LinalgOp>(block->getParentOp()) && !block->empty())
        blocks.push_back(block);
    });
    BufferReaders readers(getOperation());
    for (Block *block : blocks)
      mergeIn(block, readers);
  }
};
} // namespace
