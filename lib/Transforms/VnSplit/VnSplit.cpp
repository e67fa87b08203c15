//===- VnSplit.cpp - The -vn-split pass -----------------------------------===//
//
// After the reference VNSplitterPass: split tensors whose accesses fall
// into disjoint groups into one `_VN_` piece per group, then fold copied
// temporaries into their producers (vertical fusion). docs/VnSplit.md
// defines both; the reference: docs/Reference.md, the VN and shrink page,
// section 2.
//
//===----------------------------------------------------------------------===//

#include "../FunctionPass.h"
#include "LoopCut.h"
#include "VerticalFusion.h"

#include "Walrus/Analysis/AccessFootprint.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

namespace walrus {
#define GEN_PASS_DEF_VNSPLIT
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// Most parts a loop is cut into for an oversized tensor: every part is a
/// copy of the loop's body.
static constexpr int64_t kMaxLoopParts = 1024;

namespace {
/// One access of the tensor being split and where it lands.
struct AccessRecord {
  Access access;
  TensorBox box;
};

/// What splitting a tensor would make: a piece per group of accesses.
/// A DRAM tensor's pieces may move to SBUF (the reference's DRAM-to-SB
/// move); a single piece that moves is the whole tensor, moved.
struct SplitPlan {
  SmallVector<AccessRecord> accesses;
  SmallVector<unsigned> pieceOf; // per access
  SmallVector<TensorBox> pieces;
  SmallVector<bool> toSbuf; // per piece
  int64_t movedBytes = 0;   // per partition, of the pieces moving
};

struct FuncCounts {
  unsigned split = 0, pieces = 0, deadNodes = 0, deadInstructions = 0,
           folds = 0, moved = 0, loopsAdded = 0;
};

/// Who uses each of a list of memory locations.
struct TensorUsers {
  /// Instructions, in program order.
  std::vector<SmallVector<Operation *>> instructions;
  /// Some other operation using it (a view when there is one), or null.
  SmallVector<Operation *> foreign;
};

/// Names of the memory locations written by a bir.sb2sb anywhere in a
/// kernel, per block holding the kernel's program modules.
using RemoteWrites = DenseMap<Block *, llvm::StringSet<>>;

struct VnSplitPass : FunctionPass<walrus::impl::VnSplitBase<VnSplitPass>> {
  using FunctionPass::FunctionPass;

  LogicalResult beforeFunctions(ArrayRef<ModuleOp> programs) override;
  void runOnFunction(FuncOp func) override;
  LogicalResult checkOptions();

private:
  void splitFunc(FuncOp func, FuncCounts &counts);
  /// Cuts the loops walking each SBUF tensor too large for SB, when that
  /// makes its accesses fall into groups that fit (docs/VnSplit.md, "Loop
  /// cuts"); the split then makes the pieces.
  void cutLoopsForOversized(FuncOp func, FuncCounts &counts);
  /// The plan for `memloc`, or why it is not split.
  /// `users`: the instructions accessing it, in program order;
  /// `foreignUser`: an operation other than an instruction using it, if any
  /// (a view when there is one).
  /// `sbufBytesLeft`: what DRAM pieces moving to SBUF may still take per
  /// partition in this function.
  FailureOr<SplitPlan> plan(MemlocOp memloc, int64_t numMemlocs,
                            const llvm::StringSet<> &names,
                            ArrayRef<Operation *> users, Operation *foreignUser,
                            int64_t sbufBytesLeft, std::string &why,
                            bool *groupsTooLarge = nullptr);
  /// Why `memloc` itself (its kind, place, set, users) cannot be split.
  std::optional<std::string> whyNotSplittable(MemlocOp memloc,
                                              Operation *foreignUser);
  /// Why the pieces of `plan` are not a split: one group, the limits, a
  /// taken name, a piece too large for SB (then `groupsTooLarge`).
  std::optional<std::string> checkPieces(MemlocOp memloc, const SplitPlan &plan,
                                         int64_t numMemlocs,
                                         const llvm::StringSet<> &names,
                                         bool *groupsTooLarge);
  /// Marks the pieces of a DRAM tensor that move to SBUF.
  void chooseMovesToSbuf(MemlocOp memloc, SplitPlan &plan,
                         int64_t sbufBytesLeft);

