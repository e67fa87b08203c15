//===- Elements.cpp - Element loads and stores ----------------------------===//

#include "Elements.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"

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
  if (std::isnan(value))
    return 0x7FC0;
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
