//===- KernelBuilder.cpp - Building a symbolic bir.func -------------------===//

#include "KernelBuilder.h"
#include "Walrus/Analysis/Timeline.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

KernelBuilder::KernelBuilder(FuncOp func, int64_t lncSize, TargetAttr target,
                             int64_t instructionLimit, bool f64AsF32)
    : builder(func.getContext()), memlocBuilder(func.getContext()),
      lncSize(lncSize), target(target), instructionLimit(instructionLimit),
      f64AsF32(f64AsF32), body(&func.getBody().front()) {
  builder.setInsertionPointToEnd(body);
}

MemlocOp KernelBuilder::addMemloc(StringRef stem, TensorKind kind, Type type) {
  std::string name = stem.str();
  unsigned &suffix = nextSuffix[stem];
  while (!names.insert(name).second)
    name = (stem + "_" + Twine(++suffix)).str();
  // Memory locations come before the first instruction.
  if (lastMemloc)
    memlocBuilder.setInsertionPointAfter(lastMemloc);
  else
    memlocBuilder.setInsertionPointToStart(body);
  lastMemloc = MemlocOp::create(memlocBuilder, builder.getUnknownLoc(), type,
                                memlocBuilder.getStringAttr(name),
                                TensorKindAttr::get(getContext(), kind),
                                StringAttr(), IntegerAttr(), IntegerAttr());
  return lastMemloc;
}

Type KernelBuilder::getComputeType(Type type) const {
  return f64AsF32 && type.isF64() ? Float32Type::get(type.getContext())
                                  : getStorageType(type);
}

void KernelBuilder::markRotating(MemlocOp tile, int64_t index) {
  if (tile)
    tile->setAttr(BIRDialect::kRotatingAttrName,
                  builder.getI64IntegerAttr(index));
}

MemlocOp KernelBuilder::addTile(StringRef stem, int64_t partitions,
                                int64_t columns, Type elementType, bool psum) {
  elementType = getComputeType(elementType);
  SmallVector<int64_t> shape = {partitions, columns};
  Type type = psum ? Type(PsumType::get(getContext(), shape, elementType))
                   : Type(SbufType::get(getContext(), shape, elementType));
  return addMemloc(stem, TensorKind::Internal, type);
}

MemlocOp KernelBuilder::getSharedPsumTile(int64_t partitions, int64_t columns,
                                          Type elementType, unsigned index) {
  MemlocOp &tile = psumTiles[{partitions, columns, elementType, index}];
  if (!tile)
    tile = addTile("acc", partitions, columns, elementType, /*psum=*/true);
  return tile;
}

AccessPatternAttr
KernelBuilder::pattern(AffineExpr start,
                       ArrayRef<std::pair<int64_t, int64_t>> pairs) {
  SmallVector<int64_t> steps, nums;
  for (auto [step, num] : pairs) {
    steps.push_back(step);
    nums.push_back(num);
  }
  AffineExpr folded = simplifyAffineExpr(start, depth, 1);
  if (auto constant = dyn_cast<AffineConstantExpr>(folded))
    return PhysicalAccessPatternAttr::get(getContext(), constant.getValue(),
                                          steps, nums);
  return SymbolicAccessPatternAttr::get(getContext(),
                                        AffineMap::get(depth, 1, folded), steps,
                                        nums, AffineMap(), AffineMap());
}

AccessPatternAttr KernelBuilder::tilePattern(MemlocOp tile, int64_t partitions,
                                             int64_t columns,
                                             int64_t columnOffset) {
  int64_t free = tile.getMemoryType().getFreeSize();
  return pattern(constant(columnOffset), {{free, partitions}, {1, columns}});
}

AccessPatternAttr KernelBuilder::dramPattern(const DramTensor &tensor,
                                             AffineExpr row, AffineExpr column,
                                             int64_t partitions,
                                             int64_t columns) {
  return pattern(row * tensor.rowStride + column + tensor.base,
                 {{tensor.rowStride, partitions}, {1, columns}});
}

void KernelBuilder::cast(Location loc, MemlocOp dst, AccessPatternAttr dstAp,
                         MemlocOp src, AccessPatternAttr srcAp) {
  create<ActivationOp>(loc, ActivationFunction::Identity, dst, dstAp, src,
                       srcAp ? srcAp : dstAp, APFloat(1.0));
}

void KernelBuilder::loop(int64_t count, function_ref<void(AffineExpr)> body) {
  if (count <= 0)
    return;
  if (count == 1)
    return body(constant(0));
  OpBuilder::InsertionGuard guard(builder);
  auto loop = LoopOp::create(builder, builder.getUnknownLoc(), 0, count, 1);
  builder.setInsertionPointToEnd(&loop.getBody().front());
  AffineExpr iv = getAffineDimExpr(depth, getContext());
  ++depth;
  body(iv);
  --depth;
}

void KernelBuilder::withCores(int64_t first, int64_t last,
                              function_ref<void()> body) {
  IntegerSet saved = mask;
  if (first > 0 || last < lncSize - 1) {
    AffineExpr s0 = shardId();
    mask = first == last
               ? IntegerSet::get(0, 1, {s0 - first}, {true})
               : IntegerSet::get(0, 1, {s0 - first, constant(last) - s0},
                                 {false, false});
  }
  body();
  mask = saved;
}