  /// Names of memory locations another core writes with bir.sb2sb: the
  /// writer finds them by name, so they keep their name and shape. Gathered
  /// over the whole kernel when the pass dispatches; a pass scheduled on
  /// one function sees its own sb2sb copies, which under the SPMD rule
  /// -lnc-verify checks are every core's.
  std::shared_ptr<const RemoteWrites> kernelRemoteWrites;
  llvm::StringSet<> remotelyWritten;
  /// Replaces `memloc` by the pieces of `plan`, every access re-pointed
  /// and rebased; adds the instructions it removes to `erased`.
  void split(MemlocOp memloc, SplitPlan &plan, FuncCounts &counts,
             DenseSet<Operation *> &erased);
  /// The new memory locations of `plan`'s pieces (the tensor's own name
  /// when it is one moved whole), with their remarks.
  SmallVector<MemlocOp> createPieces(MemlocOp memloc, const SplitPlan &plan);
  /// Erases a piece nothing reads, with its writers.
  void eraseUnread(MemlocOp piece, FuncCounts &counts,
                   DenseSet<Operation *> &erased);
  void remark(Operation *op, const Twine &message) {
    if (explain)
      emitRemark(op->getLoc(), "vn-split: " + message);
  }
};
} // namespace

static StringRef describe(FootprintIssue issue) {
  switch (issue) {
  case FootprintIssue::NonContiguousPartitions:
    return "due to non-contiguous AP";
  case FootprintIssue::CrossesPartitions:
    return "due to access across channels";
  case FootprintIssue::TooManyIterations:
    return "due to too many loop iterations to analyze";
  case FootprintIssue::None:
    break;
  }
  return "";
}

/// Groups accesses whose rectangles overlap, directly or through others.
/// Sorting by first partition keeps the candidate pairs to the accesses
/// whose partition ranges are still open.
static void groupAccesses(SplitPlan &plan) {
  unsigned count = plan.accesses.size();
  llvm::IntEqClasses groups(count);
  // Accesses of one rectangle overlap one another: the first stands for
  // the rest in the sweep, which compares the rectangles open at once in
  // pairs (a tile that thousands of instructions access whole is one
  // rectangle there, not thousands). One that overlaps nothing, not even
  // itself (no rows or columns), stays a group of its own.
  DenseMap<std::tuple<int64_t, int64_t, int64_t, int64_t>, unsigned>
      firstWithBox;
  SmallVector<unsigned> order;
  for (unsigned index = 0; index < count; ++index) {
    const TensorBox &box = plan.accesses[index].box;
    if (!box.overlaps(box))
      continue;
    auto [it, inserted] =
        firstWithBox.try_emplace({box.firstPartition, box.lastPartition,
                                  box.firstColumn, box.lastColumn},
                                 index);
    if (inserted)
      order.push_back(index);
    else
      groups.join(it->second, index);
  }
  llvm::sort(order, [&](unsigned lhs, unsigned rhs) {
    return std::make_pair(plan.accesses[lhs].box.firstPartition, lhs) <
           std::make_pair(plan.accesses[rhs].box.firstPartition, rhs);
  });
  SmallVector<unsigned> open;
  for (unsigned index : order) {
    const TensorBox &box = plan.accesses[index].box;
    llvm::erase_if(open, [&](unsigned other) {
      return plan.accesses[other].box.lastPartition < box.firstPartition;
    });
    for (unsigned other : open)
      if (plan.accesses[other].box.overlaps(box))
        groups.join(index, other);
    open.push_back(index);
  }
  // Pieces numbered in the order of their first access.
  DenseMap<unsigned, unsigned> pieceOfLeader;
  plan.pieceOf.resize(count);
  for (unsigned index = 0; index < count; ++index) {
    unsigned leader = groups.findLeader(index);
    auto [it, inserted] = pieceOfLeader.try_emplace(leader, plan.pieces.size());
    if (inserted)
      plan.pieces.emplace_back();
    plan.pieceOf[index] = it->second;
    plan.pieces[it->second].unite(plan.accesses[index].box);
  }
}

/// Elements the pieces hold per element they cover: above 1 when piece
/// rectangles overlap.
static double getDuplication(ArrayRef<TensorBox> pieces) {
  bool anyOverlap = false;
  for (size_t i = 0; i < pieces.size() && !anyOverlap; ++i)
    for (size_t j = i + 1; j < pieces.size() && !anyOverlap; ++j)
      anyOverlap = pieces[i].overlaps(pieces[j]);
  if (!anyOverlap)
    return 1.0;
  int64_t held = 0, covered = 0;
  int64_t first = pieces.front().firstPartition, last = 0;
  for (const TensorBox &piece : pieces) {
    held += piece.getPartitions() * piece.getColumns();
    first = std::min(first, piece.firstPartition);
    last = std::max(last, piece.lastPartition);
  }
  for (int64_t row = first; row <= last; ++row) {
    SmallVector<std::pair<int64_t, int64_t>> spans;
    for (const TensorBox &piece : pieces)
      if (piece.firstPartition <= row && row <= piece.lastPartition)
        spans.push_back({piece.firstColumn, piece.lastColumn});
    llvm::sort(spans);
    int64_t end = -1;
    for (auto [lo, hi] : spans) {
      covered += std::max<int64_t>(0, hi - std::max(lo, end + 1) + 1);
      end = std::max(end, hi);
    }
  }
  return double(held) / double(covered);
}

/// Whether DMAs alone move `access`'s elements, to or from SBUF: a DRAM
/// tensor so accessed may itself live in SBUF.
static bool isSbufDma(const Access &access) {
  auto dma = dyn_cast<DmaOp>(access.getOwner());
  if (!dma)
    return false;
  Value other =
      access.getMemloc() == dma.getDst() ? dma.getSrc() : dma.getDst();
  return cast<MemoryType>(other.getType()).getMemorySpace() ==
         MemorySpace::SBUF;
}

void VnSplitPass::chooseMovesToSbuf(MemlocOp memloc, SplitPlan &plan,
                                    int64_t sbufBytesLeft) {
  MemoryType type = memloc.getMemoryType();
  TargetAttr target = getTarget(memloc);
  SmallVector<bool> dmaOnly(plan.pieces.size(), true);
  for (auto [record, piece] : llvm::zip(plan.accesses, plan.pieceOf))
    dmaOnly[piece] = dmaOnly[piece] && isSbufDma(record.access);
  for (auto [index, piece] : llvm::enumerate(plan.pieces)) {
    // Checked: the box comes from the input's patterns.
    std::optional<int64_t> bytes =
        llvm::checkedMul(piece.getColumns(), type.getElementBytes());
    if (!dmaOnly[index] || !bytes ||
        piece.getPartitions() > target.getSbufPartitions() ||
        *bytes > target.getSbufBytesPerPartition())
      continue;
    if (*bytes > sbufBytesLeft - plan.movedBytes) {
      remark(memloc, "not moving piece " + Twine(index) + " of '" +
                         memloc.getName() + "' to SB: " + Twine(*bytes) +
                         " bytes/partition exceed what dram-to-sb-bytes "
                         "leaves (" +
                         Twine(sbufBytesLeft - plan.movedBytes) + ")");
      continue;
    }
    plan.toSbuf[index] = true;
    plan.movedBytes += *bytes;
  }
}

std::optional<std::string>
VnSplitPass::whyNotSplittable(MemlocOp memloc, Operation *foreignUser) {
  MemoryType type = memloc.getMemoryType();
  if (type.getMemorySpace() == MemorySpace::DRAM && noSplitDram)
    return ": DRAM tensors are not split (no-split-dram)";
  if (memloc.getKind() != TensorKind::Internal)
    return (": it is a program " + stringifyTensorKind(memloc.getKind())).str();
  // Every core of a kernel sees the same DRAM: one core's pieces would not
  // be another's.
  if (type.getMemorySpace() == MemorySpace::DRAM && getLncSize(memloc) > 1)
    return ": DRAM tensors are shared by the kernel's cores";
  if (memloc.getAddress())
    return ": it is already placed";
  if (std::optional<StringRef> set = memloc.getSet())
    return (": it is in memory-location set '" + *set + "'").str();
  if (remotelyWritten.contains(memloc.getName()))
    return " due to CollectiveCompute access or cross-core access";
  if (foreignUser && isa<ViewOp>(foreignUser))
    return " due to reinterpret cast";
  if (foreignUser)
    return (" due to its use by '" + foreignUser->getName().getStringRef() +
            "'")
        .str();
  return std::nullopt;
}

/// Records every access of `memloc` by `users` (in program order, so that
/// pieces are numbered by first access) with its rectangle, or says why
/// one cannot be split off.
static std::optional<std::string>
collectAccesses(MemlocOp memloc, ArrayRef<Operation *> users, SplitPlan &plan) {
  FootprintCache footprints(memloc.getMemoryType());
  for (Operation *user : users) {
    auto instruction = cast<InstructionOpInterface>(user);
    if (isa<CollectiveOp, Sb2SbOp>(user))
      return " due to CollectiveCompute access or cross-core access";
    if (isa<TransposeOp>(user))
      return " due to transpose (differing partition step)";
    if (auto matmult = dyn_cast<MatmultOp>(user))
      if (matmult.getReplicationAttr())
        return " due to replicated matmult access";
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses) {
      if (access.getMemloc() != memloc.getResult())
        continue;
      AccessFootprint footprint = footprints.get(user, access.getPattern());
      if (footprint.issue != FootprintIssue::None)
        return (" " + describe(footprint.issue) + " in '" +
                user->getName().getStringRef() + "'")
            .str();
      plan.accesses.push_back({access, footprint.box});
    }
  }
  return std::nullopt;
}

