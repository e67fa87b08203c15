// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_nchw --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_nhwc --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_wide --lnc-size 4 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func bmm_broadcast --lnc-size 1 --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_small_map --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_rows --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func patch_embedding --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_weight_stationary --lnc-size 3 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_rows --lnc-size 1 --lowering-options matmul-buffers=1 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv_long_chain --lnc-size 2 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir | FileCheck %s

// Contractions on the tensor engine (docs/LinalgToBir.md): convolutions
// NCHW (stride 2, dilation 2 along the columns) and NHWC, one with 130
// channels (two contraction tiles) and 140 output channels (two PSUM
// partition tiles), and a bf16 batch matmul whose weight is broadcast
// over the batch. Within f32 accumulation-order tolerance of MLIR's CPU
// execution.

// ORACLE: oracle: {{identical|within tolerance}}

// The NCHW convolution: per image (a loop) and group of 5 output rows,
// the weight's rows come in as one run per output channel (16 partitions
// of 8 x 9 elements) and the input block every tap's window reads as one
// run per channel (8 partitions of 143 elements, rows 156 apart); the 9
// taps are one chain: the tensor engine turns the tap's [f, c] slice of
// the weight rows (step 9) into the stationary [c, f], in two tiles that
// take turns (matmul-buffers), and multiplies the tap's window of the
// block (steps 2 * 13 and 2, from the tap's offset), the first with
// start, the last with stop; the zero fill before it is absorbed (a copy
// out of PSUM, no load).
// CHECK-LABEL: bir.kernel @conv_nchw_kernel
// CHECK:       bir.loop 0 to 2 step 1 {
// CHECK-NEXT:    bir.dma %[[WR:.*]][#bir.ap<0, {{\[\[}}72, 16], [1, 72]]>], %conv_nchw_arg1[#bir.ap<0, {{\[\[}}72, 16], [1, 72]]>]
// CHECK-NEXT:    bir.dma %[[X:.*]][#bir.ap<0, {{\[\[}}143, 8], [1, 143]]>], %conv_nchw_arg0[#bir.sap<(d0)[s0] -> (d0 * 1248 + s0 * 130), {{\[\[}}156, 8], [1, 143]]>]
// CHECK-NEXT:    bir.transpose %[[W0:conv_w]][#bir.ap<0, {{\[\[}}128, 8], [1, 16]]>], %[[WR]][#bir.ap<0, {{\[\[}}72, 16], [9, 8]]>]
// CHECK-NEXT:    bir.matmult %[[ACC:.*]][#bir.ap<0, {{\[\[}}512, 16], [1, 25]]>], %[[W0]][#bir.ap<0, {{\[\[}}128, 8], [1, 16]]>], %[[X]][#bir.ap<0, {{\[\[}}143, 8], [26, 5], [2, 5]]>] start :
// CHECK-NEXT:    bir.transpose %[[W1:conv_w_1]][#bir.ap<0, {{\[\[}}128, 8], [1, 16]]>], %[[WR]][#bir.ap<3, {{\[\[}}72, 16], [9, 8]]>]
// CHECK-NEXT:    bir.matmult %[[ACC]][#bir.ap<0, {{\[\[}}512, 16], [1, 25]]>], %[[W1]][#bir.ap<0, {{\[\[}}128, 8], [1, 16]]>], %[[X]][#bir.ap<13, {{\[\[}}143, 8], [26, 5], [2, 5]]>] :
// CHECK-COUNT-6: bir.matmult %[[ACC]]
// CHECK:         bir.matmult %[[ACC]][#bir.ap<0, {{\[\[}}512, 16], [1, 25]]>], %[[W0]][{{.*}}], %[[X]][#bir.ap<30, {{\[\[}}143, 8], [26, 5], [2, 5]]>] stop :
// CHECK-NEXT:    bir.tensor_copy %[[OUT:.*]][#bir.ap<0, {{\[\[}}25, 16], [1, 25]]>], %[[ACC]][#bir.ap<0, {{\[\[}}512, 16], [1, 25]]>]
// CHECK-NEXT:    bir.dma %conv_nchw_result0[#bir.sap<(d0)[s0] -> (d0 * 400 + s0 * 25), {{\[\[}}25, 16], [5, 5], [1, 5]]>], %[[OUT]]
// CHECK-NEXT:  }