void KernelBuilder::forEachRowTile(int64_t rows, int64_t tileRows,
                                   function_ref<void(const RowTile &)> body) {
  forEachRotatingRowTile(rows, tileRows, 1,
                         [&](const RowTile &tile, unsigned) { body(tile); });
}

void KernelBuilder::forEachRotatingRowTile(
    int64_t rows, int64_t tileRows, int64_t buffers,
    function_ref<void(const RowTile &, unsigned)> body) {
  int64_t fullTiles = rows / tileRows, rest = rows % tileRows;
  int64_t rounds = fullTiles / lncSize, lastRound = fullTiles % lncSize;
  auto roundTile = [&](AffineExpr round) {
    return RowTile{tileRows, (round * lncSize + shardId()) * tileRows, round};
  };
  // Each core's tiles in turn take buffers 0, 1, ...: a loop iteration
  // runs `buffers` rounds, the rounds left over follow unrolled.
  int64_t iterations = rounds / buffers;
  loop(iterations, [&](AffineExpr iteration) {
    for (int64_t buffer = 0; buffer < buffers; ++buffer)
      body(roundTile(iteration * buffers + buffer), unsigned(buffer));
  });
  for (int64_t round = iterations * buffers; round < rounds; ++round)
    body(roundTile(constant(round)), unsigned(round % buffers));
  unsigned next = unsigned(rounds % buffers);
  if (lastRound)
    withCores(0, lastRound - 1,
              [&] { body(roundTile(constant(rounds)), next); });
  if (rest)
    withCores(lastRound, lastRound, [&] {
      body({rest, constant(fullTiles * tileRows), constant(rounds)}, next);
    });
}

void KernelBuilder::forEachColumnTile(
    int64_t columns, int64_t tileColumns,
    function_ref<void(const ColumnTile &)> body) {
  int64_t fullTiles = columns / tileColumns, rest = columns % tileColumns;
  loop(fullTiles,
       [&](AffineExpr tile) { body({tileColumns, tile * tileColumns}); });
  if (rest)
    body({rest, constant(fullTiles * tileColumns)});
}

void KernelBuilder::forEachTile(int64_t size, int64_t tile, bool deal,
                                function_ref<void(int64_t, AffineExpr)> body) {
  if (deal)
    return forEachRowTile(size, tile, [&](const RowTile &rows) {
      body(rows.partitions, rows.firstRow);
    });
  forEachColumnTile(size, tile, [&](const ColumnTile &columns) {
    body(columns.columns, columns.firstColumn);
  });
}

int64_t KernelBuilder::getBusiestShare(int64_t size, int64_t tile) const {
  int64_t tiles = llvm::divideCeil(size, tile);
  int64_t lastTile = size - (tiles - 1) * tile;
  int64_t busiest = 0;
  for (int64_t core = 0; core < std::min(lncSize, tiles); ++core) {
    // Tiles core, core + lnc, ...; the last tile may be partial.
    int64_t count = (tiles - core + lncSize - 1) / lncSize;
    int64_t share = count * tile;
    if ((tiles - 1) % lncSize == core)
      share -= tile - lastTile;
    busiest = std::max(busiest, share);
  }
  return busiest;
}

bool KernelBuilder::dealsBetter(int64_t first, int64_t firstTile,
                                int64_t second, int64_t secondTile,
                                int64_t minShare) const {
  if (lncSize == 1 || first <= 0 || second <= 0 ||
      std::min<int64_t>(secondTile, llvm::divideCeil(second, lncSize)) <
          minShare)
    return false;
  // The busiest core's share of the whole, compared without division.
  double firstShare = double(getBusiestShare(first, firstTile)) * second;
  double secondShare = double(getBusiestShare(second, secondTile)) * first;
  return secondShare < firstShare;
}

void KernelBuilder::forEachRotatingTile(
    int64_t size, int64_t tile, int64_t buffers,
    function_ref<void(int64_t, AffineExpr, unsigned)> body) {
  int64_t fullTiles = size / tile, rest = size % tile;
  int64_t rounds = fullTiles / buffers;
  loop(rounds, [&](AffineExpr round) {
    for (int64_t buffer = 0; buffer < buffers; ++buffer)
      body(tile, (round * buffers + buffer) * tile, unsigned(buffer));
  });
  for (int64_t index = rounds * buffers; index < fullTiles; ++index)
    body(tile, constant(index * tile), unsigned(index % buffers));
  if (rest)
    body(rest, constant(fullTiles * tile), unsigned(fullTiles % buffers));
}

unsigned KernelBuilder::chooseDealt(const DealCandidate &base,
                                    ArrayRef<DealCandidate> candidates) const {
  DealCandidate best = base;
  for (const DealCandidate &candidate : candidates)
    if (dealsBetter(best.size, best.tile, candidate.size, candidate.tile,
                    candidate.minShare))
      best = candidate;
  return best.dim;
}

int64_t KernelBuilder::getMinMatmultColumns() const {
  return int64_t(TimingModel::forTarget(target).matmulMinCycles);
}

int64_t KernelBuilder::getMinVectorColumns() const {
  return int64_t(TimingModel::forTarget(target).instructionOverheadCycles);
}