std::optional<std::string>
VnSplitPass::checkPieces(MemlocOp memloc, const SplitPlan &plan,
                         int64_t numMemlocs, const llvm::StringSet<> &names,
                         bool *groupsTooLarge) {
  MemoryType type = memloc.getMemoryType();
  int64_t numPieces = plan.pieces.size();
  auto tooLarge = [&](std::string reason) {
    if (groupsTooLarge)
      *groupsTooLarge = true;
    return reason;
  };
  if (numPieces < 2 && !llvm::is_contained(plan.toSbuf, true))
    return tooLarge(": its accesses form one group");
  if (numPieces > perSplitLimit)
    return (": " + Twine(numPieces) + " pieces exceed per-split-limit = " +
            Twine(perSplitLimit.getValue()))
        .str();
  if (numMemlocs - 1 + numPieces > vnLimit)
    return ("; exceed vn limit = " + Twine(numMemlocs - 1 + numPieces) +
            " v.s. limit=" + Twine(vnLimit.getValue()))
        .str();
  double duplication = getDuplication(plan.pieces);
  if (duplication > ratio)
    return (": elts/partition duplicated (" +
            llvm::formatv("{0:F2}", duplication) +
            " x) beyond ratio = " + llvm::formatv("{0:F2}", ratio.getValue()))
        .str();
  TargetAttr target = getTarget(memloc);
  for (auto [index, piece] : llvm::enumerate(plan.pieces)) {
    std::string name = (memloc.getName() + "_VN_" + Twine(index)).str();
    if (numPieces > 1 && names.contains(name))
      return ": piece name '" + name + "' is taken";
    int64_t bytes = piece.getColumns() * type.getElementBytes();
    if (type.getMemorySpace() == MemorySpace::SBUF &&
        bytes > target.getSbufBytesPerPartition())
      return tooLarge((": piece " + Twine(index) + " (" +
                       Twine(piece.getPartitions()) + " partitions, " +
                       Twine(bytes) +
                       " bytes) would have to be placed in DRAM "
                       "(perSplitLimit)")
                          .str());
  }
  return std::nullopt;
}

