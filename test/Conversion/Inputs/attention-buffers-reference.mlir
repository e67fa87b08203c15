// The reference of attention-buffers.mlir: the softmax written out in ops upstream
// MLIR lowers to LLVM.
func.func @attention_reference(%q: memref<520x64xf32>, %k: memref<200x64xf32>, %v: memref<200x48xf32>,
                               %o: memref<520x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %s = memref.alloc() : memref<520x200xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<520x200xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : memref<520x64xf32>, memref<200x64xf32>) outs(%s : memref<520x200xf32>)
  %max = memref.alloc() : memref<520xf32>
  %sum = memref.alloc() : memref<520xf32>
  linalg.fill ins(%lowest : f32) outs(%max : memref<520xf32>)
  linalg.fill ins(%zero : f32) outs(%sum : memref<520xf32>)
  linalg.reduce ins(%s : memref<520x200xf32>) outs(%max : memref<520xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%max : memref<520xf32>) outs(%s : memref<520x200xf32>) {
  ^bb0(%m: f32, %x: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  }
  linalg.reduce ins(%s : memref<520x200xf32>) outs(%sum : memref<520xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%sum : memref<520xf32>) outs(%s : memref<520x200xf32>) {
  ^bb0(%t: f32, %x: f32):
    %d = arith.divf %x, %t : f32
    linalg.yield %d : f32
  }
  linalg.fill ins(%zero : f32) outs(%o : memref<520x48xf32>)
  linalg.matmul ins(%s, %v : memref<520x200xf32>, memref<200x48xf32>) outs(%o : memref<520x48xf32>)
  return
}
