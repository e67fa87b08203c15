// The reference of attention-keys-by-column.mlir: the softmax written out in ops upstream
// MLIR lowers to LLVM.
func.func @attention_kt_reference(%q: memref<200x160xf32>, %k: memref<160x300xf32>, %v: memref<300x40xf32>,
                               %o: memref<200x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %s = memref.alloc() : memref<200x300xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<200x300xf32>)
  linalg.matmul ins(%q, %k : memref<200x160xf32>, memref<160x300xf32>) outs(%s : memref<200x300xf32>)
  %max = memref.alloc() : memref<200xf32>
  %sum = memref.alloc() : memref<200xf32>
  linalg.fill ins(%lowest : f32) outs(%max : memref<200xf32>)
  linalg.fill ins(%zero : f32) outs(%sum : memref<200xf32>)
  linalg.reduce ins(%s : memref<200x300xf32>) outs(%max : memref<200xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%max : memref<200xf32>) outs(%s : memref<200x300xf32>) {
  ^bb0(%m: f32, %x: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.reduce ins(%s : memref<200x300xf32>) outs(%sum : memref<200xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%sum : memref<200xf32>) outs(%s : memref<200x300xf32>) {
  ^bb0(%t: f32, %x: f32):
    %d = arith.divf %x, %t : f32
    linalg.yield %d : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<200x40xf32>)
  linalg.matmul ins(%s, %v : memref<200x300xf32>, memref<300x40xf32>) outs(%o : memref<200x40xf32>)
  return
}
