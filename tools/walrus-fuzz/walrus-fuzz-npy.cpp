//===- walrus-fuzz-npy.cpp - libFuzzer target over .npy reading -----------===//
//
// Any file may be refused with an error, but nothing may crash or read
// outside it: the first byte picks the tensor's element type, the second
// its element count, the rest is the file walrus-run would read.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "Npy.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace walrus;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext *context = fuzz::getContext();
  if (size < 2)
    return 0;
  Builder builder(context);
  Type types[] = {builder.getF32Type(), builder.getBF16Type(),
                  builder.getF16Type(), builder.getF64Type(),
                  builder.getI32Type(), builder.getI8Type()};
  Type element = types[data[0] % std::size(types)];
  int64_t count = data[1] % 64 + 1;
  interp::DramTensor tensor;
  tensor.type = bir::DramType::get(context, {count}, element);
  tensor.kind = bir::TensorKind::Input;
  tensor.bytes.assign(count * tensor.type.getElementBytes(), 0);
  std::string error;
  (void)interp::readTensorBytes(
      StringRef(reinterpret_cast<const char *>(data + 2), size - 2), "fuzz.npy",
      tensor, error);
  return 0;
}