FailureOr<SplitPlan> VnSplitPass::plan(MemlocOp memloc, int64_t numMemlocs,
                                       const llvm::StringSet<> &names,
                                       ArrayRef<Operation *> users,
                                       Operation *foreignUser,
                                       int64_t sbufBytesLeft, std::string &why,
                                       bool *groupsTooLarge) {
  SplitPlan plan;
  std::optional<std::string> rejection = whyNotSplittable(memloc, foreignUser);
  if (!rejection)
    rejection = collectAccesses(memloc, users, plan);
  if (!rejection) {
    groupAccesses(plan);
    plan.toSbuf.assign(plan.pieces.size(), false);
    if (memloc.getMemoryType().getMemorySpace() == MemorySpace::DRAM &&
        dramToSbBytes > 0)
      chooseMovesToSbuf(memloc, plan, sbufBytesLeft);
    rejection = checkPieces(memloc, plan, numMemlocs, names, groupsTooLarge);
  }
  if (!rejection)
    return plan;
  why = std::move(*rejection);
  return failure();
}

SmallVector<MemlocOp> VnSplitPass::createPieces(MemlocOp memloc,
                                                const SplitPlan &plan) {
  MemoryType type = memloc.getMemoryType();
  MLIRContext *context = &getContext();
  OpBuilder builder(memloc);
  builder.setInsertionPointAfter(memloc);
  SmallVector<MemlocOp> pieces;
  std::string summary;
  bool isSplit = plan.pieces.size() > 1;
  for (auto [index, box] : llvm::enumerate(plan.pieces)) {
    SmallVector<int64_t> shape = {box.getPartitions(), box.getColumns()};
    Type pieceType = plan.toSbuf[index]
                         ? SbufType::get(context, shape, type.getElementType())
                         : Type(type.cloneWith(shape));
    std::string name = isSplit
                           ? (memloc.getName() + "_VN_" + Twine(index)).str()
                           : memloc.getName().str();
    pieces.push_back(MemlocOp::create(
        builder, memloc.getLoc(), pieceType, builder.getStringAttr(name),
        TensorKindAttr::get(context, TensorKind::Internal), StringAttr(),
        IntegerAttr(), IntegerAttr()));
    // A piece of a rotating buffer is one too.
    if (Attribute rotating = memloc->getAttr(BIRDialect::kRotatingAttrName))
      pieces.back()->setAttr(BIRDialect::kRotatingAttrName, rotating);
    summary +=
        (Twine(index ? ", " : "") + name + " (" + Twine(box.getPartitions()) +
         " x " + Twine(box.getColumns() * type.getElementBytes()) + " B)")
            .str();
  }
  if (isSplit) {
    remark(memloc, "'" + memloc.getName() + "' is splittable, shape=(" +
                       Twine(type.getPartitions()) + " partitions, " +
                       Twine(type.getBytesPerPartition()) + " bytes)");
    remark(memloc, "split '" + memloc.getName() + "' into " +
                       Twine(pieces.size()) + " pieces: " + summary);
  }
  for (auto [piece, moves] : llvm::zip(pieces, plan.toSbuf))
    if (moves)
      remark(memloc, "moved '" + piece.getName() + "' from DRAM to SB (" +
                         Twine(piece.getMemoryType().getPartitions()) +
                         " partitions x " +
                         Twine(piece.getMemoryType().getBytesPerPartition()) +
                         " bytes)");
  return pieces;
}

