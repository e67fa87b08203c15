// RUN: walrus-opt %s -split-input-file -verify-diagnostics

// A module still in torch-mlir's torch dialect (a graph never lowered to
// linalg) is refused at its first torch type or op, with the torch-mlir
// pipeline that lowers it. A module attribute of the torch namespace
// (torch.debug_module_name) is only a name and parses.

module attributes {torch.debug_module_name = "Net"} {
  // expected-error @+1 {{'!torch.vtensor<[2,3],f32>' is torch-mlir's torch dialect, which Walrus does not read: lower the module to linalg on tensors first (torch-mlir's 'torch-backend-to-linalg-on-tensors-backend-pipeline', or torch_mlir.fx.export_and_import(..., output_type="linalg-on-tensors"))}}
  func.func @forward(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
    return %arg0 : !torch.vtensor<[2,3],f32>
  }
}

// -----

func.func @constant() {
  // expected-error @+1 {{custom op 'torch.constant.int' is torch-mlir's torch dialect, which Walrus does not read}}
  %0 = torch.constant.int 1
  return
}

// -----

// expected-error @+1 {{'#torch.none' is torch-mlir's torch dialect}}
func.func @attribute() attributes {value = #torch.none} {
  return
}
