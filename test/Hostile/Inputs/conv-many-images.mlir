// A convolution over 2^32 images: one bir.loop when lowered, 7.6 billion
// executed instructions.
func.func @conv(%x: tensor<4294967296x1x8x8xf32>, %w: tensor<1x1x3x3xf32>, %o: tensor<4294967296x1x6x6xf32>) -> tensor<4294967296x1x6x6xf32> {
  %r = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<4294967296x1x8x8xf32>, tensor<1x1x3x3xf32>) outs(%o : tensor<4294967296x1x6x6xf32>) -> tensor<4294967296x1x6x6xf32>
  return %r : tensor<4294967296x1x6x6xf32>
}