void VnSplitPass::eraseUnread(MemlocOp piece, FuncCounts &counts,
                              DenseSet<Operation *> &erased) {
  SmallVector<Operation *> writers = llvm::to_vector(piece->getUsers());
  for (Operation *writer : writers) {
    erased.insert(writer);
    writer->erase();
  }
  remark(piece, "removed '" + piece.getName() + "' and its " +
                    Twine(writers.size()) + " writer(s): nothing reads it");
  piece.erase();
  ++counts.deadNodes;
  counts.deadInstructions += writers.size();
}

void VnSplitPass::split(MemlocOp memloc, SplitPlan &plan, FuncCounts &counts,
                        DenseSet<Operation *> &erased) {
  int64_t freeSize = memloc.getMemoryType().getFreeSize();
  SmallVector<MemlocOp> pieces = createPieces(memloc, plan);
  SmallVector<bool> pieceIsRead(pieces.size(), false);
  for (auto [record, piece] : llvm::zip(plan.accesses, plan.pieceOf)) {
    const Access &access = record.access;
    access.setPattern(rebaseIntoBox(access.getOwner(), access.getPattern(),
                                    plan.pieces[piece], freeSize));
    access.setMemloc(pieces[piece].getResult());
    pieceIsRead[piece] = pieceIsRead[piece] || access.reads();
  }
  memloc.erase();
  counts.moved += llvm::count(plan.toSbuf, true);
  if (pieces.size() > 1) {
    ++counts.split;
    ++counts.deadNodes;
    counts.pieces += pieces.size();
  }
  // A piece nothing reads holds nothing the program needs.
  for (auto [piece, isRead] : llvm::zip(pieces, pieceIsRead))
    if (!isRead)
      eraseUnread(piece, counts, erased);
}

