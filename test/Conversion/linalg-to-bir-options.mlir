// RUN: not walrus-opt %s -convert-linalg-to-bir=lnc-size=0 2>&1 | FileCheck %s --check-prefix=LNC0
// RUN: not walrus-opt %s -convert-linalg-to-bir=matmul-buffers=5 2>&1 | FileCheck %s --check-prefix=MB5
// RUN: not walrus-opt %s -convert-linalg-to-bir=matmul-buffers=0 2>&1 | FileCheck %s --check-prefix=MB0
// RUN: not walrus-opt %s -convert-linalg-to-bir=elementwise-buffers=0 2>&1 | FileCheck %s --check-prefix=EB0
// RUN: not walrus-opt %s -convert-linalg-to-bir=elementwise-buffers=5 2>&1 | FileCheck %s --check-prefix=EB5
// RUN: not walrus-opt %s -convert-linalg-to-bir=normalization-buffers=0 2>&1 | FileCheck %s --check-prefix=NB0
// RUN: not walrus-opt %s -convert-linalg-to-bir=normalization-buffers=5 2>&1 | FileCheck %s --check-prefix=NB5
// RUN: not walrus-opt %s -convert-linalg-to-bir=attention-buffers=0 2>&1 | FileCheck %s --check-prefix=AB0
// RUN: not walrus-opt %s -convert-linalg-to-bir=attention-buffers=5 2>&1 | FileCheck %s --check-prefix=AB5
// RUN: not walrus-opt %s -convert-linalg-to-bir=column-tile=-1 2>&1 | FileCheck %s --check-prefix=CTM
// RUN: not walrus-opt %s -convert-linalg-to-bir=column-tile=65537 2>&1 | FileCheck %s --check-prefix=CTP
// RUN: not walrus-opt %s -convert-linalg-to-bir=instruction-limit=0 2>&1 | FileCheck %s --check-prefix=IL0
// RUN: not walrus-opt %s -convert-linalg-to-bir=lnc-sise=2 2>&1 | FileCheck %s --check-prefix=SPELLING
// RUN: not walrus-opt %s -walrus-from-linalg=lnc-sise=2 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not walrus-opt %s -convert-linalg-to-bir=target=trn9 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not walrus-opt %s -convert-linalg-to-bir="column-tile=8 instruction-limit=3" 2>&1 | FileCheck %s --check-prefix=LIMIT

// Each option out of its range is named, with its range and value.
// LNC0: error: convert-linalg-to-bir: lnc-size must be in [1, 128], not 0
// MB5: error: convert-linalg-to-bir: matmul-buffers must be in [1, 4], not 5
// MB0: error: convert-linalg-to-bir: matmul-buffers must be in [1, 4], not 0
// EB0: error: convert-linalg-to-bir: elementwise-buffers must be in [1, 4], not 0
// EB5: error: convert-linalg-to-bir: elementwise-buffers must be in [1, 4], not 5
// NB0: error: convert-linalg-to-bir: normalization-buffers must be in [1, 4], not 0
// NB5: error: convert-linalg-to-bir: normalization-buffers must be in [1, 4], not 5
// AB0: error: convert-linalg-to-bir: attention-buffers must be in [1, 4], not 0
// AB5: error: convert-linalg-to-bir: attention-buffers must be in [1, 4], not 5
// CTM: error: convert-linalg-to-bir: column-tile must be in [0, 65536], not -1
// CTP: error: convert-linalg-to-bir: column-tile must be in [0, 65536], not 65537
// IL0: error: convert-linalg-to-bir: instruction-limit must be positive, not 0
// A misspelled option is an error that lists the options there are.
// SPELLING: error: <Pass-Options-Parser>: no such option lnc-sise; 'convert-linalg-to-bir' takes: attention-buffers, auto-cast, column-tile, elementwise-buffers, f64-as-f32, instruction-limit, lnc-size, matmul-buffers, normalization-buffers, target
// PIPELINE: error: <Pass-Options-Parser>: no such option lnc-sise; 'walrus-from-linalg' takes: {{.*}}lnc-size
// TARGET: error: convert-linalg-to-bir: unknown target 'trn9' (trn1, trn2 or trn3)
// LIMIT: error: convert-linalg-to-bir: the kernel would have more than 3 instructions over its 1 core(s) (instruction-limit counts every core's copy)
func.func @copy(%x: memref<300x300xf32>, %y: memref<300x300xf32>) {
  linalg.copy ins(%x : memref<300x300xf32>) outs(%y : memref<300x300xf32>)
  return
}
