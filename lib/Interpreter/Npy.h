//===- Npy.h - NumPy .npy files ----------------------------------*- C++
//-*-===//

#ifndef WALRUS_LIB_INTERPRETER_NPY_H
#define WALRUS_LIB_INTERPRETER_NPY_H

#include "Walrus/Interpreter/Interpreter.h"

namespace walrus::interp {

/// Fills `tensor` from a .npy file (a dtype that matches its element type,
/// or float32 for bf16) or from a raw file of exactly its size.
mlir::LogicalResult readTensorFile(llvm::StringRef path, DramTensor &tensor,
                                   std::string &error);
/// The same for the bytes of a file; `path` names it in errors.
mlir::LogicalResult readTensorBytes(llvm::StringRef data, llvm::StringRef path,
                                    DramTensor &tensor, std::string &error);

} // namespace walrus::interp

#endif // WALRUS_LIB_INTERPRETER_NPY_H
