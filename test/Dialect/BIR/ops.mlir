// RUN: walrus-opt %s --verify-roundtrip | FileCheck %s
// RUN: walrus-opt %s --mlir-print-op-generic | walrus-opt | FileCheck %s

// CHECK-LABEL: module @nc_symbolic
// CHECK-SAME: bir.lnc_size = 2 : i64
// CHECK-SAME: bir.target = #bir.target<"trn1">
module @nc_symbolic attributes {bir.lnc_size = 2 : i64,
                                bir.target = #bir.target<"trn1">} {
  // CHECK-LABEL: bir.func @main
  bir.func @main {
    // CHECK: %in = bir.memloc "in" input : !bir.dram<256x512xbf16>
    %in = bir.memloc "in" input : !bir.dram<256x512xbf16>
    // CHECK: %out = bir.memloc "out" output : !bir.dram<256x512xf32>
    %out = bir.memloc "out" output : !bir.dram<256x512xf32>
    // CHECK: %t = bir.memloc "t" internal set "tiles" : !bir.sbuf<128x512xbf16>
    %t = bir.memloc "t" internal set "tiles" : !bir.sbuf<128x512xbf16>
    // CHECK: %w = bir.memloc "w" internal address 1024 base_partition 0 : !bir.sbuf<128x128xbf16>
    %w = bir.memloc "w" internal address 1024 base_partition 0 : !bir.sbuf<128x128xbf16>
    // CHECK: %f = bir.memloc "f" internal : !bir.sbuf<128x512xf32>
    %f = bir.memloc "f" internal : !bir.sbuf<128x512xf32>
    // CHECK: %p = bir.memloc "p" internal : !bir.sbuf<128x512xi8>
    %p = bir.memloc "p" internal : !bir.sbuf<128x512xi8>
    // CHECK: %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    // CHECK: %table = bir.memloc "table" input : !bir.dram<100x512xf32>
    %table = bir.memloc "table" input : !bir.dram<100x512xf32>
    // CHECK: %ids = bir.memloc "ids" internal : !bir.sbuf<128x1xi64>
    %ids = bir.memloc "ids" internal : !bir.sbuf<128x1xi64>
    // CHECK: %[[VIEW:.*]] = bir.view %t : !bir.sbuf<128x512xbf16> to !bir.sbuf<128x256xf32>
    %view = bir.view %t : !bir.sbuf<128x512xbf16> to !bir.sbuf<128x256xf32>

    // CHECK: bir.dma %t[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %in[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>] {mask = #[[SET:.*]]} : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
    bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>],
            %in[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>]
      {mask = affine_set<()[s0] : (s0 >= 0, -s0 + 1 >= 0)>}
      : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
    // CHECK: bir.dma %w[#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %t[#bir.ap<0, {{\[\[}}512, 128], [1, 128]]>] : !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    bir.dma %w[#bir.ap<0, [[128, 128], [1, 128]]>], %t[#bir.ap<0, [[512, 128], [1, 128]]>]
      : !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    // CHECK: bir.dma_gather %f[#bir.ap<0, {{\[\[}}512, 4], [1, 512]]>], %table[#bir.ap<0, {{\[\[}}512, 100], [1, 512]]>], %ids[#bir.ap<0, {{\[\[}}1, 4], [1, 1]]>] : !bir.sbuf<128x512xf32>, !bir.dram<100x512xf32>, !bir.sbuf<128x1xi64>
    bir.dma_gather %f[#bir.ap<0, [[512, 4], [1, 512]]>],
                   %table[#bir.ap<0, [[512, 100], [1, 512]]>],
                   %ids[#bir.ap<0, [[1, 4], [1, 1]]>]
      : !bir.sbuf<128x512xf32>, !bir.dram<100x512xf32>, !bir.sbuf<128x1xi64>
    // CHECK: bir.memset %acc[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], 0.000000e+00 : !bir.psum<128x512xf32>
    bir.memset %acc[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0
      : !bir.psum<128x512xf32>
    // CHECK: bir.loop 0 to 4 step 1 {
    bir.loop 0 to 4 step 1 {
      // CHECK: bir.matmult %acc[{{.*}}], %w[{{.*}}], %t[#bir.sap<(d0)[s0] -> (0), {{\[\[}}512, 32], [1, 128]], block = (d0)[s0] -> (d0 * 128)>] replication <factor = 4, partition_stride = 32, shift = 1> : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
      bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 128]]>],
                  %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                  %t[#bir.sap<(d0)[s0] -> (0), [[512, 32], [1, 128]], block = (d0)[s0] -> (d0 * 128)>]
                  replication <factor = 4, partition_stride = 32, shift = 1>
        : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    }
    // CHECK: bir.matmult {{.*}} start stop : !bir.psum
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>],
                %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                %t[#bir.ap<0, [[512, 128], [1, 512]]>] start stop
      : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    // CHECK: bir.tensor_copy %f[{{.*}}], %acc[{{.*}}] : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    bir.tensor_copy %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                    %acc[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.psum<128x512xf32>
    // CHECK: bir.transpose %w[#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %t[#bir.ap<0, {{\[\[}}512, 128], [1, 128]]>]
    bir.transpose %w[#bir.ap<0, [[128, 128], [1, 128]]>],
                  %t[#bir.ap<0, [[512, 128], [1, 128]]>]
      : !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    // CHECK: bir.activation gelu %f[{{.*}}], %f[{{.*}}] scale 5.000000e-01 :
    bir.activation gelu %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                        %f[#bir.ap<0, [[512, 128], [1, 512]]>] scale 0.5
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.activation gelu_apprx_tanh %f[{{.*}}], %f[{{.*}}] :
    bir.activation gelu_apprx_tanh %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                                   %f[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.activation relu %f[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %f[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>] : !bir
    bir.activation relu %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                        %f[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // A per-partition bias (steps 0 along the row) added before the function.
    // CHECK: bir.activation exp %f[{{.*}}], %f[{{.*}}] bias %f[#bir.ap<0, {{\[\[}}512, 128], [0, 512]]>] scale 2.500000e-01 : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.activation exp %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                       %f[#bir.ap<0, [[512, 128], [1, 512]]>]
                       bias %f[#bir.ap<0, [[512, 128], [0, 512]]>] scale 0.25
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // Per-partition scales (one f32 per partition, steps 0 along the row)
    // multiply before the bias is added; their type comes after the bias's.
    // CHECK: bir.activation identity %f[{{.*}}], %f[{{.*}}] bias %f[#bir.ap<0, {{\[\[}}512, 128], [0, 512]]>] scales %f[#bir.ap<1, {{\[\[}}512, 128], [0, 512]]>] : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.activation identity %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                            %f[#bir.ap<0, [[512, 128], [1, 512]]>]
                            bias %f[#bir.ap<0, [[512, 128], [0, 512]]>]
                            scales %f[#bir.ap<1, [[512, 128], [0, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.tensor_tensor max %f[{{.*}}], %f[{{.*}}], %[[VIEW]][#bir.ap<0, {{\[\[}}256, 128], [0, 512]]>]
    bir.tensor_tensor max %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                          %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                          %view[#bir.ap<0, [[256, 128], [0, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x256xf32>
    // CHECK: bir.tensor_scalar divide %f[{{.*}}], %f[{{.*}}], 3.000000e+00 :
    bir.tensor_scalar divide %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                             %f[#bir.ap<0, [[512, 128], [1, 512]]>], 3.0
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // A reversed operation takes the constant first (3 - f); an integer
    // literal is an i64 immediate, a hexadecimal one the bits of an f64.
    // CHECK: bir.tensor_scalar subtract %f[{{.*}}], %f[{{.*}}], 3 reverse :
    bir.tensor_scalar subtract %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                               %f[#bir.ap<0, [[512, 128], [1, 512]]>], 3 reverse
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // The engine that runs an elementwise instruction, when it is not the
    // default one (NKI's engine= argument).
    // CHECK: bir.tensor_scalar multiply %f[{{.*}}], %f[{{.*}}], 2.000000e+00 on scalar :
    bir.tensor_scalar multiply %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                               %f[#bir.ap<0, [[512, 128], [1, 512]]>], 2.0 on scalar
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.tensor_tensor add %f[{{.*}}], %f[{{.*}}], %f[{{.*}}] on gpsimd :
    bir.tensor_tensor add %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                          %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                          %f[#bir.ap<0, [[512, 128], [1, 512]]>] on gpsimd
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // A recurrence along each row: the two operators, the initial value,
    // which operands each swaps.
    // CHECK: bir.tensor_tensor_scan multiply, add %f[{{.*}}], %f[{{.*}}], %f[{{.*}}], 0.000000e+00 reverse1 :
    bir.tensor_tensor_scan multiply, add %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                                         %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                                         %f[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 reverse1
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.tensor_copy %f[{{.*}}], %f[{{.*}}] on scalar :
    bir.tensor_copy %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                    %f[#bir.ap<0, [[512, 128], [1, 512]]>] on scalar
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.memset %f[{{.*}}], 0.000000e+00 on vector :
    bir.memset %f[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0 on vector
      : !bir.sbuf<128x512xf32>
    // CHECK: bir.tensor_scalar maxnum %f[{{.*}}], %f[{{.*}}], 0x7FF8000000000001 :
    bir.tensor_scalar maxnum %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                             %f[#bir.ap<0, [[512, 128], [1, 512]]>], 0x7FF8000000000001
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.memset %f[{{.*}}], -9223372036854775808 :
    bir.memset %f[#bir.ap<0, [[512, 128], [1, 512]]>], -9223372036854775808
      : !bir.sbuf<128x512xf32>
    // CHECK: bir.tensor_tensor minnum %f[{{.*}}], %f[{{.*}}], %f[{{.*}}] :
    bir.tensor_tensor minnum %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                             %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                             %f[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.tensor_reduce min %f[#bir.ap<0, {{\[\[}}512, 128], [1, 1]]>], %f[{{.*}}] :
    bir.tensor_reduce min %f[#bir.ap<0, [[512, 128], [1, 1]]>],
                          %f[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.collective all_reduce %f[{{.*}}], %f[{{.*}}] reduce add :
    bir.collective all_reduce %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                              %f[#bir.ap<0, [[512, 128], [1, 512]]>] reduce add
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.collective all_gather %f[{{.*}}], %f[{{.*}}] shard_offset #[[MAP:.*]] :
    bir.collective all_gather %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                              %f[#bir.ap<0, [[512, 128], [1, 256]]>]
                              shard_offset affine_map<()[s0] -> (s0 * 256)>
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.collective reduce_scatter %f[{{.*}}], %f[{{.*}}] reduce multiply shard_offset #[[MAP]] :
    bir.collective reduce_scatter %f[#bir.ap<0, [[512, 128], [1, 256]]>],
                                  %f[#bir.ap<0, [[512, 128], [1, 512]]>]
                                  reduce multiply
                                  shard_offset affine_map<()[s0] -> (s0 * 256)>
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.core_barrier "sync" {mask = #[[SET1:.*]]}
    bir.core_barrier "sync" {mask = affine_set<()[s0] : (s0 == 1)>}
    // CHECK: bir.sb2sb %f[{{.*}}], %f[{{.*}}] peer #[[PEER:.*]] :
    bir.sb2sb %f[#bir.ap<0, [[512, 128], [1, 512]]>],
              %f[#bir.ap<0, [[512, 128], [1, 512]]>]
              peer affine_map<()[s0] -> (1 - s0)>
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // A comparison writes 1 or 0; a predicated copy takes src where the
    // predicate is nonzero (zero with reverse).
    // CHECK: bir.tensor_tensor is_gt %p[{{.*}}], %f[{{.*}}], %f[{{.*}}] :
    bir.tensor_tensor is_gt %p[#bir.ap<0, [[512, 128], [1, 512]]>],
                            %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                            %f[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xi8>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    // CHECK: bir.tensor_copy_predicated %f[{{.*}}], %f[{{.*}}] if %p[{{.*}}] reverse :
    bir.tensor_copy_predicated %f[#bir.ap<0, [[512, 128], [1, 512]]>],
                               %f[#bir.ap<0, [[512, 128], [1, 512]]>]
                               if %p[#bir.ap<0, [[512, 128], [1, 512]]>] reverse
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xi8>
    // CHECK: bir.dma %out[#bir.sap<()[s0] -> (s0 * 65536), {{.*}}>], %f[{{.*}}] :
    bir.dma %out[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>],
            %f[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}

// A per-core module after the split: the shard id is bound to the core.
// CHECK-LABEL: module @nc01
// CHECK-SAME: bir.neuron_core_id = 1 : i64
module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
  // CHECK: bir.func @main
  bir.func @main {
    %in = bir.memloc "in" input : !bir.dram<256x512xbf16>
    %t = bir.memloc "t" internal : !bir.sbuf<128x512xbf16>
    // A shard-dependent pattern is checked for core 1 alone.
    // CHECK: bir.dma %t[{{.*}}], %in[#bir.sap<()[s0] -> (s0 * 65536), {{.*}}>]
    bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>],
            %in[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
  }
}
