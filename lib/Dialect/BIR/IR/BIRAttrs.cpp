//===- BIRAttrs.cpp - bir attributes --------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus::bir;

//===----------------------------------------------------------------------===//
// Access patterns
//===----------------------------------------------------------------------===//

/// `[[step, num], ...]`
static ParseResult parsePairs(AsmParser &parser,
                              SmallVectorImpl<int64_t> &steps,
                              SmallVectorImpl<int64_t> &nums) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        int64_t step, num;
        if (parser.parseLSquare() || parser.parseInteger(step) ||
            parser.parseComma() || parser.parseInteger(num) ||
            parser.parseRSquare())
          return failure();
        steps.push_back(step);
        nums.push_back(num);
        return success();
      });
}

static void printPairs(AsmPrinter &printer, ArrayRef<int64_t> steps,
                       ArrayRef<int64_t> nums) {
  printer << '[';
  llvm::interleaveComma(llvm::zip(steps, nums), printer, [&](auto pair) {
    printer << '[' << std::get<0>(pair) << ", " << std::get<1>(pair) << ']';
  });
  printer << ']';
}

/// The most elements a pattern may walk or reach, and the largest offset.
static constexpr int64_t kMaxPatternSpan = int64_t(1) << 48;

static LogicalResult verifyPairs(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> steps,
                                 ArrayRef<int64_t> nums) {
  if (steps.size() != nums.size())
    return emitError() << "access pattern needs as many steps as nums";
  if (steps.empty())
    return emitError() << "access pattern needs at least the partition "
                          "[step, num] pair";
  for (int64_t num : nums)
    if (num < 1)
      return emitError() << "access pattern extents must be positive, got "
                         << num;
  // Every element offset the pattern adds stays below kMaxPatternSpan, so
  // bounds checks on it cannot wrap.
  int64_t span = 0, count = 1;
  for (auto [step, num] : llvm::zip(steps, nums)) {
    std::optional<int64_t> reach =
        step == INT64_MIN ? std::nullopt
                          : llvm::checkedMul(std::abs(step), num - 1);
    std::optional<int64_t> total =
        reach ? llvm::checkedAdd(span, *reach) : std::nullopt;
    std::optional<int64_t> elements = llvm::checkedMul(count, num);
    if (!total || *total > kMaxPatternSpan || !elements ||
        *elements > kMaxPatternSpan)
      return emitError() << "access pattern [" << step << ", " << num
                         << "] reaches past 2^48 elements";
    span = *total;
    count = *elements;
  }
  return success();
}

LogicalResult
PhysicalAccessPatternAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t offset, ArrayRef<int64_t> steps,
                                  ArrayRef<int64_t> nums) {
  if (offset < -kMaxPatternSpan || offset > kMaxPatternSpan)
    return emitError() << "access pattern offset " << offset << " is past 2^48";
  return verifyPairs(emitError, steps, nums);
}

AffineMap PhysicalAccessPatternAttr::getStartMap() const {
  return AffineMap::getConstantMap(getOffset(), getContext());
}

Attribute SymbolicAccessPatternAttr::parse(AsmParser &parser, Type) {
  AffineMap offset, tile, block;
  SmallVector<int64_t> steps, nums;
  if (parser.parseLess() || parser.parseAffineMap(offset) ||
      parser.parseComma() || parsePairs(parser, steps, nums))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    SMLoc keyLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    AffineMap *part = llvm::StringSwitch<AffineMap *>(key)
                          .Case("tile", &tile)
                          .Case("block", &block)
                          .Default(nullptr);
    if (!part) {
      parser.emitError(keyLoc, "expected 'tile' or 'block', got '")
          << key << "'";
      return {};
    }
    if (*part) {
      parser.emitError(keyLoc, "'") << key << "' given twice";
      return {};
    }
    if (parser.parseAffineMap(*part))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), offset, steps, nums, tile, block);
}

void SymbolicAccessPatternAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.getStream() << getOffset();
  printer << ", ";
  printPairs(printer, getSteps(), getNums());
  if (getTile())
    printer.getStream() << ", tile = " << getTile();
  if (getBlock())
    printer.getStream() << ", block = " << getBlock();
  printer << '>';
}

