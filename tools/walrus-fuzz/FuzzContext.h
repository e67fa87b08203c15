//===- FuzzContext.h - What the fuzz targets share --------------*- C++ -*-===//
//-*-===//

#ifndef WALRUS_TOOLS_WALRUS_FUZZ_FUZZCONTEXT_H
#define WALRUS_TOOLS_WALRUS_FUZZ_FUZZCONTEXT_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "Walrus/Dialect/BIR/IR/SourceLimits.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

namespace walrus::fuzz {

/// One context with the bir dialect for every input of a run: made once,
/// never freed (libFuzzer exits without returning).
inline mlir::MLIRContext *getContext() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registry.insert<bir::BIRDialect>();
    auto *created = new mlir::MLIRContext(registry);
    created->loadAllAvailableDialects();
    return created;
  }();
  return context;
}

/// The module libFuzzer's `data` holds, parsed as the tools parse a file:
/// nesting the parser cannot take is refused first; null when it does not
/// parse (the diagnostics go to the caller's handler).
inline mlir::OwningOpRef<mlir::ModuleOp>
parseModule(mlir::MLIRContext *context, const uint8_t *data, size_t size) {
  // The lexer reads a buffer with a terminating NUL, as a file read by the
  // tools (a MemoryBuffer) or a Python string has; libFuzzer's data has
  // none.
  std::string text(reinterpret_cast<const char *>(data), size);
  if (mlir::failed(checkSourceNesting(text, "fuzz.mlir", context)))
    return nullptr;
  return mlir::parseSourceString<mlir::ModuleOp>(text, context);
}

} // namespace walrus::fuzz

#endif // WALRUS_TOOLS_WALRUS_FUZZ_FUZZCONTEXT_H
