// RUN: walrus-opt %s -split-input-file -raise-softmax | FileCheck %s
// RUN: walrus-opt %s -split-input-file -raise-softmax=explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN

// With explain, a remark at each softmax raised (at the division), none
// where the form stays.
// EXPLAIN:     raise-softmax.mlir:62:8: remark: raise-softmax: the maximum, exp, sum and division of these scores' rows are one softmax
// EXPLAIN:     raise-softmax.mlir:114:8: remark: raise-softmax
// EXPLAIN-NOT: remark

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#keep = affine_map<(d0, d1) -> (d0, 0)>

// torch-mlir's aten._softmax of a matmul's scores: the maximum beside an
// argmax nothing reads, each row value through a keepdim expand_shape,
// the subtraction and exp as two generics. One linalg.softmax replaces
// the four, writing where the division wrote; the fills, the expand_shapes
// and the generics go.

// CHECK-LABEL: func.func @torch_form
// CHECK:       %[[S:.*]] = linalg.matmul
// CHECK-NEXT:  %[[P:.*]] = linalg.softmax dimension(1) ins(%[[S]] : tensor<4x8xf32>) outs(%[[E:.*]] : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:  return %[[P]]
func.func @torch_form(%a: tensor<4x3xf32>, %b: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %re = tensor.empty() : tensor<4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %ie = tensor.empty() : tensor<4xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ie : tensor<4xi64>) -> tensor<4xi64>
  %max:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%mi, %ii : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %arg: i64):
    %i = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %x = arith.select %gt, %i64, %arg : i64
    linalg.yield %m, %x : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  %maxk = tensor.expand_shape %max#0 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %sub = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %maxk : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sub : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %sumi = linalg.fill ins(%zero : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%sumi : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4xf32>
  %sumk = tensor.expand_shape %sum [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sumk : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>

// After -fuse-elementwise: exp(x - max) in one generic, the scores scaled
// by a constant first, the maximum from the lowest finite f32, the row
// values read through (d0, 0).

// CHECK-LABEL: func.func @fused_and_scaled
// CHECK:       %[[SCALED:.*]] = linalg.generic
// CHECK:       linalg.softmax dimension(1) ins(%[[SCALED]] : tensor<4x8xf32>)
// CHECK-NOT:   linalg.generic
func.func @fused_and_scaled(%a: tensor<4x3xf32>, %b: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.mulf %in, %c : f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %re = tensor.empty() : tensor<4x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%scaled : tensor<4x8xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %exp = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%scaled, %max : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<4x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%si : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.addf %in, %out : f32
    linalg.yield %x : f32
  } -> tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>

// Left decomposed: a softmax of a function argument (the normalization
// nest lowers it), one whose exponentials are also returned, and one
// whose maximum starts from 0 (not a maximum of the row).

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   linalg.softmax
// CHECK:       return
func.func @left_alone(%x: tensor<4x8xf32>, %a: tensor<4x3xf32>, %b: tensor<3x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %re = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>

  %max0 = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %exp0 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max0 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %sum0 = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%exp0 : tensor<4x8xf32>) outs(%si : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<4x1xf32>
  %p0 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%exp0, %sum0 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>

  %max1 = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %exp1 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %max1 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %sum1 = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%exp1 : tensor<4x8xf32>) outs(%si : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<4x1xf32>
  %p1 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%exp1, %sum1 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>

  %zi = linalg.fill ins(%zero : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>
  %max2 = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%zi : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %exp2 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %max2 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %sum2 = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%exp2 : tensor<4x8xf32>) outs(%si : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<4x1xf32>
  %p2 = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%exp2, %sum2 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %p0, %p1, %exp1, %p2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
