// Every bundled example computes the same bytes before and after the whole
// pipeline (-walrus-pipeline), on seeded inputs.
//
// RUN: walrus-run %examples/tiled-matmul.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/rmsnorm.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/softmax.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/flash-attention.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/conv1d.mlir --after=walrus-pipeline | FileCheck %s
// RUN: walrus-run %examples/conv1d.mlir --seed=7 --after=walrus-pipeline | FileCheck %s

// CHECK: identical: {{[1-9][0-9]*}} output(s)
