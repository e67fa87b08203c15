//===- TestPasses.h - Walrus test-only passes -------------------*- C++ -*-===//

#ifndef WALRUS_TEST_LIB_TESTPASSES_H
#define WALRUS_TEST_LIB_TESTPASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace walrus::test {

#define GEN_PASS_DECL
#include "TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "TestPasses.h.inc"

} // namespace walrus::test

#endif // WALRUS_TEST_LIB_TESTPASSES_H
