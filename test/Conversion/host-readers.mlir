// RUN: walrus-opt %s -split-input-file -walrus-from-linalg -verify-diagnostics | FileCheck %s
// RUN: split-file %s %t
// RUN: %python %utils/linalg_oracle.py %t/prints.mlir --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE

// What the host reads after the kernel stays on the host, after the
// launch, and the buffers it reads are the kernel's outputs.

// torch-mlir returns its result through a tensor.cast to dynamic sizes
// (`tensor<?x?x512xf32>`): the kernel writes the static buffer, the host
// returns the cast of it after the launch. The oracle's run of this form:
// oracle-frontend-files.test.
// CHECK-LABEL: func.func @forward
// CHECK-SAME:    (%[[X:.*]]: memref<4x8x16xf32>) -> memref<?x?x16xf32>
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc() {{.*}} : memref<4x8x16xf32>
// CHECK-NEXT:    %[[CAST:.*]] = memref.cast %[[OUT]] : memref<4x8x16xf32> to memref<?x?x16xf32>
// CHECK-NEXT:    bir.launch @forward_kernel(%[[X]], %[[OUT]]) : memref<4x8x16xf32>, memref<4x8x16xf32>
// CHECK-NEXT:    return %[[CAST]] : memref<?x?x16xf32>
// CHECK:         bir.memloc "forward_result0" output : !bir.dram<4x8x16xf32>
func.func @forward(%x: tensor<4x8x16xf32>) -> tensor<?x?x16xf32> {
  %0 = tensor.empty() : tensor<4x8x16xf32>
  %1 = linalg.add ins(%x, %x : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%0 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %cast = tensor.cast %1 : tensor<4x8x16xf32> to tensor<?x?x16xf32>
  return %cast : tensor<?x?x16xf32>
}

// -----

// A cast a linalg op reads folds into it (upstream's folder, run by
// normalize-linalg): the op reads the static buffer.
// CHECK-LABEL: func.func @cast_read
// CHECK-SAME:    (%[[X:.*]]: memref<4x16xf32>, %[[Y:.*]]: memref<4x16xf32>)
// CHECK-NEXT:    bir.launch @cast_read_kernel(%[[X]], %[[Y]])
func.func @cast_read(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  %c = memref.cast %x : memref<4x16xf32> to memref<?x16xf32>
  linalg.copy ins(%c : memref<?x16xf32>) outs(%y : memref<4x16xf32>)
  return
}

// -----

// A linalg op after the print would run before it: the kernel runs whole,
// before the host goes on.
func.func @print_then_compute(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  %u = memref.cast %x : memref<4x4xf32> to memref<*xf32>
  // expected-note @+1 {{the host reads here}}
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  // expected-error @+1 {{a linalg op after the host reads the kernel's results: the kernel runs whole before the host goes on}}
  linalg.copy ins(%x : memref<4x4xf32>) outs(%y : memref<4x4xf32>)
  return
}
func.func private @printMemrefF32(%ptr : memref<*xf32>)

// -----

// LLVM's integration tests compute in @main and print with an external
// printMemrefF32 through a cast to an unranked memref: the kernel writes
// the printed buffer, the launch comes before the print. The oracle
// compares what MLIR's run prints with what walrus-run writes (printMemref
// prints six significant digits).
// CHECK-LABEL: func.func @main()
// CHECK:         %[[OUT:.*]] = memref.alloc() {{.*}} : memref<20x30xf32>
// CHECK-NEXT:    %[[CAST:.*]] = memref.cast %[[OUT]] : memref<20x30xf32> to memref<*xf32>
// CHECK-NEXT:    bir.launch @main_kernel(%{{.*}}, %{{.*}}, %[[OUT]])
// CHECK-NEXT:    call @printMemrefF32(%[[CAST]]) : (memref<*xf32>) -> ()
// CHECK-NEXT:    return
// CHECK:         bir.memloc "main_result0" output : !bir.dram<20x30xf32>
// ORACLE: main_result0: 600 elements, max error
// ORACLE: oracle: within tolerance
//--- prints.mlir
func.func @main() {
  %a = arith.constant dense<1.500000e+00> : tensor<20x30xf32>
  %b = arith.constant dense<-0.333333343> : tensor<20x30xf32>
  %e = tensor.empty() : tensor<20x30xf32>
  %s = linalg.add ins(%a, %b : tensor<20x30xf32>, tensor<20x30xf32>) outs(%e : tensor<20x30xf32>) -> tensor<20x30xf32>
  %x = math.exp %s : tensor<20x30xf32>
  %u = tensor.cast %x : tensor<20x30xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(%ptr : tensor<*xf32>)
