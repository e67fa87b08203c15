// Every bundled example goes through the whole pipeline, the SPMD verifier
// and the allocation verifier: two cores each, masks pruned per core, then
// the virtual-node split, the shrink and the allocation on each core.
//
// RUN: walrus-opt %examples/tiled-matmul.mlir -expand-replication -lnc-split -lnc-verify -vn-split -shrink-dn -sb-alloc -sb-alloc-verify -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=MATMUL
// RUN: walrus-opt %examples/rmsnorm.mlir -expand-replication -lnc-split -lnc-verify -vn-split -shrink-dn -sb-alloc -sb-alloc-verify -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=RMSNORM
// RUN: walrus-opt %examples/softmax.mlir -expand-replication -lnc-split -lnc-verify -vn-split -shrink-dn -sb-alloc -sb-alloc-verify -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=SOFTMAX
// RUN: walrus-opt %examples/flash-attention.mlir -expand-replication -lnc-split -lnc-verify -vn-split -shrink-dn -sb-alloc -sb-alloc-verify -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=FLASH
// RUN: walrus-opt %examples/conv1d.mlir -expand-replication -lnc-split -lnc-verify -vn-split -shrink-dn -sb-alloc -sb-alloc-verify -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=CONV
// RUN: walrus-opt %examples/conv1d.mlir -lnc-verify=mode=symbolic -expand-replication -lnc-split -lnc-verify=mode=concretized | FileCheck %s --check-prefix=CONV-IR
// RUN: not walrus-opt %examples/conv1d.mlir -lnc-split -expand-replication 2>&1 | FileCheck %s --check-prefix=ORDER

// shrink-dn collapses the 4-block K tiles to one live block each:
// 256 + 1024 + 1024 B per partition instead of 6144.
// MATMUL: module @nc00: core 0 of 2
// MATMUL-NEXT: func @main: 7 memlocs, 6 instructions (1 loops, 0 masked)
// MATMUL-NEXT: sbuf: 3 tensor(s), 2304 B/partition declared (1.0% of 229376), placed: peak 1280 B/partition
// MATMUL: module @nc01: core 1 of 2
// MATMUL-NEXT: func @main: 7 memlocs, 6 instructions (1 loops, 0 masked)

// The partial last tile runs on core 0 only, where sb-alloc's memloc_split
// gives the tiles reused for it tensors of their own. Peak = lower bound.
// RMSNORM: module @nc00: core 0 of 2
// RMSNORM-NEXT: func @main: 12 memlocs, 19 instructions (0 loops, 0 masked)
// RMSNORM-NEXT: sbuf: 9 tensor(s), 18440 B/partition declared (8.0% of 229376), placed: peak 8196 B/partition
// RMSNORM: module @nc01: core 1 of 2
// RMSNORM-NEXT: func @main: 8 memlocs, 10 instructions (0 loops, 0 masked)
// RMSNORM-NEXT: sbuf: 5 tensor(s), 10244 B/partition declared (4.5% of 229376), placed: peak 8196 B/partition

// The 128 x 2 statistics tile becomes two 128 x 1 pieces on each core.
// SOFTMAX: module @nc00: core 0 of 2
// SOFTMAX-NEXT: func @main: 8 memlocs, 9 instructions (1 loops, 0 masked)
// SOFTMAX-NEXT: sbuf: 6 tensor(s), 12296 B/partition declared
// SOFTMAX: module @nc01: core 1 of 2
// SOFTMAX-NEXT: func @main: 8 memlocs, 9 instructions (1 loops, 0 masked)

// FLASH: module @nc00: core 0 of 2
// FLASH-NEXT: func @main: 15 memlocs, 15 instructions (3 loops, 0 masked)
// FLASH-NEXT: sbuf: 9 tensor(s), 21256 B/partition declared (9.3% of 229376), placed: peak 16384 B/partition
// FLASH: module @nc01: core 1 of 2

