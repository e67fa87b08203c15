//===- Passes.h - Walrus passes ---------------------------------*- C++ -*-===//

#ifndef WALRUS_TRANSFORMS_PASSES_H
#define WALRUS_TRANSFORMS_PASSES_H

#include "Walrus/Schedule/ListScheduler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace walrus {

/// What -lnc-verify expects of the modules it checks.
enum class LncVerifyMode {
  /// Each in the state it is in.
  Auto,
  /// Every module symbolic (before -lnc-split).
  Symbolic,
  /// Every module concretized (after it).
  Concretized,
};

#define GEN_PASS_DECL
#include "Walrus/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Walrus/Transforms/Passes.h.inc"

} // namespace walrus

#endif // WALRUS_TRANSFORMS_PASSES_H
