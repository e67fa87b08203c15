// RUN: walrus-opt %s -split-input-file -import-tosa | FileCheck %s
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg=lnc-size=2 | FileCheck %s --check-prefix=BIR
// RUN: %python %utils/linalg_oracle.py %s --func classifier --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func mobile_block --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE-TOL
// RUN: %python %utils/linalg_oracle.py %s --func quantized_matmul --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: walrus-opt %s -split-input-file -import-tosa -normalize-linalg | FileCheck %s --check-prefix=NORMAL

// A TOSA module (the form TFLite and torch-mlir's TOSA path hand over):
// upstream's TOSA pipelines lower it to linalg named ops, generics,
// tensor reshapes and arith constants, which the rest of
// -walrus-from-linalg reads. The oracle lowers it for the CPU the same way.

// ORACLE: oracle: identical
// ORACLE-TOL: oracle: {{identical|within tolerance}}

// CHECK-LABEL: func.func @classifier
// CHECK-NOT:     tosa.
// CHECK:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         linalg.conv_2d_nhwc_fhwc
// CHECK:         linalg.pooling_nhwc_max {{.*}} strides = dense<2>
// CHECK:         tensor.collapse_shape
// CHECK:         linalg.batch_matmul
// CHECK:         linalg.reduce
// CHECK:         math.exp
// CHECK:         linalg.reduce
// CHECK-NOT:     tosa.

// BIR-LABEL: bir.kernel @classifier_kernel
// BIR:         bir.matmult
// BIR:         bir.tensor_reduce max
// BIR:         bir.activation exp

