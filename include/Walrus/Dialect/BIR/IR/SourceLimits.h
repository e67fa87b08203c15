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
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>

namespace walrus {

/// Deepest bracket nesting ({, ( and [ together) the parser is given: far
/// above any real program (a loop nest is one level per loop), far below
/// what overflows the parser's stack.
constexpr unsigned kMaxSourceNesting = 512;

/// Line and column (1-based) of the first bracket of `text` nested deeper
/// than kMaxSourceNesting, outside strings and comments, if there is one.
std::optional<std::pair<unsigned, unsigned>>
findTooDeepBracket(llvm::StringRef text);

/// Fails with an error at the first bracket of `text` (named `fileName`)
/// nested deeper than kMaxSourceNesting, outside strings and comments.
mlir::LogicalResult checkSourceNesting(llvm::StringRef text,
                                       llvm::StringRef fileName,
                                       mlir::MLIRContext *context);

/// Default of the tools' --max-input-bytes: the largest file they read.
constexpr uint64_t kDefaultMaxInputBytes = uint64_t(1) << 30;

/// `path`'s contents when it is a regular file of at most `maxBytes` bytes
/// (so /dev/zero or a FIFO is never read without end); else null, with
/// `error` saying why. "-" is standard input, read up to `maxBytes` + 1
/// bytes.
std::unique_ptr<llvm::MemoryBuffer> readBoundedFile(llvm::StringRef path,
                                                    uint64_t maxBytes,
                                                    std::string &error,
                                                    bool isText = true);

} // namespace walrus

#endif // WALRUS_DIALECT_BIR_IR_SOURCELIMITS_H
