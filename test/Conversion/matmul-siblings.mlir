// RUN: walrus-opt %s -split-input-file -fold-into-matmul -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir=auto-cast=none | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func swiglu --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-4 --scale-tol 2e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func swiglu --bin %walrus_tools --lnc-size 1 --pipeline --lowering-options "matmul-buffers=1 auto-cast=none" --atol 1e-4 --rtol 1e-4 --scale-tol 2e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func swiglu --bin %walrus_tools --lnc-size 3 --pipeline --lowering-options matmul-buffers=3 --bf16-exact-inputs --atol 1e-4 --rtol 1e-4 --scale-tol 2e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func prefetch_oracle --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-4 --scale-tol 2e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func shared_products --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-4 --scale-tol 2e-5 | FileCheck %s --check-prefix=ORACLE

// Sibling matmuls: the gate and up projections of a SwiGLU MLP read the
// same activations, and one elementwise op reads both products. One nest
// computes both: per row tile A^T is loaded and turned once, each B has
// its own tiles and each product its own block, and the epilogue reads
// both blocks: neither product goes to DRAM. k = 1100: a group of 8 k tiles
// and one of a tile and 76 rows; 640 columns: a PSUM tile of 512 and one
// of 128; 300 rows: two full row tiles and 44, over the cores. The
// products reach about 100 and MLIR sums them in another order: the
// tolerance allows 2e-5 of the largest magnitude (two nests, one per
// matmul, differ from MLIR by the same).
// ORACLE: oracle: {{identical|within tolerance}}

// CHECK-LABEL: bir.kernel @swiglu_kernel
// CHECK:       %[[X:.*]] = bir.memloc "swiglu_arg0" input
// CHECK:       %[[W1:.*]] = bir.memloc "swiglu_arg1" input
// CHECK:       %[[W3:.*]] = bir.memloc "swiglu_arg2" input
// CHECK:       %[[Y:.*]] = bir.memloc "swiglu_result0" output
// CHECK-NOT:   bir.memloc {{.*}} : !bir.dram
// CHECK:       %[[B1:.*]] = bir.memloc "mm_b" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x5120xf32>
// CHECK-NEXT:  %[[B3:.*]] = bir.memloc "mm_b_1" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x5120xf32>
// CHECK:       %[[C1:.*]] = bir.memloc "mm_c" internal : !bir.sbuf<128x1920xf32>
// CHECK-NEXT:  %[[C3:.*]] = bir.memloc "mm_c_1" internal : !bir.sbuf<128x1920xf32>
// Each B's first group, then the first row tile's A and its 8 turns.
// CHECK:       bir.dma %[[B1]][{{.*}}], %[[W1]][
// CHECK-NEXT:  bir.dma %[[B3]][{{.*}}], %[[W3]][
// CHECK-NEXT:  bir.dma %[[A:[a-z_0-9]+]][{{.*}}], %[[X]][#bir.ap<0,
// CHECK-COUNT-8: bir.transpose %[[S:[a-z_0-9]+]][{{.*}}], %[[A]]
// The row tile's products, 8 matmults per PSUM tile from the one A^T:
// into C1's block, then C3's; then the next row tile's A.
// CHECK-COUNT-8: bir.matmult %{{.*}}, %[[S]][{{.*}}], %[[B1]]
// CHECK-NEXT:  bir.tensor_copy %[[C1]][#bir.ap<0, {{\[\[}}1920, 128], [1, 512]]>]
// CHECK-COUNT-8: bir.matmult %{{.*}}, %[[S]][{{.*}}], %[[B1]]
// CHECK-NEXT:  bir.tensor_copy %[[C1]][#bir.ap<512, {{\[\[}}1920, 128], [1, 128]]>]
// CHECK-COUNT-8: bir.matmult %{{.*}}, %[[S]][{{.*}}], %[[B3]]
// CHECK-NEXT:  bir.tensor_copy %[[C3]][#bir.ap<0, {{\[\[}}1920, 128], [1, 512]]>]
// CHECK-COUNT-8: bir.matmult %{{.*}}, %[[S]][{{.*}}], %[[B3]]
// CHECK-NEXT:  bir.tensor_copy %[[C3]][#bir.ap<512, {{\[\[}}1920, 128], [1, 128]]>]
// CHECK-NEXT:  bir.dma %{{.*}}, %[[X]][#bir.ap<140800,
// The epilogue reads both blocks: silu of the gate, times the up.
// CHECK:       bir.activation silu %[[T:[a-z_0-9]+]][{{.*}}], %[[C1]][#bir.ap<0, {{\[\[}}1920, 128], [1, 512]]>]
// CHECK-NEXT:  bir.tensor_tensor multiply %[[R:[a-z_0-9]+]][{{.*}}], %[[T]][{{.*}}], %[[C3]][#bir.ap<0, {{\[\[}}1920, 128], [1, 512]]>]
// CHECK-NEXT:  bir.dma %[[Y]][{{.*}}], %[[R]]
func.func @swiglu(%x: tensor<300x1100xf32>, %w1: tensor<1100x640xf32>, %w3: tensor<1100x640xf32>) -> tensor<300x640xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<300x640xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<300x640xf32>) -> tensor<300x640xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<300x1100xf32>, tensor<1100x640xf32>) outs(%c1 : tensor<300x640xf32>) -> tensor<300x640xf32>
  %e3 = tensor.empty() : tensor<300x640xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<300x640xf32>) -> tensor<300x640xf32>
  %h3 = linalg.matmul ins(%x, %w3 : tensor<300x1100xf32>, tensor<1100x640xf32>) outs(%c3 : tensor<300x640xf32>) -> tensor<300x640xf32>
  %e = tensor.empty() : tensor<300x640xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1, %h3 : tensor<300x640xf32>, tensor<300x640xf32>) outs(%e : tensor<300x640xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %ex = math.exp %n : f32
    %d = arith.addf %one, %ex : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<300x640xf32>
  return %y : tensor<300x640xf32>
}

