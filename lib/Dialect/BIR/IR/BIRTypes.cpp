//===- BIRTypes.cpp - bir memory types ------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "llvm/Support/CheckedArithmetic.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace walrus::bir;

/// `128x512xbf16`: a static dimension list followed by the element type.
static ParseResult parseShape(AsmParser &parser, SmallVector<int64_t> &shape,
                              Type &elementType) {
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType))
    return failure();
  return success();
}

static void printShape(AsmPrinter &printer, ArrayRef<int64_t> shape,
                       Type elementType) {
  for (int64_t dim : shape)
    printer << dim << 'x';
  printer << elementType;
}

/// The most bytes a tensor may have (256 TiB): products of its sizes and
/// any element offset into it stay far from 2^63.
static constexpr int64_t kMaxMemoryBytes = int64_t(1) << 48;

static LogicalResult
verifyMemoryType(function_ref<InFlightDiagnostic()> emitError,
                 StringRef mnemonic, bool onChip, ArrayRef<int64_t> shape,
                 Type elementType) {
  size_t minRank = onChip ? 2 : 1;
  if (shape.size() < minRank)
    return emitError() << "!bir." << mnemonic << " needs "
                       << (onChip ? "a partition dimension and a free shape"
                                  : "at least one dimension");
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "!bir." << mnemonic
                         << " dimensions must be positive, got " << dim;
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() % 8 ||
      elementType.getIntOrFloatBitWidth() > 64)
    return emitError() << "!bir." << mnemonic
                       << " element type must be a whole-byte integer or "
                          "float of at most 64 bits, got "
                       << elementType;
  // Sizes and offsets derived from the shape then fit in 64 bits.
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  for (int64_t dim : shape) {
    std::optional<int64_t> product = llvm::checkedMul(bytes, dim);
    if (!product || *product > kMaxMemoryBytes)
      return emitError() << "!bir." << mnemonic << " has more than 2^48 bytes";
    bytes = *product;
  }
  return success();
}

LogicalResult SbufType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  return verifyMemoryType(emitError, "sbuf", /*onChip=*/true, shape,
                          elementType);
}

LogicalResult PsumType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  return verifyMemoryType(emitError, "psum", /*onChip=*/true, shape,
                          elementType);
}

LogicalResult DramType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType) {
  return verifyMemoryType(emitError, "dram", /*onChip=*/false, shape,
                          elementType);
}

#define GET_TYPEDEF_CLASSES
#include "Walrus/Dialect/BIR/IR/BIROpsTypes.cpp.inc"

#include "Walrus/Dialect/BIR/IR/BIRTypeInterfaces.cpp.inc"

void BIRDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Walrus/Dialect/BIR/IR/BIROpsTypes.cpp.inc"
      >();
}
