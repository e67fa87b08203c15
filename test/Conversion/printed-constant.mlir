// RUN: walrus-opt %s -walrus-from-linalg=lnc-size=2 | FileCheck %s
// RUN: walrus-opt %s -normalize-linalg | FileCheck %s --check-prefix=NORMAL
// RUN: %python %utils/linalg_oracle.py %s --func printed_sum --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func padded --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func collapsed --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: {{identical|within tolerance}}

// The forms of LLVM's CPU integration tests (mlir/test/Integration/Dialect/
// Linalg/CPU): ops on constant tensors, printed with printMemrefF32 (the
// oracle compares the printed decimals, six digits).

// The sum folds; the kernel copies it into the buffer the host prints.
// CHECK-LABEL: func.func @printed_sum
// CHECK:         bir.launch @printed_sum_kernel
// CHECK-NEXT:    call @printMemrefF32
func.func @printed_sum() {
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %sum = arith.addf %a, %b : tensor<3xf32>
  %unranked = tensor.cast %sum : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%unranked) : (tensor<*xf32>) -> ()
  return
}

// A cast to dynamic sizes read by a pad of constant amounts: upstream's
// canonicalizations fold the cast into the pad, whose sizes are static
// again.
// NORMAL-LABEL: func.func @padded
// NORMAL:         %[[P:.*]] = tensor.pad %{{.*}} low[0, 2, 0] high[0, 0, 2]
// NORMAL:         } : tensor<1x2x3xf32> to tensor<1x4x5xf32>
// NORMAL-NEXT:    tensor.cast %[[P]] : tensor<1x4x5xf32> to tensor<*xf32>
// CHECK-LABEL: func.func @padded
// CHECK:         bir.launch @padded_kernel
func.func @padded() {
  %const = arith.constant dense<[[[1.0, 2.0, 3.0], [2.0, 3.0, 4.0]]]> : tensor<1x2x3xf32>
  %dynamic = tensor.cast %const : tensor<1x2x3xf32> to tensor<1x?x3xf32>
  %offset = arith.constant 2 : index
  %fill = arith.constant 2.3 : f32
  %c0 = arith.constant 0 : index
  %out = tensor.pad %dynamic low[%c0, %offset, %c0] high[%c0, %c0, %offset] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %fill : f32
  } : tensor<1x?x3xf32> to tensor<1x?x?xf32>
  %unranked = tensor.cast %out : tensor<1x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%unranked) : (tensor<*xf32>) -> ()
  return
}

// The same for a collapse of dynamic sizes, through a call (inlined).
// NORMAL-LABEL: func.func @collapsed
// CHECK-LABEL: func.func @collapsed
// CHECK:         bir.launch @collapsed_kernel
func.func @collapsed() {
  %const = arith.constant dense<[[[[-3.9, 0.9], [-2.9, -2.2], [18.3, 8.2]], [[3.4, 5.9], [-17.2, 4.9], [1.0, -0.8]]], [[[17.6, -11.1], [26.7, -3.8], [-4.2, -5.8]], [[2.1, 13.1], [-10.7, 0.8], [16.4, 9.4]]]]> : tensor<2x2x3x2xf32>
  %dynamic = tensor.cast %const : tensor<2x2x3x2xf32> to tensor<2x?x?x?xf32>
  %collapsed = call @collapse_dynamic(%dynamic) : (tensor<2x?x?x?xf32>) -> tensor<2x?x?xf32>
  %unranked = tensor.cast %collapsed : tensor<2x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%unranked) : (tensor<*xf32>) -> ()
  return
}
func.func private @collapse_dynamic(%arg0 : tensor<2x?x?x?xf32>) -> tensor<2x?x?xf32> {
  %0 = tensor.collapse_shape %arg0 [[0], [1, 2], [3]] : tensor<2x?x?x?xf32> into tensor<2x?x?xf32>
  return %0 : tensor<2x?x?xf32>
}
func.func private @printMemrefF32(%ptr : tensor<*xf32>)