// -----

// Blocks of columns: with 1024 rows the blocks are 512 columns wide, four
// full ones and one of 152. The last k group of each block loads the next
// block's first group of both B's (a part after each row tile's A), into
// the buffers the last group does not use, so the tensor engine does not
// wait for them at the block's start: block 0 loads block 1's (column
// 512), a loop over blocks 1 and 2 loads blocks 2 and 3's, block 3 loads
// the partial block's. Only block 0 loads its own first B.
// CHECK-LABEL: bir.kernel @prefetch_kernel
// CHECK:       %[[W1:.*]] = bir.memloc "prefetch_arg1" input
// CHECK:       %[[B1:.*]] = bir.memloc "mm_b" internal {bir.rotating = 0 : i64}
// CHECK:       bir.dma %[[B1]][{{.*}}], %[[W1]][#bir.ap<0, {{\[\[}}2200, 128], [281600, 8], [1, 512]]>]
// CHECK-NOT:   bir.loop
// CHECK:       bir.dma %[[B1]][#bir.ap<0, {{\[\[}}4096, 128], [1, 512]]>], %[[W1]][#bir.ap<512, {{\[\[}}2200, 128], [1, 512]]>]
// CHECK:       bir.dma %[[B1]][#bir.ap<3584, {{\[\[}}4096, 128], [1, 512]]>], %[[W1]][#bir.ap<1971712, {{\[\[}}2200, 128], [1, 512]]>]
// CHECK:       bir.loop 0 to 2 step 1 {
// CHECK-NOT:   bir.dma %[[B1]][{{.*}}], %[[W1]][{{.*}}[281600, 8]
// CHECK:       bir.dma %[[B1]][#bir.ap<0, {{\[\[}}4096, 128], [1, 512]]>], %[[W1]][#bir.sap<(d0)[s0] -> (d0 * 512 + 1024), {{\[\[}}2200, 128], [1, 512]]>]
// CHECK:       }
// CHECK-NOT:   bir.dma %[[B1]][{{.*}}], %[[W1]][{{.*}}[281600, 8]
// CHECK:       bir.dma %[[B1]][#bir.ap<0, {{\[\[}}4096, 128], [1, 152]]>], %[[W1]][#bir.ap<2048, {{\[\[}}2200, 128], [1, 152]]>]
// CHECK-NOT:   bir.dma %[[B1]][{{.*}}], %[[W1]][{{.*}}[281600, 8]
// CHECK:       bir.dma %prefetch_result0
func.func @prefetch(%x: tensor<1024x1100xf32>, %w1: tensor<1100x2200xf32>, %w3: tensor<1100x2200xf32>) -> tensor<1024x2200xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<1024x2200xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024x2200xf32>) -> tensor<1024x2200xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<1024x1100xf32>, tensor<1100x2200xf32>) outs(%c1 : tensor<1024x2200xf32>) -> tensor<1024x2200xf32>
  %e3 = tensor.empty() : tensor<1024x2200xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1024x2200xf32>) -> tensor<1024x2200xf32>
  %h3 = linalg.matmul ins(%x, %w3 : tensor<1024x1100xf32>, tensor<1100x2200xf32>) outs(%c3 : tensor<1024x2200xf32>) -> tensor<1024x2200xf32>
  %e = tensor.empty() : tensor<1024x2200xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1, %h3 : tensor<1024x2200xf32>, tensor<1024x2200xf32>) outs(%e : tensor<1024x2200xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %ex = math.exp %n : f32
    %d = arith.addf %one, %ex : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1024x2200xf32>
  return %y : tensor<1024x2200xf32>
}

