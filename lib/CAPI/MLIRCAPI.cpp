//===- MLIRCAPI.cpp - MLIR's C API as one shared library ------------------===//
//
// Empty on purpose: libWalrusMLIRCAPI.so is the whole archives of MLIR's
// C API linked against libMLIR.so (lib/CAPI/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
