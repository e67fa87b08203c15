//===- Spill.cpp - insert_spill_code of -sb-alloc -------------------------===//
//
// A spilled tensor lives in DRAM; each instruction that used it gets a
// short SBUF tensor of its own, reloaded right before it (unless it only
// overwrites all of it) and stored right after it (if it writes).
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "Walrus/Analysis/AccessFootprint.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// Whether the accesses of one instruction overwrite all of `type` without
/// reading it: then nothing needs reloading first.
static bool overwritesAll(Operation *op, ArrayRef<Access> accesses,
                          MemoryType type) {
  TensorBox written;
  for (const Access &access : accesses) {
    if (access.kind != AccessKind::Write ||
        !isa<PhysicalAccessPatternAttr>(access.getPattern()))
      return false;
    AccessFootprint footprint =
        getAccessFootprint(op, access.getPattern(), type);
    if (footprint.issue != FootprintIssue::None)
      return false;
    written.unite(footprint.box);
  }
  return written.getPartitions() == type.getPartitions() &&
         written.getColumns() == type.getFreeSize();
}

std::string MemlocNamer::getUnusedName(StringRef base) {
  if (!names) {
    names.emplace();
    for (MemlocOp memloc : func.getMemlocs())
      names->insert(memloc.getName());
  }
  std::string name = base.str();
  for (unsigned suffix = 1; names->contains(name); ++suffix)
    name = (base + "_" + Twine(suffix)).str();
  names->insert(name);
  return name;
}

LogicalResult walrus::spillToDram(MemlocOp memloc, MemlocNamer &namer,
                                  SmallPtrSetImpl<Operation *> &spillLocals) {
  if (memloc.getKind() != TensorKind::Internal)
    return memloc.emitError()
           << "sb-alloc: cannot spill program "
           << stringifyTensorKind(memloc.getKind()) << " '" << memloc.getName()
           << "': its contents cross the program boundary";
  for (Operation *user : memloc->getUsers())
    if (!isa<InstructionOpInterface>(user))
      return memloc.emitError()
             << "sb-alloc: cannot spill '" << memloc.getName()
             << "': it has a reinterpret cast";
  MLIRContext *context = memloc.getContext();
  MemoryType type = memloc.getMemoryType();
  OpBuilder builder(memloc);
  builder.setInsertionPointAfter(memloc);
  auto home = MemlocOp::create(
      builder, memloc.getLoc(),
      DramType::get(context, type.getShape(), type.getElementType()),
      builder.getStringAttr(
          namer.getUnusedName((memloc.getName() + "_home").str())),
      TensorKindAttr::get(context, TensorKind::Internal), StringAttr(),
      IntegerAttr(), IntegerAttr());
  home->setAttr(BIRDialect::kSpillHomeAttrName, builder.getUnitAttr());
  int64_t freeSize = type.getFreeSize();
  auto whole = PhysicalAccessPatternAttr::get(context, 0, {freeSize, 1},
                                              {type.getPartitions(), freeSize});
  // Users in program order, so that short tensors are numbered that way.
  SmallVector<Operation *> users;
  memloc->getParentOfType<FuncOp>().walk([&](InstructionOpInterface user) {
    if (llvm::is_contained(user->getOperands(), memloc.getResult()))
      users.push_back(user);
  });
  for (auto [index, user] : llvm::enumerate(users)) {
    auto instruction = cast<InstructionOpInterface>(user);
    SmallVector<Access> all, mine;
    instruction.getAccesses(all);
    for (const Access &access : all)
      if (access.getMemloc() == memloc.getResult())
        mine.push_back(access);
    builder.setInsertionPointAfter(home);
    auto local = cast<MemlocOp>(builder.clone(*memloc));
    local.setName(namer.getUnusedName(
        (memloc.getName() + "_spill" + Twine(index)).str()));
    spillLocals.insert(local);
    IntegerSetAttr mask = instruction.getMaskAttr();
    if (!overwritesAll(user, mine, type)) {
      builder.setInsertionPoint(user);
      DmaOp::create(builder, user->getLoc(), local.getResult(), whole,
                    home.getResult(), whole, mask);
    }
    if (llvm::any_of(mine,
                     [](const Access &access) { return access.writes(); })) {
      builder.setInsertionPointAfter(user);
      DmaOp::create(builder, user->getLoc(), home.getResult(), whole,
                    local.getResult(), whole, mask);
    }
    for (const Access &access : mine)
      access.setMemloc(local.getResult());
  }
  memloc.erase();
  return success();
}
