//===- ExpandReplication.cpp - The -expand-replication pass ---------------===//
//
// After the reference ExpandReplication (run before the LNC split): a
// matmult that reads its moving operand (IFMAP) as R stacked replicas gets
// those replicas spelled out: the buffer grows to hold them, explicit copies
// fill them after every write, and the read widens to span them all.
// docs/ExpandReplication.md defines the semantics; the reference:
// ../shared/spec/003_40f108ff0d5cdb36.txt, section 7.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "expand-replication"

namespace walrus {
#define GEN_PASS_DEF_EXPANDREPLICATION
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// The replicated matmults that read one IFMAP memory location.
struct ReplicatedIfmap {
  ReplicationAttr replication;
  SmallVector<MatmultOp> readers;
};

/// The geometry of one IFMAP before it grows.
struct IfmapGeometry {
  int64_t channels; // partitions of the original tensor (C)
  int64_t freeSize; // elements per partition (F)
  ReplicationAttr replication;

  int64_t replicaBase(int64_t replica) const {
    return replica * replication.getPartitionStride() * freeSize;
  }
  int64_t grownPartitions() const {
    return (replication.getFactor() - 1) * replication.getPartitionStride() +
           channels;
  }
};

struct ExpandReplicationPass
    : walrus::impl::ExpandReplicationBase<ExpandReplicationPass> {
  void runOnOperation() override;

private:
  LogicalResult expandFunc(FuncOp func);
  LogicalResult expandIfmap(MemlocOp memloc, const ReplicatedIfmap &ifmap);
  void insertReplicaCopies(OpBuilder &builder, Value ifmap,
                           const IfmapGeometry &geometry, IntegerSetAttr mask);
};
} // namespace

/// `partitions` rows of `columns` columns from element `offset` of a tensor
/// with `freeSize` elements per partition.
static PhysicalAccessPatternAttr getRows(MLIRContext *context, int64_t offset,
                                         int64_t freeSize, int64_t partitions,
                                         int64_t columns) {
  return PhysicalAccessPatternAttr::get(context, offset, {freeSize, 1},
                                        {partitions, columns});
}

/// After a write of partitions [0, C), copies them into every replica
/// r >= 1: replica column j takes column j + r * shift. The copies run on
/// the cores the write runs on.
void ExpandReplicationPass::insertReplicaCopies(OpBuilder &builder, Value ifmap,
                                                const IfmapGeometry &geometry,
                                                IntegerSetAttr mask) {
  MLIRContext *context = builder.getContext();
  int64_t shift = geometry.replication.getShift();
  for (int64_t replica = 1; replica < geometry.replication.getFactor();
       ++replica) {
    int64_t columns = geometry.freeSize - replica * shift;
    if (columns <= 0)
      break; // shifted past the end: the replica stays all zeros
    TensorCopyOp::create(builder, ifmap.getLoc(), ifmap,
                         getRows(context, geometry.replicaBase(replica),
                                 geometry.freeSize, geometry.channels, columns),
                         ifmap,
                         getRows(context, replica * shift, geometry.freeSize,
                                 geometry.channels, columns),
                         mask);
    ++numInsertedCopies;
  }
}