// The NHWC convolution adds to its output (no zero fill): the tile of the
// output is loaded and the product added to it.
// CHECK-LABEL: bir.kernel @conv_nhwc_kernel
// CHECK:       bir.matmult {{.*}} stop :
// CHECK-NEXT:  bir.dma %[[O:.*]][{{.*}}], %conv_nhwc_arg2[
// CHECK-NEXT:  bir.tensor_tensor add %[[O]][{{.*}}], %[[O]][{{.*}}], %{{.*}}[{{.*}}] : !bir.sbuf<{{.*}}>, !bir.sbuf<{{.*}}>, !bir.psum
// CHECK-NEXT:  bir.dma %conv_nhwc_arg2[

// A 7 x 7 feature map (49 outputs per channel) against 64 output
// channels: the input owns fewer elements, but as the stationary operand
// its longest own loop (7 rows) would be too few PSUM partitions, so the
// weight is stationary (its rows staged and turned, c on the partitions;
// f the PSUM partitions) and the input window moves [c, 7, 7]: the tensor
// engine, not the general lowering's per-element loops.
// CHECK-LABEL: bir.kernel @conv_small_map_kernel
// CHECK:       bir.dma %[[WR:.*]][#bir.ap<0, {{\[\[}}144, 64], [1, 144]]>], %conv_small_map_arg1[#bir.ap<0, {{\[\[}}144, 64], [1, 144]]>]
// CHECK-NEXT:  bir.dma %[[X:.*]][#bir.ap<0, {{\[\[}}81, 16], [1, 81]]>], %conv_small_map_arg0[#bir.sap<()[s0] -> (s0 * 63), {{\[\[}}81, 16], [1, 81]]>]
// CHECK-NEXT:  bir.transpose %[[W:.*]][#bir.ap<0, {{\[\[}}128, 16], [1, 64]]>], %[[WR]][#bir.ap<0, {{\[\[}}144, 64], [9, 16]]>]
// CHECK-NEXT:  bir.matmult %{{.*}}[#bir.ap<0, {{\[\[}}512, 64], [1, 49]]>], %[[W]][#bir.ap<0, {{\[\[}}128, 16], [1, 64]]>], %[[X]][#bir.ap<0, {{\[\[}}81, 16], [9, 7], [1, 7]]>] start :
// CHECK-NOT:   bir.tensor_tensor multiply

// A strided convolution over wide rows (149 output columns, stride 2):
// no run covers every tap's window without mostly gaps, so the block
// keeps the output rows apart: per input channel (the outer tap) one run
// of 299 elements per kernel row (the contraction, 3 partitions) and
// output row (3 of them, 600 apart), every column tap's window read from
// it; the blocks of the two channels take turns.
// CHECK-LABEL: bir.kernel @conv_rows_kernel
// CHECK:       bir.dma %[[WR:.*]][#bir.ap<0, {{\[\[}}18, 16], [1, 18]]>], %conv_rows_arg1[#bir.ap<0, {{\[\[}}18, 16], [1, 18]]>]
// CHECK-NEXT:  bir.dma %[[X0:conv_x]][#bir.ap<0, {{\[\[}}897, 3], [299, 3], [1, 299]]>], %conv_rows_arg0[#bir.sap<(d0)[s0] -> (d0 * 1800 + s0 * 1800), {{\[\[}}300, 3], [600, 3], [1, 299]]>]
// CHECK-NEXT:  bir.transpose
// CHECK-NEXT:  bir.matmult %{{.*}}, %{{.*}}, %[[X0]][#bir.ap<0, {{\[\[}}897, 3], [299, 3], [2, 149]]>] start
// CHECK-NEXT:  bir.transpose
// CHECK-NEXT:  bir.matmult %{{.*}}, %{{.*}}, %[[X0]][#bir.ap<1, {{\[\[}}897, 3], [299, 3], [2, 149]]>]
// CHECK-NEXT:  bir.transpose
// CHECK-NEXT:  bir.matmult %{{.*}}, %{{.*}}, %[[X0]][#bir.ap<2, {{\[\[}}897, 3], [299, 3], [2, 149]]>]
// CHECK-NEXT:  bir.dma %[[X1:conv_x_1]][#bir.ap<0, {{\[\[}}897, 3], [299, 3], [1, 299]]>], %conv_rows_arg0[#bir.sap<(d0)[s0] -> (d0 * 1800 + s0 * 1800 + 4800), {{\[\[}}300, 3], [600, 3], [1, 299]]>]

