// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir=column-tile=512 | FileCheck %s
// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="column-tile=512 elementwise-buffers=1" | FileCheck %s --check-prefix=ONE
// RUN: walrus-opt %s -walrus-from-linalg=column-tile=512 | FileCheck %s --check-prefix=PLACED
// RUN: walrus-opt %s -walrus-from-linalg="schedule report column-tile=512" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCHEDULED
// RUN: walrus-opt %s -walrus-from-linalg="schedule report elementwise-buffers=1 column-tile=512" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCHEDULED-ONE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lowering-options column-tile=512 --lnc-size 1 --pipeline --atol 1e-6 --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lowering-options "column-tile=512 elementwise-buffers=3" --lnc-size 2 --pipeline --schedule-options "" --atol 1e-6 --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE

// With column tiles of 512 (column-tile=512; by default a row of 2048
// is one tile), an elementwise op's column tiles rotate two sets of SBUF
// tiles (elementwise-buffers, default 2): the loop over the four column tiles of
// a row runs two per iteration, the first with the set of buffer 0, the
// second with that of buffer 1, so the second tile's loads need not wait
// for the first one's compute (docs/LinalgToBir.md, "Elementwise ops").
// Within one rounding of the exponential of MLIR's CPU execution.

// ORACLE: oracle: {{identical|within tolerance}}

// Each value's tile comes in two, marked with its buffer.
// CHECK:      %[[IN0:.*]] = bir.memloc "in" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x512xf32>
// CHECK:      %[[IN1:.*]] = bir.memloc "in_2" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x512xf32>
// CHECK:      bir.loop 0 to 2 step 1 {
// CHECK-NEXT:   bir.loop 0 to 2 step 1 {
// CHECK-NEXT:     bir.dma %[[IN0]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %scale_exp_arg0[#bir.sap<(d0, d1)[s0] -> (d0 * 262144 + d1 * 1024 + s0 * 262144), {{\[\[}}2048, 128], [1, 512]]>] :
// CHECK:          bir.dma %scale_exp_result0[#bir.sap<(d0, d1)[s0] -> (d0 * 262144 + d1 * 1024 + s0 * 262144), {{\[\[}}2048, 128], [1, 512]]>]
// CHECK-NEXT:     bir.dma %[[IN1]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %scale_exp_arg0[#bir.sap<(d0, d1)[s0] -> (d0 * 262144 + d1 * 1024 + s0 * 262144 + 512), {{\[\[}}2048, 128], [1, 512]]>] :
// CHECK:          bir.dma %scale_exp_result0[#bir.sap<(d0, d1)[s0] -> (d0 * 262144 + d1 * 1024 + s0 * 262144 + 512), {{\[\[}}2048, 128], [1, 512]]>]
// CHECK-NEXT:   }
// CHECK-NEXT: }

// One buffer: one set of tiles, a loop over the four column tiles.
// ONE-NOT:    bir.rotating
// ONE:        bir.loop 0 to 2 step 1 {
// ONE-NEXT:     bir.loop 0 to 4 step 1 {

// After allocation the two sets never share bytes (the rotating tiles are
// live through the loop).
// PLACED: bir.memloc "in" internal address 0 base_partition 0 {bir.rotating = 0 : i64}
// PLACED: bir.memloc "in_2" internal address 10240 base_partition 0 {bir.rotating = 1 : i64}

// The rotation pays: the next tile's loads, in the loads' DMA queue, run
// while the previous tile's store waits for its compute
// (docs/TimingModel.md, "Order"), so the program as lowered is as fast as
// -bir-schedule can make it. With one set of tiles the loads must wait
// for the compute that reads the tiles before.
// SCHEDULED: remark: bir-schedule: @scale_exp_kernel::@nc_symbolic::@main: estimate 32.2 us -> 32.2 us
// SCHEDULED-ONE: remark: bir-schedule: @scale_exp_kernel::@nc_symbolic::@main: estimate 50.2 us -> 50.2 us
func.func @scale_exp(%a: tensor<256x2048xf32>, %b: tensor<256x2048xf32>) -> tensor<256x2048xf32> {
  %empty = tensor.empty() : tensor<256x2048xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<256x2048xf32>, tensor<256x2048xf32>) outs(%empty : tensor<256x2048xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %e = math.exp %x : f32
    %m = arith.mulf %e, %z : f32
    %s = arith.addf %m, %x : f32
    linalg.yield %s : f32
  } -> tensor<256x2048xf32>
  return %y : tensor<256x2048xf32>
}
