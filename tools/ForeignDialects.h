//===- ForeignDialects.h - Frontend dialects a tool names -------*- C++ -*-===//
//
// A module still in torch-mlir's `torch` dialect is a frontend's graph that
// was never lowered to linalg. Without this placeholder the parser says only
// "Dialect `torch' not found"; with it, the first torch type, attribute or
// op is a located error that says which torch-mlir pipeline lowers it. Only
// the tools register it: a compiler embedding Walrus may hold the real one.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_TOOLS_FOREIGNDIALECTS_H
#define WALRUS_TOOLS_FOREIGNDIALECTS_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

namespace walrus::tools {

class TorchPlaceholderDialect : public mlir::Dialect {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TorchPlaceholderDialect)

  explicit TorchPlaceholderDialect(mlir::MLIRContext *context)
      : Dialect(getDialectNamespace(), context,
                mlir::TypeID::get<TorchPlaceholderDialect>()) {}
  static llvm::StringRef getDialectNamespace() { return "torch"; }

  static constexpr llvm::StringLiteral kLowerFirst =
      " is torch-mlir's torch dialect, which Walrus does not read: lower the "
      "module to linalg on tensors first (torch-mlir's "
      "'torch-backend-to-linalg-on-tensors-backend-pipeline', or "
      "torch_mlir.fx.export_and_import(..., "
      "output_type=\"linalg-on-tensors\"))";

  mlir::Type parseType(mlir::DialectAsmParser &parser) const override {
    parser.emitError(parser.getNameLoc(), "'!torch.")
        << parser.getFullSymbolSpec() << "'" << kLowerFirst;
    return {};
  }
  mlir::Attribute parseAttribute(mlir::DialectAsmParser &parser,
                                 mlir::Type) const override {
    parser.emitError(parser.getNameLoc(), "'#torch.")
        << parser.getFullSymbolSpec() << "'" << kLowerFirst;
    return {};
  }
  std::optional<ParseOpHook>
  getParseOperationHook(llvm::StringRef) const override {
    return ParseOpHook(refuse);
  }

private:
  static mlir::ParseResult refuse(mlir::OpAsmParser &parser,
                                  mlir::OperationState &) {
    // The parser names the op before this.
    return parser.emitError(parser.getNameLoc()) << kLowerFirst.drop_front();
  }
};

} // namespace walrus::tools

#endif // WALRUS_TOOLS_FOREIGNDIALECTS_H