/// The instructions accessing each of `memlocs`, in program order, and any
/// other operation using it (a view first), from one walk: following each
/// tensor's use list instead visits the program in no useful order.
static TensorUsers collectUsers(FuncOp func, ArrayRef<MemlocOp> memlocs) {
  DenseMap<Operation *, unsigned> indexOf;
  for (auto [index, memloc] : llvm::enumerate(memlocs))
    indexOf.try_emplace(memloc, index);
  TensorUsers result;
  result.instructions.resize(memlocs.size());
  result.foreign.assign(memlocs.size(), nullptr);
  func.walk([&](Operation *op) {
    bool isInstruction = isa<InstructionOpInterface>(op);
    for (Value operand : op->getOperands()) {
      auto found = indexOf.find(operand.getDefiningOp());
      if (found == indexOf.end())
        continue;
      if (!isInstruction) {
        Operation *&foreign = result.foreign[found->second];
        if (!foreign || (isa<ViewOp>(op) && !isa<ViewOp>(foreign)))
          foreign = op;
        continue;
      }
      SmallVector<Operation *> &list = result.instructions[found->second];
      if (list.empty() || list.back() != op)
        list.push_back(op);
    }
  });
  return result;
}

void VnSplitPass::cutLoopsForOversized(FuncOp func, FuncCounts &counts) {
  int64_t capacity = getTarget(func).getSbufBytesPerPartition();
  SmallVector<MemlocOp> memlocs = llvm::to_vector(func.getMemlocs());
  llvm::StringSet<> names;
  for (MemlocOp memloc : memlocs)
    names.insert(memloc.getName());
  llvm::StringSet<> skipped(llvm::from_range, skip);
  for (MemlocOp memloc : memlocs) {
    MemoryType type = memloc.getMemoryType();
    if (type.getMemorySpace() != MemorySpace::SBUF ||
        type.getBytesPerPartition() <= capacity ||
        skipped.contains(memloc.getName()))
      continue;
    bool groupsTooLarge = false;
    auto planFor = [&](const TensorUsers &users) {
      std::string why;
      return plan(memloc, memlocs.size(), names, users.instructions.front(),
                  users.foreign.front(), 0, why, &groupsTooLarge);
    };
    // Only groups too large for SB are cut; the split says why it leaves
    // the others.
    TensorUsers users = collectUsers(func, memloc);
    if (succeeded(planFor(users)) || !groupsTooLarge)
      continue;
    std::string oversized =
        ("'" + memloc.getName() + "' (" + Twine(type.getBytesPerPartition()) +
         " bytes/partition) does not fit SB and ")
            .str();
    std::string why;
    FailureOr<SmallVector<LoopOp>> loops =
        getWalkingLoops(memloc, users.instructions.front(), why);
    if (failed(loops)) {
      remark(memloc, oversized + why);
      continue;
    }
    // Parts grow geometrically: each try copies the loops' bodies again.
    int64_t maxTrips = 0;
    for (LoopOp loop : *loops)
      maxTrips = std::max(maxTrips, loop.getTripCount());
    int64_t maxParts = std::min<int64_t>(perSplitLimit, kMaxLoopParts);
    int64_t parts = llvm::divideCeil(type.getBytesPerPartition(), capacity);
    int64_t added = 0;
    for (; parts <= maxParts; parts *= 2) {
      LoopCuts cuts;
      added = cuts.cut(*loops, parts);
      // The cut loops hold new instructions: collect the users again.
      if (added > 0 && succeeded(planFor(collectUsers(func, memloc))))
        break;
      cuts.undo();
      added = 0;
      if (parts >= maxTrips)
        break;
    }
    if (added == 0) {
      remark(memloc, oversized + "no cut of the loops walking it splits it "
                                 "into pieces that do");
      continue;
    }
    remark(memloc, "cut " + Twine(loops->size()) + " loop(s) walking '" +
                       memloc.getName() + "' into at most " + Twine(parts) +
                       " parts each (" + Twine(added) +
                       " loop(s) added) so that its pieces fit SB");
    counts.loopsAdded += added;
  }
}

