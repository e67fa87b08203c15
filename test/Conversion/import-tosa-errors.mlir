// RUN: walrus-opt %s -import-tosa -verify-diagnostics

// A TOSA op upstream's pipelines do not lower is their error at the op.
func.func @custom(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'tosa.custom'}}
  %0 = tosa.custom %x {domain_name = "walrus", implementation_attrs = "", operator_name = "frobnicate"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
