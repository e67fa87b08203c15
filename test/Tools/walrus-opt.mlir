// walrus-opt is MlirOptMain: MLIR's usual flags work with the bir dialect.
//
// RUN: walrus-opt --help | FileCheck %s --check-prefix=HELP
// RUN: walrus-opt %s --pass-pipeline='builtin.module(print-bir-summary)' -o /dev/null | FileCheck %s --check-prefix=PIPELINE
// RUN: walrus-opt %s -print-bir-summary --mlir-pass-statistics --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER-ALL
// RUN: walrus-opt %s --emit-bytecode | walrus-opt --verify-roundtrip | FileCheck %s --check-prefix=BYTECODE
// RUN: walrus-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// HELP: Available Dialects: arith, bir, bufferization, builtin, cf, func, linalg, math, memref, ml_program, scf, tensor
// HELP: --canonicalize
// HELP: --one-shot-bufferize
// HELP: --print-bir-summary

// PIPELINE: module @m: symbolic over 1 core(s), target trn2

// AFTER-ALL: IR Dump After PrintBirSummary (print-bir-summary)
// AFTER-ALL: bir.func @main

// BYTECODE: bir.memset %t[#bir.ap<0, {{\[\[}}4, 128], [1, 4]]>], 1.500000e+00

// LOC: bir.memloc "t" internal : !bir.sbuf<128x4xf32> loc(

module @m {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 1.5 : !bir.sbuf<128x4xf32>
  }
}