func.func @classifier(%x: tensor<1x8x8x4xf32>) -> tensor<1x1x10xf32> {
  %w = "tosa.const"() <{values = dense<0.125> : tensor<8x3x3x4xf32>}> : () -> tensor<8x3x3x4xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<8xf32>}> : () -> tensor<8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %conv = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  %relu = tosa.clamp %conv {max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %pool = tosa.max_pool2d %relu {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>) -> tensor<1x4x4x8xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.reshape %pool, %shape : (tensor<1x4x4x8xf32>, !tosa.shape<3>) -> tensor<1x1x128xf32>
  %fw = "tosa.const"() <{values = dense<0.01> : tensor<1x128x10xf32>}> : () -> tensor<1x128x10xf32>
  %fc = tosa.matmul %flat, %fw, %zp, %zp : (tensor<1x1x128xf32>, tensor<1x128x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
  %fb = "tosa.const"() <{values = dense<0.1> : tensor<1x1x10xf32>}> : () -> tensor<1x1x10xf32>
  %logits = tosa.add %fc, %fb : (tensor<1x1x10xf32>, tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %max = tosa.reduce_max %logits {axis = 2 : i32} : (tensor<1x1x10xf32>) -> tensor<1x1x1xf32>
  %shifted = tosa.sub %logits, %max : (tensor<1x1x10xf32>, tensor<1x1x1xf32>) -> tensor<1x1x10xf32>
  %exp = tosa.exp %shifted : (tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<1x1x10xf32>) -> tensor<1x1x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %probs = tosa.mul %exp, %inv, %s0 : (tensor<1x1x10xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x10xf32>
  return %probs : tensor<1x1x10xf32>
}

// -----

// A MobileNet-style block: depthwise convolution, ReLU6 (clamp), a 1x1
// convolution, swish (sigmoid, mul), concat, a global average pool, a
// fully connected layer and tanh.

// CHECK-LABEL: func.func @mobile_block
// CHECK-NOT:     tosa.
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwcm
// CHECK:         linalg.conv_2d_nhwc_fhwc
// CHECK:         tensor.insert_slice
// CHECK:         linalg.pooling_nhwc_sum
// CHECK:         linalg.batch_matmul
// CHECK-NOT:     tosa.
func.func @mobile_block(%x: tensor<1x16x16x8xf32>) -> tensor<1x10xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %dw = "tosa.const"() <{values = dense<0.25> : tensor<3x3x8x1xf32>}> : () -> tensor<3x3x8x1xf32>
  %db = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %d = tosa.depthwise_conv2d %x, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x8xf32>
  %r6 = tosa.clamp %d {max_val = 6.0 : f32, min_val = 0.0 : f32} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  %pw = "tosa.const"() <{values = dense<0.125> : tensor<16x1x1x8xf32>}> : () -> tensor<16x1x1x8xf32>
  %pb = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %p = tosa.conv2d %r6, %pw, %pb, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x16xf32>
  %sig = tosa.sigmoid %p : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %swish = tosa.mul %p, %sig, %s0 : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>, tensor<1xi8>) -> tensor<1x16x16x16xf32>
  %cat = tosa.concat %swish, %p {axis = 3 : i32} : (tensor<1x16x16x16xf32>, tensor<1x16x16x16xf32>) -> tensor<1x16x16x32xf32>
  %avg = tosa.avg_pool2d %cat, %zp, %zp {acc_type = f32, kernel = array<i64: 16, 16>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x32xf32>
  %shape = tosa.const_shape {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.reshape %avg, %shape : (tensor<1x1x1x32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
  %fw = "tosa.const"() <{values = dense<0.03> : tensor<1x32x10xf32>}> : () -> tensor<1x32x10xf32>
  %fc = tosa.matmul %flat, %fw, %zp, %zp : (tensor<1x1x32xf32>, tensor<1x32x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
  %t = tosa.tanh %fc : (tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %shape2 = tosa.const_shape {values = dense<[1, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %out = tosa.reshape %t, %shape2 : (tensor<1x1x10xf32>, !tosa.shape<2>) -> tensor<1x10xf32>
  return %out : tensor<1x10xf32>
}

// -----

// A module without TOSA ops is left exactly as it is: no canonicalization
// (the unused constant stays).

// CHECK-LABEL: func.func @no_tosa
// CHECK-NEXT:    arith.constant 7 : index
// CHECK-NEXT:    return %arg0
func.func @no_tosa(%x: tensor<4xf32>) -> tensor<4xf32> {
  %unused = arith.constant 7 : index
  return %x : tensor<4xf32>
}

// -----

// TFLite's quantized matmul: i8 x i8 into i32, then tosa.rescale to i8.
// upstream's tosa-to-arith (include-apply-rescale) writes the rescale as i64
// arithmetic and shifts by constants; -normalize-linalg makes the right
// shift a floor division by 2^33 (upstream's expansion: divsi and a
// correction), and the truncations the range analysis bounds convert as
// they are (the clamp to [-128, 127] first).
// NORMAL-LABEL: func.func @quantized_matmul
// NORMAL:         linalg.batch_matmul
// NORMAL:         ^bb0(%[[IN:.*]]: i32, %{{.*}}: i8):
// NORMAL-NEXT:      %[[WIDE:.*]] = arith.extsi %[[IN]] : i32 to i64
// NORMAL-NEXT:      %[[SCALED:.*]] = arith.muli %[[WIDE]], %c1395864371_i64 : i64
// NORMAL-NEXT:      %[[ROUNDED:.*]] = arith.addi %[[SCALED]], %c4294967296_i64 : i64
// NORMAL-NEXT:      %[[Q:.*]] = arith.divsi %[[ROUNDED]], %c8589934592_i64 : i64
// NORMAL:           arith.select
// NORMAL-NEXT:      %[[NARROW:.*]] = arith.trunci %{{.*}} : i64 to i32
// NORMAL:           %[[CLAMPED:.*]] = arith.minsi
// NORMAL-NEXT:      %[[OUT:.*]] = arith.trunci %[[CLAMPED]] : i32 to i8
// NORMAL-NEXT:      linalg.yield %[[OUT]] : i8
// NORMAL-NOT:     arith.shrsi
// BIR-LABEL: bir.kernel @quantized_matmul_kernel
// BIR:         bir.tensor_scalar divide %{{.*}} : !bir.sbuf<{{.*}}xi64>, !bir.sbuf<{{.*}}xi64>
// BIR:         bir.activation identity %{{.*}} : !bir.sbuf<{{.*}}xi8>, !bir.sbuf<{{.*}}xi32>
func.func @quantized_matmul(%a: tensor<1x16x64xi8>, %b: tensor<1x64x32xi8>) -> tensor<1x16x32xi8> {
  %zp8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %zp8, %zp8 : (tensor<1x16x64xi8>, tensor<1x64x32xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x16x32xi32>
  %m = "tosa.const"() <{values = dense<1395864371> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<33> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %acc, %m, %s, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, scale32 = true} : (tensor<1x16x32xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x16x32xi8>
  return %r : tensor<1x16x32xi8>
}
