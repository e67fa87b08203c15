// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s

// The oracle on a module as torch-mlir writes it: attributes on the module
// (torch.debug_module_name, of a dialect the CPU run does not have), a
// public function, and a @main of the file's own (LLVM's integration tests
// have one; the harness's entry point has a name of its own). Before, the
// harness took the attribute dictionary for the module's body.
// CHECK: oracle: identical
module attributes {torch.debug_module_name = "Scale"} {
  func.func public @forward(%x: tensor<200x64xf32>) -> tensor<200x64xf32> {
    %e = tensor.empty() : tensor<200x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<200x64xf32>) outs(%e : tensor<200x64xf32>) {
    ^bb0(%a: f32, %o: f32):
      %c = arith.constant 2.0 : f32
      %m = arith.mulf %a, %c : f32
      linalg.yield %m : f32
    } -> tensor<200x64xf32>
    return %y : tensor<200x64xf32>
  }
  func.func @main() {
    return
  }
}
