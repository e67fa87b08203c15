//===- Passes.h - Walrus passes ---------------------------------*- C++ -*-===//

#ifndef WALRUS_TRANSFORMS_PASSES_H
#define WALRUS_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace walrus {

#define GEN_PASS_DECL
#include "Walrus/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Walrus/Transforms/Passes.h.inc"

} // namespace walrus

#endif // WALRUS_TRANSFORMS_PASSES_H
