//===- SourceLimits.h - Refusing text the parser cannot take ----*- C++ -*-===//
//
// MLIR's parser recurses once per nested region, attribute or type: a file
// of thousands of nested brackets overflows its stack before any verifier
// runs. The tools and the Python bindings check the text first.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_DIALECT_BIR_IR_SOURCELIMITS_H
#define WALRUS_DIALECT_BIR_IR_SOURCELIMITS_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

namespace walrus {

/// Deepest bracket nesting ({, ( and [ together) the parser is given: far
/// above any real program (a loop nest is one level per loop), far below
/// what overflows the parser's stack.
constexpr unsigned kMaxSourceNesting = 512;

/// Fails with an error at the first bracket of `text` (named `fileName`)
/// nested deeper than kMaxSourceNesting, outside strings and comments.
mlir::LogicalResult checkSourceNesting(llvm::StringRef text,
                                       llvm::StringRef fileName,
                                       mlir::MLIRContext *context);

} // namespace walrus

#endif // WALRUS_DIALECT_BIR_IR_SOURCELIMITS_H
