//===- BIRTypes.cpp - bir memory types ------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"

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
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() % 8)
    return emitError() << "!bir." << mnemonic
                       << " element type must be a whole-byte integer or "
                          "float, got "
                       << elementType;
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
