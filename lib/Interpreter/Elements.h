//===- Elements.h - Element loads and stores ---------------------*- C++
//-*-===//
//
// Conversions between stored element bytes (little endian) and the double
// precision values the interpreter computes with.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_LIB_INTERPRETER_ELEMENTS_H
#define WALRUS_LIB_INTERPRETER_ELEMENTS_H

#include "mlir/IR/Types.h"

#include <cstdint>

namespace walrus::interp {

/// The value of the element of type `type` stored at `bytes`.
double loadElement(mlir::Type type, const uint8_t *bytes);

/// Stores `value` as an element of `type` at `bytes`: floats round to
/// nearest even; integers round to nearest even and saturate (NaN gives 0).
void storeElement(mlir::Type type, uint8_t *bytes, double value);

} // namespace walrus::interp

#endif // WALRUS_LIB_INTERPRETER_ELEMENTS_H
