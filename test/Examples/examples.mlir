// Every bundled example parses, verifies and round-trips, and its summary
// matches the kernel it models.
//
// RUN: walrus-opt %examples/tiled-matmul.mlir --verify-roundtrip -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=MATMUL
// RUN: walrus-opt %examples/rmsnorm.mlir --verify-roundtrip -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=RMSNORM
// RUN: walrus-opt %examples/softmax.mlir --verify-roundtrip -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=SOFTMAX
// RUN: walrus-opt %examples/flash-attention.mlir --verify-roundtrip -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=FLASH
// RUN: walrus-opt %examples/tiled-matmul.mlir --mlir-print-op-generic | walrus-opt --verify-roundtrip -o /dev/null
// RUN: walrus-opt %examples/flash-attention.mlir --emit-bytecode | walrus-opt -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=FLASH

// MATMUL: module @nc_symbolic: symbolic over 2 core(s), target trn2
// MATMUL-NEXT: func @main: 7 memlocs, 6 instructions (1 loops, 0 masked)
// MATMUL-NEXT: sbuf: 3 tensor(s), 6144 B/partition declared
// MATMUL-NEXT: psum: 1 tensor(s), 2048 B/partition declared
// MATMUL-NEXT: dram: 3 tensor(s), 1048576 B
// MATMUL-NEXT: instructions: dma=3 matmult=1 memset=1 tensor_copy=1

// RMSNORM: func @main: 8 memlocs, 19 instructions (0 loops, 9 masked)
// RMSNORM: instructions: activation=4 dma=5 tensor_reduce=2 tensor_scalar=4 tensor_tensor=4

// SOFTMAX: func @main: 7 memlocs, 9 instructions (1 loops, 0 masked)
// SOFTMAX: instructions: activation=2 core_barrier=1 dma=2 tensor_reduce=2 tensor_tensor=2

// FLASH: func @main: 15 memlocs, 15 instructions (3 loops, 0 masked)
// FLASH: psum: 2 tensor(s), 8704 B/partition declared (53.1% of 16384)
// FLASH: instructions: activation=2 dma=4 matmult=2 memset=1 tensor_copy=1 tensor_reduce=2 tensor_tensor=2 transpose=1