// A 5 x 5 convolution of 384 channels: 3 contraction tiles of 25 taps, a
// chain of 75 terms into one PSUM tile (Wide ResNet's 3 x 3 of 1024
// channels has 72), on the tensor engine: start on the first, stop on the
// 75th. Each output sums 9600 products, in another order than the CPU's:
// within 1e-4 of it.
// CHECK-LABEL: bir.kernel @conv_long_chain_kernel
// CHECK:       bir.matmult %[[CHAIN:[a-z_0-9]+]][{{.*}}] start :
// CHECK-COUNT-73: bir.matmult %[[CHAIN]][{{.*}}] :
// CHECK:       bir.matmult %[[CHAIN]][{{.*}}] stop :
// CHECK-NOT:   bir.tensor_tensor multiply

module {
  func.func @conv_nchw(%x: tensor<2x8x12x13xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<2x16x5x5xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2x16x5x5xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x16x5x5xf32>) -> tensor<2x16x5x5xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x8x12x13xf32>, tensor<16x8x3x3xf32>) outs(%1 : tensor<2x16x5x5xf32>) -> tensor<2x16x5x5xf32>
    return %2 : tensor<2x16x5x5xf32>
  }
  func.func @conv_nhwc(%x: tensor<1x10x10x16xf32>, %w: tensor<3x3x16x24xf32>, %b: tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32> {
    %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x24xf32>) outs(%b : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
    return %2 : tensor<1x8x8x24xf32>
  }
  func.func @conv_wide(%x: tensor<1x130x3x40xf32>, %w: tensor<140x130x1x3xf32>) -> tensor<1x140x3x38xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x140x3x38xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x140x3x38xf32>) -> tensor<1x140x3x38xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x130x3x40xf32>, tensor<140x130x1x3xf32>) outs(%1 : tensor<1x140x3x38xf32>) -> tensor<1x140x3x38xf32>
    return %2 : tensor<1x140x3x38xf32>
  }
  func.func @conv_small_map(%x: tensor<1x16x9x9xf32>, %w: tensor<64x16x3x3xf32>) -> tensor<1x64x7x7xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x64x7x7xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x9x9xf32>, tensor<64x16x3x3xf32>) outs(%f : tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
    return %c : tensor<1x64x7x7xf32>
  }
  func.func @conv_rows(%x: tensor<1x2x16x300xf32>, %w: tensor<16x2x3x3xf32>) -> tensor<1x16x7x149xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x7x149xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x7x149xf32>) -> tensor<1x16x7x149xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x16x300xf32>, tensor<16x2x3x3xf32>) outs(%f : tensor<1x16x7x149xf32>) -> tensor<1x16x7x149xf32>
    return %c : tensor<1x16x7x149xf32>
  }
  func.func @patch_embedding(%x: tensor<1x3x32x32xf32>, %w: tensor<64x3x8x8xf32>) -> tensor<1x64x4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x64x4x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<8> : vector<2xi64>} ins(%x, %w : tensor<1x3x32x32xf32>, tensor<64x3x8x8xf32>) outs(%f : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
    return %c : tensor<1x64x4x4xf32>
  }
  func.func @conv_weight_stationary(%x: tensor<1x8x14x14xf32>, %w: tensor<160x8x3x3xf32>) -> tensor<1x160x12x12xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x160x12x12xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x160x12x12xf32>) -> tensor<1x160x12x12xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x8x14x14xf32>, tensor<160x8x3x3xf32>) outs(%f : tensor<1x160x12x12xf32>) -> tensor<1x160x12x12xf32>
    return %c : tensor<1x160x12x12xf32>
  }
  func.func @bmm_broadcast(%a: tensor<3x40x24xbf16>, %w: tensor<24x36xbf16>) -> tensor<3x40x36xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<3x40x36xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x40x36xf32>) -> tensor<3x40x36xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %w : tensor<3x40x24xbf16>, tensor<24x36xbf16>) outs(%1 : tensor<3x40x36xf32>) {
    ^bb0(%in: bf16, %in_0: bf16, %out: f32):
      %3 = arith.extf %in : bf16 to f32
      %4 = arith.extf %in_0 : bf16 to f32
      %5 = arith.mulf %3, %4 : f32
      %6 = arith.addf %out, %5 : f32
      linalg.yield %6 : f32
    } -> tensor<3x40x36xf32>
    return %2 : tensor<3x40x36xf32>
  }
  func.func @conv_long_chain(%x: tensor<1x384x8x8xf32>, %w: tensor<16x384x5x5xf32>) -> tensor<1x16x4x4xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x16x4x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
    %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x384x8x8xf32>, tensor<16x384x5x5xf32>) outs(%f : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
    return %c : tensor<1x16x4x4xf32>
  }
}