// -----

// Against MLIR with 256 rows: blocks of 1024 columns, two full and one of
// 152, each of the last two loaded by the block before.
func.func @prefetch_oracle(%x: tensor<256x1100xf32>, %w1: tensor<1100x2200xf32>, %w3: tensor<1100x2200xf32>) -> tensor<256x2200xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<256x2200xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256x2200xf32>) -> tensor<256x2200xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<256x1100xf32>, tensor<1100x2200xf32>) outs(%c1 : tensor<256x2200xf32>) -> tensor<256x2200xf32>
  %e3 = tensor.empty() : tensor<256x2200xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<256x2200xf32>) -> tensor<256x2200xf32>
  %h3 = linalg.matmul ins(%x, %w3 : tensor<256x1100xf32>, tensor<1100x2200xf32>) outs(%c3 : tensor<256x2200xf32>) -> tensor<256x2200xf32>
  %e = tensor.empty() : tensor<256x2200xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1, %h3 : tensor<256x2200xf32>, tensor<256x2200xf32>) outs(%e : tensor<256x2200xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %ex = math.exp %n : f32
    %d = arith.addf %one, %ex : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<256x2200xf32>
  return %y : tensor<256x2200xf32>
}

// -----

// A product something else reads too (returned here) must reach DRAM:
// the matmuls are two nests, the gate's stored.
// CHECK-LABEL: bir.kernel @shared_products_kernel
// CHECK:       %[[H1:.*]] = bir.memloc "shared_products_result0" output
// CHECK:       bir.dma %[[H1]]
// CHECK:       bir.activation silu
func.func @shared_products(%x: tensor<130x200xf32>, %w1: tensor<200x96xf32>, %w3: tensor<200x96xf32>) -> (tensor<130x96xf32>, tensor<130x96xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e1 = tensor.empty() : tensor<130x96xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<130x96xf32>) -> tensor<130x96xf32>
  %h1 = linalg.matmul ins(%x, %w1 : tensor<130x200xf32>, tensor<200x96xf32>) outs(%c1 : tensor<130x96xf32>) -> tensor<130x96xf32>
  %e3 = tensor.empty() : tensor<130x96xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<130x96xf32>) -> tensor<130x96xf32>
  %h3 = linalg.matmul ins(%x, %w3 : tensor<130x200xf32>, tensor<200x96xf32>) outs(%c3 : tensor<130x96xf32>) -> tensor<130x96xf32>
  %e = tensor.empty() : tensor<130x96xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h1, %h3 : tensor<130x96xf32>, tensor<130x96xf32>) outs(%e : tensor<130x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %ex = math.exp %n : f32
    %d = arith.addf %one, %ex : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<130x96xf32>
  return %h1, %y : tensor<130x96xf32>, tensor<130x96xf32>
}
