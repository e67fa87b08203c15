// RUN: %python %utils/linalg_oracle.py %s --func 'torch.aten.relu$basic' --bin %walrus_tools --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func masked --bin %walrus_tools --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func positive --bin %walrus_tools --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func copy_strided --bin %walrus_tools --pipeline | FileCheck %s
// RUN: walrus-opt %s -walrus-from-linalg | FileCheck %s --check-prefix=BIR

// The oracle on the signatures frontends write: a symbol name with '.'
// and '$' (torch-mlir's test names), a boolean (i1) argument and result
// (bytes 0 / 1 on both sides), and an argument of a strided layout (the
// whole buffer it spans is the input, viewed by MLIR's harness as the
// function reads it).

// CHECK: oracle: identical

// BIR-DAG: bir.memloc "torch.aten.relu$basic_arg0" input : !bir.dram<8x16xf32>
// BIR-DAG: bir.memloc "masked_arg0" input : !bir.dram<8x16xi8>
// BIR-DAG: bir.memloc "positive_result0" output : !bir.dram<8x16xi8>
// BIR-DAG: bir.memloc "copy_strided_arg0" input : !bir.dram<244xf32>

func.func @"torch.aten.relu$basic"(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @masked(%m: tensor<8x16xi1>, %x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %x : tensor<8x16xi1>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%c: i1, %a: f32, %o: f32):
    %s = arith.select %c, %a, %zero : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @positive(%x: tensor<8x16xf32>) -> tensor<8x16xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xi1>) {
  ^bb0(%a: f32, %o: i1):
    %c = arith.cmpf ogt, %a, %zero : f32
    linalg.yield %c : i1
  } -> tensor<8x16xi1>
  return %r : tensor<8x16xi1>
}

func.func @copy_strided(%x: memref<8x16xf32, strided<[32, 1], offset: 4>>, %y: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x16xf32, strided<[32, 1], offset: 4>>) outs(%y : memref<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  }
  return
}
