//===- Elements.cpp - Element loads and stores ----------------------------===//

#include "Elements.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;

static uint64_t loadBits(const uint8_t *bytes, unsigned width) {
  uint64_t bits = 0;
  std::memcpy(&bits, bytes, width / 8); // little endian hosts only
  return bits;
}

static void storeBits(uint8_t *bytes, unsigned width, uint64_t bits) {
  std::memcpy(bytes, &bits, width / 8);
}

static float bf16ToFloat(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

static uint16_t floatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  // A NaN keeps its sign and the top of its payload; the quiet bit keeps
  // it a NaN should only low payload bits have been set.
  if (std::isnan(value))
    return uint16_t(bits >> 16) | 0x0040;
  // Round to nearest, ties to even.
  bits += 0x7FFF + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

double walrus::interp::loadElement(Type type, const uint8_t *bytes) {
  unsigned width = type.getIntOrFloatBitWidth();
  uint64_t bits = loadBits(bytes, width);
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.isUnsigned())
      return double(bits);
    return double(llvm::SignExtend64(bits, width));
  }
  if (type.isF32()) {
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  if (type.isF64()) {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  if (type.isBF16())
    return bf16ToFloat(uint16_t(bits));
  auto floatType = cast<FloatType>(type);
  llvm::APFloat value(floatType.getFloatSemantics(), llvm::APInt(width, bits));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

void walrus::interp::storeElement(Type type, uint8_t *bytes, double value) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (auto intType = dyn_cast<IntegerType>(type)) {
    double low, high;
    if (intType.isUnsigned()) {
      low = 0;
      high = std::ldexp(1.0, width) - 1;
    } else {
      low = -std::ldexp(1.0, width - 1);
      high = std::ldexp(1.0, width - 1) - 1;
    }
    double rounded = std::isnan(value) ? 0 : std::nearbyint(value);
    rounded = std::min(std::max(rounded, low), high);
    uint64_t bits =
        intType.isUnsigned() ? uint64_t(rounded) : uint64_t(int64_t(rounded));
    storeBits(bytes, width, bits);
    return;
  }
  if (type.isF32()) {
    float narrow = float(value);
    std::memcpy(bytes, &narrow, sizeof(narrow));
    return;
  }
  if (type.isF64()) {
    std::memcpy(bytes, &value, sizeof(value));
    return;
  }
  if (type.isBF16()) {
    storeBits(bytes, 16, floatToBf16(float(value)));
    return;
  }
  llvm::APFloat converted(value);
  bool losesInfo;
  converted.convert(cast<FloatType>(type).getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  storeBits(bytes, width, converted.bitcastToAPInt().getZExtValue());
}

int64_t walrus::interp::loadInteger(IntegerType type, const uint8_t *bytes) {
  unsigned width = type.getWidth();
  uint64_t bits = loadBits(bytes, width);
  if (type.isUnsigned())
    return int64_t(bits);
  return llvm::SignExtend64(bits, width);
}

void walrus::interp::storeInteger(IntegerType type, uint8_t *bytes,
                                  int64_t value) {
  storeBits(bytes, type.getWidth(), uint64_t(value));
}

int64_t walrus::interp::saturateInteger(int64_t value, IntegerType from,
                                        IntegerType to) {
  unsigned width = to.getWidth();
  // An unsigned 64-bit value above 2^63 is held as a negative int64.
  bool huge = from.isUnsigned() && value < 0;
  if (to.isUnsigned()) {
    if (value < 0 && !huge)
      return 0;
    uint64_t high = width == 64 ? UINT64_MAX : (uint64_t(1) << width) - 1;
    return int64_t(std::min(uint64_t(value), high));
  }
  int64_t high = width == 64 ? INT64_MAX : (int64_t(1) << (width - 1)) - 1;
  int64_t low = width == 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
  if (huge)
    return high;
  return std::min(std::max(value, low), high);
}

void walrus::interp::printElement(llvm::raw_ostream &os, Type type,
                                  const uint8_t *bytes) {
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer) {
    os << llvm::format("%.9g", loadElement(type, bytes));
    return;
  }
  int64_t value = loadInteger(integer, bytes);
  if (integer.isUnsigned())
    os << uint64_t(value);
  else
    os << value;
}
