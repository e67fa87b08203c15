//===- Passes.h - Walrus conversions into bir -------------------*- C++ -*-===//

#ifndef WALRUS_CONVERSION_PASSES_H
#define WALRUS_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace walrus {

#define GEN_PASS_DECL
#include "Walrus/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Walrus/Conversion/Passes.h.inc"

} // namespace walrus

#endif // WALRUS_CONVERSION_PASSES_H