LogicalResult
walrus::bir::verifyDivisors(AffineExpr expr,
                            function_ref<InFlightDiagnostic()> emitError,
                            StringRef what) {
  AffineExpr bad;
  expr.walk([&](AffineExpr part) {
    auto binary = dyn_cast<AffineBinaryOpExpr>(part);
    if (bad || !binary || binary.getKind() == AffineExprKind::Add ||
        binary.getKind() == AffineExprKind::Mul)
      return;
    auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    if (!divisor || divisor.getValue() <= 0)
      bad = binary.getRHS();
  });
  if (!bad)
    return success();
  std::string divisor;
  llvm::raw_string_ostream os(divisor);
  bad.print(os);
  return emitError() << what << " divides by " << divisor
                     << "; a divisor must be a positive constant";
}

LogicalResult
SymbolicAccessPatternAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  AffineMap offset, ArrayRef<int64_t> steps,
                                  ArrayRef<int64_t> nums, AffineMap tile,
                                  AffineMap block) {
  for (auto [name, map] : {std::pair<StringRef, AffineMap>{"offset", offset},
                           {"tile", tile},
                           {"block", block}}) {
    if (!map)
      continue;
    if (map.getNumResults() != 1)
      return emitError() << "symbolic access pattern " << name
                         << " map must have one result";
    if (map.getNumSymbols() > 1)
      return emitError() << "symbolic access pattern " << name
                         << " map may only use the shard id symbol s0";
    if (failed(
            verifyDivisors(map.getResult(0), emitError,
                           ("symbolic access pattern " + name + " map").str())))
      return failure();
  }
  return verifyPairs(emitError, steps, nums);
}

SmallVector<AffineMap, 3> SymbolicAccessPatternAttr::getStartParts() const {
  SmallVector<AffineMap, 3> parts = {getOffset()};
  if (getTile())
    parts.push_back(getTile());
  if (getBlock())
    parts.push_back(getBlock());
  return parts;
}

AffineMap SymbolicAccessPatternAttr::getStartMap() const {
  SmallVector<AffineMap, 3> parts = getStartParts();
  unsigned numDims = 0, numSymbols = 0;
  for (AffineMap part : parts) {
    numDims = std::max(numDims, part.getNumDims());
    numSymbols = std::max(numSymbols, part.getNumSymbols());
  }
  AffineExpr start = getAffineConstantExpr(0, getContext());
  for (AffineMap part : parts)
    start = start + part.getResult(0);
  return AffineMap::get(numDims, numSymbols, start);
}

//===----------------------------------------------------------------------===//
// ReplicationAttr
//===----------------------------------------------------------------------===//

