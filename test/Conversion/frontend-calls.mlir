// RUN: walrus-opt %s -walrus-from-linalg | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func forward --bin %walrus_tools --pipeline --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE

// Forms other frontends write (StableHLO's and buddy-mlir's linalg, LAPIS):
// a call of a function of the module, arith and math on whole tensors,
// linalg.broadcast and linalg.map. The call is inlined (its private callee
// goes), the tensor arith becomes linalg (upstream's elementwise
// conversion), map and broadcast become generics (upstream's
// generalization): one kernel, checked against MLIR running it as written.
// ORACLE: oracle: {{identical|within tolerance}}

// CHECK-NOT:   func.func private @helper
// CHECK-LABEL: func.func @forward
// CHECK:         bir.launch @forward_kernel
// CHECK-NOT:     func.call
// CHECK-LABEL: bir.kernel @forward_kernel
// CHECK:         bir.tensor_tensor add
// CHECK:         bir.activation exp
// CHECK:         bir.tensor_tensor multiply
func.func private @helper(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = arith.addf %a, %b : tensor<64x32xf32>
  %1 = math.exp %0 : tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}

func.func @forward(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>, %v: tensor<32xf32>) -> tensor<64x32xf32> {
  %0 = func.call @helper(%x, %y) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %e = tensor.empty() : tensor<64x32xf32>
  %b = linalg.broadcast ins(%v : tensor<32xf32>) outs(%e : tensor<64x32xf32>) dimensions = [0]
  %m = linalg.map { arith.mulf } ins(%0, %b : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>)
  return %m : tensor<64x32xf32>
}
