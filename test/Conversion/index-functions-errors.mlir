// RUN: walrus-opt %s -walrus-from-linalg -verify-diagnostics

// AdaptiveAvgPool2d from 7x7 to 5x5 in torch-mlir's form: the windows
// start at 0, 1, 2, 4, 5, which no affine map of the loops reads, so the
// tensor.extract stays in the body and the lowering names it.

func.func @adaptive_pool_7_to_5(%x: tensor<1x4x7x7xf32>) -> tensor<1x4x5x5xf32> {
  %c1 = arith.constant 1 : index
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cH = arith.constant 7 : index
  %cO = arith.constant 5 : index
  %padded = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst_0 : f32
  } : tensor<1x4x7x7xf32> to tensor<1x4x8x8xf32>
  %51 = tensor.empty() : tensor<3x3xi1>
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %53 = linalg.fill ins(%cst_0 : f32) outs(%e : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %e2 = tensor.empty() : tensor<5x5xf32>
  %52 = linalg.fill ins(%cst_0 : f32) outs(%e2 : tensor<5x5xf32>) -> tensor<5x5xf32>
  // expected-error @+1 {{'linalg.generic' is not supported with 'memref.load' in its body: a read that is neither a gather by ids nor, on tensors before -normalize-linalg, at an affine function of the loops (an adaptive pooling window whose starts are not evenly spaced)}}
  %54:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%51 : tensor<3x3xi1>) outs(%53, %52 : tensor<1x4x5x5xf32>, tensor<5x5xf32>) {
  ^bb0(%in: i1, %out: f32, %out_31: f32):
    %74 = linalg.index 0 : index
    %75 = linalg.index 1 : index
    %76 = linalg.index 2 : index
    %77 = linalg.index 3 : index
    %78 = linalg.index 4 : index
    %79 = linalg.index 5 : index
    %80 = arith.muli %76, %cH : index
    %81 = arith.floordivsi %80, %cO : index
    %82 = arith.addi %76, %c1 : index
    %83 = arith.muli %82, %cH : index
    %84 = arith.subi %83, %c1 : index
    %85 = arith.floordivsi %84, %cO : index
    %86 = arith.addi %85, %c1 : index
    %87 = arith.muli %77, %cH : index
    %88 = arith.floordivsi %87, %cO : index
    %89 = arith.addi %77, %c1 : index
    %90 = arith.muli %89, %cH : index
    %91 = arith.subi %90, %c1 : index
    %92 = arith.floordivsi %91, %cO : index
    %93 = arith.addi %92, %c1 : index
    %94 = arith.addi %81, %78 : index
    %95 = arith.addi %88, %79 : index
    %extracted = tensor.extract %padded[%74, %75, %94, %95] : tensor<1x4x8x8xf32>
    %96 = arith.cmpi ult, %94, %86 : index
    %97 = arith.select %96, %extracted, %cst_0 : f32
    %98 = arith.cmpi ult, %95, %93 : index
    %99 = arith.select %98, %97, %cst_0 : f32
    %100 = arith.addf %99, %out : f32
    %101 = arith.subi %86, %81 : index
    %102 = arith.subi %93, %88 : index
    %103 = arith.muli %101, %102 : index
    %104 = arith.index_cast %103 : index to i64
    %105 = arith.sitofp %104 : i64 to f32
    linalg.yield %100, %105 : f32, f32
  } -> (tensor<1x4x5x5xf32>, tensor<5x5xf32>)
  %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54#1 : tensor<5x5xf32>) outs(%54#0 : tensor<1x4x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %74 = arith.divf %out, %in : f32
    linalg.yield %74 : f32
  } -> tensor<1x4x5x5xf32>
  return %55 : tensor<1x4x5x5xf32>
}