LogicalResult
ReplicationAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t factor, int64_t partitionStride,
                        int64_t shift) {
  if (factor < 1)
    return emitError() << "replication factor must be at least 1, got "
                       << factor;
  if (partitionStride < 1)
    return emitError() << "replication partition_stride must be positive, got "
                       << partitionStride;
  if (shift < 0)
    return emitError() << "replication shift must not be negative, got "
                       << shift;
  // Replicas live in the 128 partitions; their shifts, up to factor x
  // shift columns, stay far from overflowing what they are added to.
  constexpr int64_t kMaxPartitions = 128;
  if (factor > kMaxPartitions || partitionStride > kMaxPartitions)
    return emitError() << "replication factor and partition_stride must be "
                          "at most "
                       << kMaxPartitions << ", got " << factor << " and "
                       << partitionStride;
  if (shift > kMaxPatternSpan)
    return emitError() << "replication shift " << shift << " is past 2^48";
  return success();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

namespace {
struct TargetParams {
  StringLiteral name;
  int64_t sbufBytesPerPartition;
};
} // namespace

// SBUF bytes per partition of the public NeuronCore generations; the PSUM
// and tensor-engine geometry is common to all three.
static constexpr TargetParams kPresets[] = {
    {"trn1", 192 * 1024}, {"trn2", 224 * 1024}, {"trn3", 256 * 1024}};
static constexpr int64_t kPartitions = 128;
static constexpr int64_t kPsumBytesPerPartition = 16 * 1024;
static constexpr int64_t kPsumBanks = 8;
static constexpr int64_t kMaxStationaryFree = 128;
static constexpr int64_t kMaxMovingFree = 512;

TargetAttr TargetAttr::getPreset(MLIRContext *context, StringRef name) {
  // Callers may hold IR without a BIR op in it (the dialect loads lazily).
  context->getOrLoadDialect<BIRDialect>();
  for (const TargetParams &preset : kPresets)
    if (preset.name == name)
      return get(context, preset.name, kPartitions,
                 preset.sbufBytesPerPartition, kPartitions,
                 kPsumBytesPerPartition, kPsumBanks, kMaxStationaryFree,
                 kMaxMovingFree, /*psumReservedBanks=*/0);
  return {};
}

static constexpr StringLiteral kTargetKeys[] = {
    "sbuf_partitions", "sbuf_bytes_per_partition",
    "psum_partitions", "psum_bytes_per_partition",
    "psum_banks",      "max_stationary_free",
    "max_moving_free"};

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  std::string name;
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  auto emitError = [&] { return parser.emitError(loc); };
  // Preset form: #bir.target<"trn2">.
  if (succeeded(parser.parseOptionalString(&name))) {
    if (parser.parseGreater())
      return {};
    TargetAttr preset = getPreset(parser.getContext(), name);
    if (!preset)
      emitError() << "unknown target preset \"" << name
                  << "\"; expected trn1, trn2 or trn3";
    return preset;
  }
  // Full form: name = "...", then every geometry key in order.
  if (parser.parseKeyword("name") || parser.parseEqual() ||
      parser.parseString(&name))
    return {};
  int64_t values[std::size(kTargetKeys)];
  for (auto [key, value] : llvm::zip(kTargetKeys, values)) {
    if (failed(parser.parseOptionalComma())) {
      parser.emitError(parser.getCurrentLocation(), "#bir.target needs '")
          << key << "' here; give every geometry key or a preset name";
      return {};
    }
    if (parser.parseKeyword(key) || parser.parseEqual() ||
        parser.parseInteger(value))
      return {};
  }
  // Optional last: the PSUM banks a target keeps for itself.
  int64_t reserved = 0;
  if (succeeded(parser.parseOptionalComma()) &&
      (parser.parseKeyword("psum_reserved_banks") || parser.parseEqual() ||
       parser.parseInteger(reserved)))
    return {};
  if (parser.parseGreater())
    return {};
  return getChecked(emitError, parser.getContext(), name, values[0], values[1],
                    values[2], values[3], values[4], values[5], values[6],
                    reserved);
}

void TargetAttr::print(AsmPrinter &printer) const {
  if (getPreset(getContext(), getName()) == *this) {
    printer << "<\"" << getName() << "\">";
    return;
  }
  printer << "<name = \"" << getName() << "\"";
  int64_t values[] = {getSbufPartitions(), getSbufBytesPerPartition(),
                      getPsumPartitions(), getPsumBytesPerPartition(),
                      getPsumBanks(),      getMaxStationaryFree(),
                      getMaxMovingFree()};
  for (auto [key, value] : llvm::zip(kTargetKeys, values))
    printer << ", " << key << " = " << value;
  if (getPsumReservedBanks() != 0)
    printer << ", psum_reserved_banks = " << getPsumReservedBanks();
  printer << '>';
}

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, StringRef name,
                   int64_t sbufPartitions, int64_t sbufBytesPerPartition,
                   int64_t psumPartitions, int64_t psumBytesPerPartition,
                   int64_t psumBanks, int64_t maxStationaryFree,
                   int64_t maxMovingFree, int64_t psumReservedBanks) {
  int64_t values[] = {sbufPartitions, sbufBytesPerPartition,
                      psumPartitions, psumBytesPerPartition,
                      psumBanks,      maxStationaryFree,
                      maxMovingFree};
  for (auto [key, value] : llvm::zip(kTargetKeys, values))
    if (value <= 0)
      return emitError() << "target " << key << " must be positive, got "
                         << value;
  if (psumBytesPerPartition % psumBanks)
    return emitError() << "target psum_bytes_per_partition ("
                       << psumBytesPerPartition
                       << ") must be a multiple of psum_banks (" << psumBanks
                       << ")";
  if (psumReservedBanks < 0 || psumReservedBanks >= psumBanks)
    return emitError() << "target psum_reserved_banks must be in [0, "
                       << psumBanks << "), got " << psumReservedBanks;
  return success();
}

#include "Walrus/Dialect/BIR/IR/BIRAttrInterfaces.cpp.inc"
#include "Walrus/Dialect/BIR/IR/BIREnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "Walrus/Dialect/BIR/IR/BIRAttrs.cpp.inc"

void BIRDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Walrus/Dialect/BIR/IR/BIRAttrs.cpp.inc"
      >();
}
