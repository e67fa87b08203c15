// RUN: not walrus-opt %s -convert-linalg-to-bir=lnc-size=0 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=matmul-buffers=5 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=matmul-buffers=0 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=elementwise-buffers=0 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=elementwise-buffers=5 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=normalization-buffers=0 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=normalization-buffers=5 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=attention-buffers=0 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=attention-buffers=5 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=column-tile=-1 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=column-tile=65537 2>&1 | FileCheck %s --check-prefix=LNC
// RUN: not walrus-opt %s -convert-linalg-to-bir=target=trn9 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not walrus-opt %s -convert-linalg-to-bir="column-tile=8 instruction-limit=3" 2>&1 | FileCheck %s --check-prefix=LIMIT

// LNC: error: convert-linalg-to-bir: lnc-size must be 1 to 128, column-tile 0 to 65536, matmul-buffers, elementwise-buffers, normalization-buffers and attention-buffers 1 to 4 and instruction-limit positive
// TARGET: error: convert-linalg-to-bir: unknown target 'trn9' (trn1, trn2 or trn3)
// LIMIT: error: convert-linalg-to-bir: the kernel would have more than 3 instructions over its 1 core(s) (instruction-limit counts every core's copy)
func.func @copy(%x: memref<300x300xf32>, %y: memref<300x300xf32>) {
  linalg.copy ins(%x : memref<300x300xf32>) outs(%y : memref<300x300xf32>)
  return
}