LogicalResult ExpandReplicationPass::expandIfmap(MemlocOp memloc,
                                                 const ReplicatedIfmap &ifmap) {
  MemoryType type = memloc.getMemoryType();
  IfmapGeometry geometry{type.getPartitions(), type.getFreeSize(),
                         ifmap.replication};
  int64_t stride = ifmap.replication.getPartitionStride();
  if (geometry.channels > stride)
    return memloc.emitError()
           << "cannot replicate '" << memloc.getName() << "': its "
           << geometry.channels << " partitions exceed the replica stride of "
           << stride;
  int64_t partitions = getTarget(memloc).getSbufPartitions();
  if (geometry.grownPartitions() > partitions)
    return memloc.emitError() << "cannot replicate '" << memloc.getName()
                              << "': " << ifmap.replication.getFactor()
                              << " replicas need " << geometry.grownPartitions()
                              << " partitions, the target has " << partitions;
  for (Operation *user : memloc->getUsers())
    if (isa<ViewOp>(user))
      return user->emitError()
             << "cannot replicate '" << memloc.getName()
             << "': growing it would change what this view reinterprets";
  for (MatmultOp reader : ifmap.readers)
    if (reader.getMovingAp().getSteps().front() != geometry.freeSize)
      return reader.emitError()
             << "a replicated read must walk consecutive partitions of '"
             << memloc.getName() << "' (partition step " << geometry.freeSize
             << "), not step " << reader.getMovingAp().getSteps().front();

  // Every instruction that writes the IFMAP, before anything is inserted.
  SmallVector<InstructionOpInterface> writers;
  auto func = memloc->getParentOfType<FuncOp>();
  func.walk([&](InstructionOpInterface instruction) {
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    if (llvm::any_of(accesses, [&](const Access &access) {
          return access.writes() &&
                 getDefiningMemloc(access.getMemloc()) == memloc;
        }))
      writers.push_back(instruction);
  });

  MLIRContext *context = &getContext();
  OpBuilder builder(context);
  // Zero the new partitions once, before the IFMAP's first write (or the
  // first instruction when it is never written): gaps between replicas and
  // the columns a shifted replica has no source for read as zeros.
  Operation *firstUse = nullptr;
  if (!writers.empty()) {
    firstUse = writers.front();
    while (firstUse->getParentOp() != func)
      firstUse = firstUse->getParentOp();
  } else {
    for (Operation &op : func.getBody().front())
      if (!isa<MemlocOp, ViewOp>(op)) {
        firstUse = &op;
        break;
      }
  }
  auto grownType = SbufType::get(
      context,
      [&] {
        SmallVector<int64_t> shape(type.getShape());
        shape.front() = geometry.grownPartitions();
        return shape;
      }(),
      type.getElementType());
  memloc.getResult().setType(grownType);

  int64_t newPartitions = geometry.grownPartitions() - geometry.channels;
  auto insertZeroing = [&](OpBuilder &at) {
    MemsetOp::create(at, memloc.getLoc(), memloc.getResult(),
                     getRows(context, geometry.channels * geometry.freeSize,
                             geometry.freeSize, newPartitions,
                             geometry.freeSize),
                     at.getF64FloatAttr(0.0), IntegerSetAttr());
    ++numInsertedCopies;
  };
  if (firstUse) {
    builder.setInsertionPoint(firstUse);
    insertZeroing(builder);
  } else {
    builder.setInsertionPointToEnd(&func.getBody().front());
    insertZeroing(builder);
  }
  if (writers.empty()) {
    // Its contents come from outside the function: replicate them first.
    insertReplicaCopies(builder, memloc.getResult(), geometry, {});
  }
  for (InstructionOpInterface writer : writers) {
    builder.setInsertionPointAfter(writer);
    insertReplicaCopies(builder, memloc.getResult(), geometry,
                        writer.getMaskAttr());
  }

  // The reads now span every replica explicitly.
  for (MatmultOp reader : ifmap.readers) {
    AccessPatternAttr moving = reader.getMovingAp();
    SmallVector<int64_t> nums(moving.getNums());
    nums.front() += (ifmap.replication.getFactor() - 1) * stride;
    AccessPatternAttr widened;
    if (auto symbolic = dyn_cast<SymbolicAccessPatternAttr>(moving))
      widened = SymbolicAccessPatternAttr::get(
          context, symbolic.getOffset(), symbolic.getSteps(), nums,
          symbolic.getTile(), symbolic.getBlock());
    else
      widened = PhysicalAccessPatternAttr::get(
          context, cast<PhysicalAccessPatternAttr>(moving).getOffset(),
          moving.getSteps(), nums);
    reader.setMovingApAttr(widened);
    reader.removeReplicationAttr();
  }
  ++numReplicatedMemlocs;
  LLVM_DEBUG(llvm::dbgs() << "expand-replication: grew '" << memloc.getName()
                          << "' to " << geometry.grownPartitions()
                          << " partitions, " << writers.size()
                          << " writer(s)\n");
  return success();
}

LogicalResult ExpandReplicationPass::expandFunc(FuncOp func) {
  llvm::MapVector<MemlocOp, ReplicatedIfmap> ifmaps;
  LogicalResult result = success();
  func.walk([&](MatmultOp matmult) {
    ReplicationAttr replication = matmult.getReplicationAttr();
    if (!replication)
      return;
    MemlocOp memloc = matmult.getMoving().getDefiningOp<MemlocOp>();
    if (!memloc) {
      matmult.emitError("a replicated moving operand must be a bir.memloc, "
                        "not a view");
      result = failure();
      return;
    }
    ReplicatedIfmap &ifmap = ifmaps[memloc];
    if (ifmap.replication && ifmap.replication != replication) {
      matmult.emitError() << "reads '" << memloc.getName() << "' with "
                          << replication
                          << " but another matmult reads it with "
                          << ifmap.replication;
      result = failure();
      return;
    }
    ifmap.replication = replication;
    ifmap.readers.push_back(matmult);
  });
  if (failed(result))
    return failure();
  for (auto &[memloc, ifmap] : ifmaps)
    if (failed(expandIfmap(memloc, ifmap)))
      return failure();
  return success();
}

void ExpandReplicationPass::runOnOperation() {
  FailureOr<SmallVector<ModuleOp>> programs =
      findProgramModules(getOperation());
  if (failed(programs))
    return signalPassFailure();
  LogicalResult result = success();
  for (ModuleOp module : *programs) {
    if (std::optional<int64_t> core = getNeuronCoreId(module)) {
      module.emitError() << "expand-replication must run before lnc-split: "
                            "this module is already concretized for core "
                         << *core;
      result = failure();
      continue;
    }
    // `main` first, then the other functions in order, as the reference.
    SmallVector<FuncOp> funcs;
    if (auto main = module.lookupSymbol<FuncOp>("main"))
      funcs.push_back(main);
    for (FuncOp func : module.getOps<FuncOp>())
      if (func.getSymName() != "main")
        funcs.push_back(func);
    for (FuncOp func : funcs)
      if (failed(expandFunc(func)))
        result = failure();
  }
  if (failed(result))
    signalPassFailure();
}
