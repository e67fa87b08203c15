//===- ExpandReplication.cpp - The -expand-replication pass ---------------===//
//
// After the reference ExpandReplication (run before the LNC split): a
// matmult that reads its moving operand (IFMAP) as R stacked replicas gets
// those replicas spelled out: the buffer grows to hold them, explicit copies
// fill them after every write, and the read widens to span them all.
// docs/ExpandReplication.md defines the semantics; the reference:
// docs/Reference.md, the split page, section 7.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Support/ListedOptions.h"
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
    : ListedOptions<
          walrus::impl::ExpandReplicationBase<ExpandReplicationPass>> {
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
                         mask, ComputeEngineAttr());
    ++numInsertedCopies;
  }
}

/// Whether `memloc` can grow to hold its replicas; an error saying why
/// not otherwise.
static LogicalResult checkReplicable(MemlocOp memloc,
                                     const ReplicatedIfmap &ifmap,
                                     const IfmapGeometry &geometry) {
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
  return success();
}

/// Every instruction of `func` that writes `memloc`, in program order.
static SmallVector<InstructionOpInterface> getWriters(FuncOp func,
                                                      MemlocOp memloc) {
  SmallVector<InstructionOpInterface> writers;
  func.walk([&](InstructionOpInterface instruction) {
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    if (llvm::any_of(accesses, [&](const Access &access) {
          return access.writes() &&
                 getDefiningMemloc(access.getMemloc()) == memloc;
        }))
      writers.push_back(instruction);
  });
  return writers;
}

/// Where the new partitions are zeroed: before the top-level operation
/// holding the first write, or the first instruction when nothing writes
/// (null: the end of the function).
static Operation *getZeroingPoint(FuncOp func,
                                  ArrayRef<InstructionOpInterface> writers) {
  if (!writers.empty()) {
    Operation *first = writers.front();
    while (first->getParentOp() != func)
      first = first->getParentOp();
    return first;
  }
  for (Operation &op : func.getBody().front())
    if (!isa<MemlocOp, ViewOp>(op))
      return &op;
  return nullptr;
}

/// Makes each replicated read span every replica explicitly.
static void widenReads(const ReplicatedIfmap &ifmap) {
  int64_t stride = ifmap.replication.getPartitionStride();
  for (MatmultOp reader : ifmap.readers) {
    AccessPatternAttr moving = reader.getMovingAp();
    SmallVector<int64_t> nums(moving.getNums());
    nums.front() += (ifmap.replication.getFactor() - 1) * stride;
    AccessPatternAttr widened;
    if (auto symbolic = dyn_cast<SymbolicAccessPatternAttr>(moving))
      widened = SymbolicAccessPatternAttr::get(
          reader.getContext(), symbolic.getOffset(), symbolic.getSteps(), nums,
          symbolic.getTile(), symbolic.getBlock());
    else
      widened = PhysicalAccessPatternAttr::get(
          reader.getContext(),
          cast<PhysicalAccessPatternAttr>(moving).getOffset(),
          moving.getSteps(), nums);
    reader.setMovingApAttr(widened);
    reader.removeReplicationAttr();
  }
}

LogicalResult ExpandReplicationPass::expandIfmap(MemlocOp memloc,
                                                 const ReplicatedIfmap &ifmap) {
  MemoryType type = memloc.getMemoryType();
  IfmapGeometry geometry{type.getPartitions(), type.getFreeSize(),
                         ifmap.replication};
  if (failed(checkReplicable(memloc, ifmap, geometry)))
    return failure();
  // Every writer, before anything is inserted.
  auto func = memloc->getParentOfType<FuncOp>();
  SmallVector<InstructionOpInterface> writers = getWriters(func, memloc);
  Operation *zeroingPoint = getZeroingPoint(func, writers);

  MLIRContext *context = &getContext();
  SmallVector<int64_t> shape(type.getShape());
  shape.front() = geometry.grownPartitions();
  memloc.getResult().setType(type.cloneWith(shape));

  // Zero the new partitions once, before the IFMAP's first write: gaps
  // between replicas and the columns a shifted replica has no source for
  // read as zeros.
  OpBuilder builder(context);
  if (zeroingPoint)
    builder.setInsertionPoint(zeroingPoint);
  else
    builder.setInsertionPointToEnd(&func.getBody().front());
  int64_t newPartitions = geometry.grownPartitions() - geometry.channels;
  MemsetOp::create(builder, memloc.getLoc(), memloc.getResult(),
                   getRows(context, geometry.channels * geometry.freeSize,
                           geometry.freeSize, newPartitions, geometry.freeSize),
                   builder.getF64FloatAttr(0.0), IntegerSetAttr(),
                   ComputeEngineAttr());
  ++numInsertedCopies;
  if (writers.empty()) {
    // Its contents come from outside the function: replicate them first.
    insertReplicaCopies(builder, memloc.getResult(), geometry, {});
  }
  for (InstructionOpInterface writer : writers) {
    builder.setInsertionPointAfter(writer);
    insertReplicaCopies(builder, memloc.getResult(), geometry,
                        writer.getMaskAttr());
  }
  widenReads(ifmap);
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
