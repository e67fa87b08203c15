//===- Elements.h - Element loads and stores ---------------------*- C++
//-*-===//
//
// Conversions between stored element bytes (little endian) and the double
// precision values the interpreter computes with.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_LIB_INTERPRETER_ELEMENTS_H
#define WALRUS_LIB_INTERPRETER_ELEMENTS_H

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace walrus::interp {

/// The value of the element of type `type` stored at `bytes`.
double loadElement(mlir::Type type, const uint8_t *bytes);

/// Stores `value` as an element of `type` at `bytes`: floats round to
/// nearest even (a NaN keeps its sign and the payload bits that fit);
/// integers round to nearest even and saturate (NaN gives 0).
void storeElement(mlir::Type type, uint8_t *bytes, double value);

/// The integer element of `type` at `bytes`, sign-extended (signless and
/// signed types) or zero-extended (unsigned) to 64 bits.
int64_t loadInteger(mlir::IntegerType type, const uint8_t *bytes);

/// Stores the low bits of `value` as an element of `type` (two's
/// complement wrap-around, as `arith` computes).
void storeInteger(mlir::IntegerType type, uint8_t *bytes, int64_t value);

/// Prints the element of `type` at `bytes`: integers exactly, floats with
/// nine significant digits.
void printElement(llvm::raw_ostream &os, mlir::Type type, const uint8_t *bytes);

/// `value` (an element of `from`) clamped into the range of `to`.
int64_t saturateInteger(int64_t value, mlir::IntegerType from,
                        mlir::IntegerType to);

} // namespace walrus::interp

#endif // WALRUS_LIB_INTERPRETER_ELEMENTS_H
