// The reference of oracle-softmax.mlir: softmax written out in ops
// upstream MLIR lowers to LLVM.
func.func @softmax_reference(%x: memref<140x150xf32>, %y: memref<140x150xf32>) {
  %lowest = arith.constant -3.0e38 : f32
  %zero = arith.constant 0.0 : f32
  %max = memref.alloc() : memref<140xf32>
  %sum = memref.alloc() : memref<140xf32>
  linalg.fill ins(%lowest : f32) outs(%max : memref<140xf32>)
  linalg.fill ins(%zero : f32) outs(%sum : memref<140xf32>)
  linalg.reduce ins(%x : memref<140x150xf32>) outs(%max : memref<140xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<140x150xf32>, memref<140xf32>) outs(%y : memref<140x150xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  }
  linalg.reduce ins(%y : memref<140x150xf32>) outs(%sum : memref<140xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%sum : memref<140xf32>) outs(%y : memref<140x150xf32>) {
  ^bb0(%s: f32, %o: f32):
    %d = arith.divf %o, %s : f32
    linalg.yield %d : f32
  }
  return
}