// Replication is expanded once, symbolically: both cores get the grown
// IFMAP and the same three copies, and only the DRAM offsets differ.
// CONV: module @nc00: core 0 of 2
// CONV-NEXT: func @main: 7 memlocs, 9 instructions (0 loops, 0 masked)
// CONV: instructions: dma=3 matmult=1 memset=1 tensor_copy=4
// CONV: module @nc01: core 1 of 2
// CONV-NEXT: func @main: 7 memlocs, 9 instructions (0 loops, 0 masked)
// CONV: instructions: dma=3 matmult=1 memset=1 tensor_copy=4

// CONV-IR: module @nc00
// CONV-IR: %ifmap = bir.memloc "ifmap" internal : !bir.sbuf<128x515xbf16>
// CONV-IR: bir.dma %ifmap[{{.*}}], %x[#bir.ap<0, {{\[\[}}1027, 32], [1, 515]]>]
// CONV-IR-COUNT-3: bir.tensor_copy %ifmap
// CONV-IR: bir.dma %out[#bir.ap<0, {{\[\[}}1024, 128], [1, 512]]>]
// CONV-IR: module @nc01
// CONV-IR: %ifmap = bir.memloc "ifmap" internal : !bir.sbuf<128x515xbf16>
// CONV-IR: bir.dma %ifmap[{{.*}}], %x[#bir.ap<512, {{\[\[}}1027, 32], [1, 515]]>]
// CONV-IR-COUNT-3: bir.tensor_copy %ifmap
// CONV-IR: bir.dma %out[#bir.ap<512, {{\[\[}}1024, 128], [1, 512]]>]

// ORDER: error: expand-replication must run before lnc-split: this module is already concretized for core 0

// RUN: walrus-opt %examples/softmax.mlir -lnc-split -vn-split | FileCheck %s --check-prefix=SOFTMAX-IR
// SOFTMAX-IR: module @nc00
// SOFTMAX-IR: %stats_VN_0 = bir.memloc "stats_VN_0" internal : !bir.sbuf<128x1xf32>
// SOFTMAX-IR: %stats_VN_1 = bir.memloc "stats_VN_1" internal : !bir.sbuf<128x1xf32>
// SOFTMAX-IR: bir.tensor_reduce max %stats_VN_0[#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>]
// SOFTMAX-IR: bir.tensor_tensor subtract %shifted[{{.*}}], %xt[{{.*}}], %stats_VN_0[#bir.ap<0, {{\[\[}}1, 128], [0, 1024]]>]
// SOFTMAX-IR: bir.tensor_reduce add %stats_VN_1[#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>]

// The registered pipeline does the same job in one flag.
// RUN: walrus-opt %examples/softmax.mlir -walrus-pipeline -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=PIPELINE
// RUN: walrus-run %examples/softmax.mlir --after=walrus-pipeline | FileCheck %s --check-prefix=PIPELINE-OUTPUTS
// PIPELINE: module @nc00: core 0 of 2
// PIPELINE-NEXT: func @main: 8 memlocs, 9 instructions (1 loops, 0 masked)
// PIPELINE: module @nc01: core 1 of 2
// PIPELINE-OUTPUTS: identical: 1 output(s), 1048576 bytes

// Two streaming stages through one staging tile: memloc_split gives the PV
// loop its own clone, and the softmax between the loops uses the stage's
// bytes (peak 12288 B per partition; 13312 with one value across both).
// RUN: walrus-opt %examples/two-stage-attention.mlir -walrus-pipeline | FileCheck %s --check-prefix=STAGES-IR
// RUN: walrus-opt %examples/two-stage-attention.mlir -walrus-pipeline -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=STAGES
// RUN: walrus-run %examples/two-stage-attention.mlir --after=walrus-pipeline | FileCheck %s --check-prefix=STAGES-OUTPUTS
// STAGES-IR: %stage_S1 = bir.memloc "stage_S1" internal address
// STAGES-IR: bir.loop 0 to 16 step 1 {
// STAGES-IR-NEXT: bir.dma %stage_S1[
// STAGES: module @nc00: core 0 of 2
// STAGES: placed: peak 12288 B/partition
// STAGES: module @nc01: core 1 of 2
// STAGES: placed: peak 12288 B/partition
// STAGES-OUTPUTS: identical: 1 output(s), 65536 bytes