void VnSplitPass::splitFunc(FuncOp func, FuncCounts &counts) {
  if (cutLoops)
    cutLoopsForOversized(func, counts);
  llvm::StringSet<> skipped(llvm::from_range, skip);
  SmallVector<MemlocOp> memlocs = llvm::to_vector(func.getMemlocs());
  llvm::StringSet<> names;
  for (MemlocOp memloc : memlocs)
    names.insert(memloc.getName());
  int64_t numMemlocs = memlocs.size();
  // The instructions a split removes are skipped later.
  TensorUsers tensorUsers = collectUsers(func, memlocs);
  auto &[users, foreignUsers] = tensorUsers;
  DenseSet<Operation *> erased;
  int64_t movedBytes = 0;
  for (auto [memloc, memlocUsers, foreignUser] :
       llvm::zip(memlocs, users, foreignUsers)) {
    if (skipped.contains(memloc.getName())) {
      remark(memloc, "skipping '" + memloc.getName() + "' by user request");
      continue;
    }
    std::string why;
    if (!erased.empty())
      llvm::erase_if(memlocUsers,
                     [&](Operation *user) { return erased.contains(user); });
    FailureOr<SplitPlan> splitPlan =
        plan(memloc, numMemlocs, names, memlocUsers, foreignUser,
             dramToSbBytes - movedBytes, why);
    if (failed(splitPlan)) {
      remark(memloc, "not splitting '" + memloc.getName() + "'" + why);
      continue;
    }
    numMemlocs += splitPlan->pieces.size() - 1;
    movedBytes += splitPlan->movedBytes;
    for (unsigned index = 0; index < splitPlan->pieces.size(); ++index)
      names.insert((memloc.getName() + "_VN_" + Twine(index)).str());
    split(memloc, *splitPlan, counts, erased);
  }
  if (foldIntoPredecessor)
    counts.folds = foldCopiesIntoProducers(func, remotelyWritten, explain);
}

static void collectRemoteWrites(Operation *root, llvm::StringSet<> &names) {
  root->walk([&](Sb2SbOp copy) {
    names.insert(getDefiningMemloc(copy.getDst()).getName());
  });
}

LogicalResult VnSplitPass::checkOptions() {
  if (ratio < 1.0 || perSplitLimit < 2 || vnLimit < 1 || dramToSbBytes < 0)
    return getOperation()->emitError()
           << "vn-split: ratio must be at least 1, per-split-limit at least "
              "2, vn-limit at least 1 and dram-to-sb-bytes at least 0";
  return success();
}

LogicalResult VnSplitPass::beforeFunctions(ArrayRef<ModuleOp> programs) {
  if (failed(checkOptions()))
    return failure();
  // Each core's walk on the thread pool, then per kernel together.
  std::vector<llvm::StringSet<>> perProgram(programs.size());
  parallelFor(&getContext(), 0, programs.size(), [&](size_t index) {
    collectRemoteWrites(programs[index], perProgram[index]);
  });
  auto writes = std::make_shared<RemoteWrites>();
  for (auto [program, names] : llvm::zip(programs, perProgram))
    for (const auto &name : names)
      (*writes)[program->getBlock()].insert(name.getKey());
  kernelRemoteWrites = std::move(writes);
  return success();
}

void VnSplitPass::runOnFunction(FuncOp func) {
  if (failed(checkOptions()))
    return signalPassFailure();
  remotelyWritten.clear();
  if (kernelRemoteWrites)
    remotelyWritten =
        kernelRemoteWrites->lookup(func->getParentOp()->getBlock());
  else
    collectRemoteWrites(func, remotelyWritten);
  FuncCounts counts;
  splitFunc(func, counts);
  numSplitNodes += counts.split;
  numPieces += counts.pieces;
  numDeadNodes += counts.deadNodes;
  numDeadInstructions += counts.deadInstructions;
  numFolds += counts.folds;
  numMovedToSb += counts.moved;
  numLoopsAdded += counts.loopsAdded;
  if (report)
    emitRemark(func.getLoc())
        << "vn-split: " << getQualifiedName(func) << ": split " << counts.split
        << " tensor(s) into " << counts.pieces << " piece(s), "
        << counts.deadNodes << " dead node(s), " << counts.deadInstructions
        << " dead instruction(s), " << counts.folds << " fold(s), "
        << counts.moved << " moved to SB";
}
