//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// The subset of the .npy format (version 1.0) that tensors need: a
// little-endian or byte-sized dtype, C order, any shape.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "Elements.h"

#include "Walrus/Dialect/BIR/IR/SourceLimits.h"
#include "Walrus/Support/FileOutput.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace walrus::bir;
using namespace walrus::interp;

/// The .npy dtype that stores elements of `type` as they are, if any.
static std::optional<StringRef> exactDescr(Type type) {
  if (type.isF32())
    return StringRef("<f4");
  if (type.isF64())
    return StringRef("<f8");
  if (type.isF16())
    return StringRef("<f2");
  if (auto intType = dyn_cast<IntegerType>(type)) {
    bool isUnsigned = intType.isUnsigned();
    switch (intType.getWidth()) {
    case 8:
      return StringRef(isUnsigned ? "|u1" : "|i1");
    case 16:
      return StringRef(isUnsigned ? "<u2" : "<i2");
    case 32:
      return StringRef(isUnsigned ? "<u4" : "<i4");
    case 64:
      return StringRef(isUnsigned ? "<u8" : "<i8");
    }
  }
  return std::nullopt;
}

static std::string shapeText(ArrayRef<int64_t> shape) {
  std::string text = "(";
  for (int64_t dim : shape)
    text += std::to_string(dim) + ", ";
  if (shape.size() > 1)
    text.erase(text.size() - 1); // (2, 3) but (5,)
  return text + ")";
}

LogicalResult walrus::interp::readTensorFile(StringRef path, DramTensor &tensor,
                                             std::string &error) {
  // The tensor's bytes (or float32 for bf16) and the largest .npy 1.0
  // header: anything longer is not this tensor, whatever the file is.
  uint64_t limit = uint64_t(tensor.bytes.size()) * 2 + 10 + 65535;
  std::unique_ptr<llvm::MemoryBuffer> file =
      readBoundedFile(path, limit, error, /*isText=*/false);
  if (!file)
    return failure();
  return readTensorBytes(file->getBuffer(), path, tensor, error);
}

/// The value of `key` in a .npy header dictionary: a quoted string's
/// text, a tuple's inside, or the text up to the next comma.
static StringRef getHeaderField(StringRef header, StringRef key) {
  size_t at = header.find("'" + key.str() + "':");
  if (at == StringRef::npos)
    return StringRef();
  StringRef rest = header.drop_front(at + key.size() + 3).ltrim();
  if (rest.starts_with("'"))
    return rest.drop_front().take_until([](char c) { return c == '\''; });
  if (rest.starts_with("("))
    return rest.take_until([](char c) { return c == ')'; }).drop_front();
  return rest.take_until([](char c) { return c == ','; });
}

/// The element count of a .npy shape tuple: every dimension a
/// non-negative integer, their product checked; or the bad entry.
static FailureOr<int64_t> getElementCount(StringRef shape,
                                          std::string &badEntry) {
  int64_t count = 1;
  SmallVector<StringRef> dims;
  shape.split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t value;
    std::optional<int64_t> product;
    if (dim.trim().empty()) // "(6, )": Python's one-element tuple
      continue;
    if (dim.trim().getAsInteger(10, value) || value < 0 ||
        !(product = llvm::checkedMul(count, value))) {
      badEntry = dim.trim().str();
      return failure();
    }
    count = *product;
  }
  return count;
}

/// How many payload bytes `count` elements of dtype `descr` take when they
/// can fill `tensor` (the same dtype, or float32 into bf16).
static std::optional<size_t> getPayloadBytes(StringRef descr, int64_t count,
                                             const DramTensor &tensor) {
  Type type = tensor.type.getElementType();
  if (exactDescr(type) == descr)
    return tensor.bytes.size();
  if (type.isBF16() && descr == "<f4")
    return size_t(count) * 4;
  return std::nullopt;
}

/// Copies a .npy payload of `count` elements of dtype `descr` (checked by
/// getPayloadBytes) into `tensor`.
static void copyPayload(StringRef payload, StringRef descr, int64_t count,
                        DramTensor &tensor) {
  Type type = tensor.type.getElementType();
  if (exactDescr(type) == descr) {
    std::memcpy(tensor.bytes.data(), payload.data(), tensor.bytes.size());
    return;
  }
  Type f32 = Float32Type::get(type.getContext());
  for (int64_t i = 0; i < count; ++i)
    storeElement(type, &tensor.bytes[i * 2],
                 loadElement(f32, reinterpret_cast<const uint8_t *>(
                                      payload.data() + i * 4)));
}

LogicalResult walrus::interp::readTensorBytes(StringRef data, StringRef path,
                                              DramTensor &tensor,
                                              std::string &error) {
  size_t size = tensor.bytes.size();
  auto fail = [&](const Twine &message) {
    error = ("'" + path + "'" + message).str();
    return failure();
  };
  if (!data.starts_with("\x93NUMPY")) {
    if (data.size() != size)
      return fail(" has " + Twine(data.size()) + " bytes, the tensor " +
                  Twine(size));
    std::memcpy(tensor.bytes.data(), data.data(), size);
    return success();
  }
  if (data.size() < 10 || data[6] != 1)
    return fail(": only .npy version 1.0 is read");
  size_t headerLength = uint8_t(data[8]) | (uint8_t(data[9]) << 8);
  if (10 + headerLength > data.size())
    return fail(" has a truncated .npy header");
  StringRef header = data.substr(10, headerLength);
  StringRef payload = data.drop_front(10 + headerLength);
  // numpy ends the header dictionary with a newline.
  if (!header.rtrim(' ').ends_with("\n") || !header.contains('}'))
    return fail(" has a truncated .npy header");
  if (header.find("'shape':") == StringRef::npos)
    return fail(" has a .npy header without a shape");
  StringRef order = getHeaderField(header, "fortran_order").trim();
  if (order.empty())
    return fail(" has a .npy header without fortran_order");
  if (order != "False")
    return fail(" is not in C order");
  std::string badEntry;
  FailureOr<int64_t> count =
      getElementCount(getHeaderField(header, "shape"), badEntry);
  if (failed(count))
    return fail(" has a bad .npy shape entry '" + badEntry + "'");
  int64_t elements = tensor.type.getNumElements();
  if (*count != elements)
    return fail(" holds " + Twine(*count) + " elements, the tensor " +
                Twine(elements));
  StringRef descr = getHeaderField(header, "descr");
  std::optional<size_t> payloadBytes = getPayloadBytes(descr, *count, tensor);
  if (!payloadBytes)
    return fail(" has dtype '" + descr +
                "', which does not match the tensor's element type");
  if (payload.size() != *payloadBytes)
    return fail(" has " + Twine(payload.size()) + " bytes of data, " +
                Twine(*count) + " elements of '" + descr + "' take " +
                Twine(*payloadBytes));
  copyPayload(payload, descr, *count, tensor);
  return success();
}

LogicalResult walrus::interp::writeNpy(StringRef path, const DramTensor &tensor,
                                       std::string &error) {
  MemoryType tensorType = tensor.type;
  Type type = tensorType.getElementType();
  std::optional<StringRef> descr = exactDescr(type);
  std::vector<uint8_t> converted;
  const std::vector<uint8_t> *payload = &tensor.bytes;
  if (!descr) {
    // No numpy dtype (bf16, fp8): write the values as float32.
    descr = "<f4";
    Type f32 = Float32Type::get(type.getContext());
    int64_t count = tensorType.getNumElements();
    int64_t width = tensorType.getElementBytes();
    converted.resize(count * 4);
    for (int64_t i = 0; i < count; ++i)
      storeElement(f32, &converted[i * 4],
                   loadElement(type, &tensor.bytes[i * width]));
    payload = &converted;
  }
  std::string header = "{'descr': '" + descr->str() +
                       "', 'fortran_order': False, 'shape': " +
                       shapeText(tensorType.getShape()) + ", }";
  // Pad so that the payload starts at a multiple of 64 bytes.
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  return walrus::writeFile(
      path, llvm::sys::fs::OF_None,
      [&](llvm::raw_ostream &os) {
        os << "\x93NUMPY" << char(1) << char(0) << char(header.size() & 0xff)
           << char(header.size() >> 8) << header;
        os.write(reinterpret_cast<const char *>(payload->data()),
                 payload->size());
      },
      error);
}
