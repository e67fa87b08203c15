// Where kernels are (docs/Rationale.md): the same kernel one module deep,
// two modules deep, and in a bir.kernel of a host module with a func.func
// that launches it. Every pass must reach it: lnc-split prunes the masked
// multiply on core 1, vn-split cuts "t" in two, shrink-dn trims "u" to the
// 32 columns it uses, sb-alloc places everything; the host's reference to
// @add_halves stays valid (the verifier checks bir.launch after each pass).
//
// RUN: split-file %s %t
// RUN: walrus-opt %t/depth1.mlir -walrus-pipeline | FileCheck %s --check-prefixes=CHECK,DEPTH1
// RUN: walrus-opt %t/depth2.mlir -walrus-pipeline | FileCheck %s --check-prefixes=CHECK,DEPTH2
// RUN: walrus-opt %t/host.mlir -walrus-pipeline | FileCheck %s --check-prefixes=CHECK,HOST
// The flags one by one, and the function passes nested by hand, do the same.
// RUN: walrus-opt %t/host.mlir -expand-replication -lnc-split -lnc-verify -vn-split -shrink-dn -sb-alloc -sb-alloc-verify | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: walrus-opt %t/host.mlir --pass-pipeline='builtin.module(expand-replication, lnc-split, lnc-verify, bir.kernel(builtin.module(bir.func(vn-split, shrink-dn, sb-alloc, sb-alloc-verify))))' | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: walrus-opt %t/host.mlir -walrus-pipeline --verify-roundtrip -o /dev/null
// RUN: walrus-opt %t/host.mlir -lnc-split -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=SUMMARY
// RUN: walrus-opt %t/host.mlir --pass-pipeline='builtin.module(lnc-split, bir.kernel(builtin.module(bir.func(print-bir-summary))))' --mlir-disable-threading -o /dev/null | FileCheck %s --check-prefix=SUMMARY
// The interpreter runs the host's kernel before and after: same outputs.
// RUN: walrus-run %t/host.mlir --after=walrus-pipeline | FileCheck %s --check-prefix=SAME
// RUN: walrus-run %t/depth2.mlir --after=walrus-pipeline | FileCheck %s --check-prefix=SAME

// SUMMARY:      kernel @add_halves, module @nc00: core 0 of 2, target trn2
// SUMMARY-NEXT:   func @main: 4 memlocs, 5 instructions (0 loops, 0 masked)
// SUMMARY:      kernel @add_halves, module @nc01: core 1 of 2, target trn2
// SUMMARY-NEXT:   func @main: 4 memlocs, 4 instructions (0 loops, 0 masked)

// SAME: identical: 1 output(s), 65536 bytes

// DEPTH1:      module {
// DEPTH1-NEXT:   module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
// DEPTH2:      module @host {
// DEPTH2-NEXT:   module @wrapper {
// DEPTH2-NEXT:     module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
// HOST:        module @host {
// HOST-NEXT:     func.func @forward(%[[X:.*]]: memref<256x64xf32>, %[[Y:.*]]: memref<256x64xf32>) {
// HOST-NEXT:       bir.launch @add_halves(%[[X]], %[[Y]]) : memref<256x64xf32>, memref<256x64xf32>
// HOST-NEXT:       return
// HOST-NEXT:     }
// HOST-NEXT:     bir.kernel @add_halves {
// HOST-NEXT:       module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
// CHECK:       bir.func @main {
// CHECK:         %t_VN_0 = bir.memloc "t_VN_0" internal address 0 base_partition 0 : !bir.sbuf<128x32xf32>
// CHECK-NEXT:    %t_VN_1 = bir.memloc "t_VN_1" internal address 128 base_partition 0 : !bir.sbuf<128x32xf32>
// CHECK-NEXT:    %u = bir.memloc "u" internal address 256 base_partition 0 : !bir.sbuf<128x32xf32>
// CHECK-NEXT:    bir.dma %t_VN_0[#bir.ap<0, {{\[\[}}32, 128], [1, 32]]>], %x[#bir.ap<0, {{\[\[}}64, 128], [1, 32]]>]
// CHECK-NEXT:    bir.dma %t_VN_1[#bir.ap<0, {{\[\[}}32, 128], [1, 32]]>], %x[#bir.ap<32, {{\[\[}}64, 128], [1, 32]]>]
// CHECK-NEXT:    bir.tensor_tensor add %u
// CHECK-NEXT:    bir.tensor_scalar multiply %u
// CHECK-NEXT:    bir.dma %y[#bir.ap<0, {{\[\[}}64, 128], [1, 32]]>], %u
// CHECK:       module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
// CHECK:         %t_VN_0 = bir.memloc "t_VN_0" internal address 0 base_partition 0 : !bir.sbuf<128x32xf32>
// CHECK-NEXT:    %t_VN_1 = bir.memloc "t_VN_1" internal address 128 base_partition 0 : !bir.sbuf<128x32xf32>
// CHECK-NEXT:    %u = bir.memloc "u" internal address 256 base_partition 0 : !bir.sbuf<128x32xf32>
// CHECK-NEXT:    bir.dma %t_VN_0[#bir.ap<0, {{\[\[}}32, 128], [1, 32]]>], %x[#bir.ap<8192, {{\[\[}}64, 128], [1, 32]]>]
// CHECK-NEXT:    bir.dma %t_VN_1[#bir.ap<0, {{\[\[}}32, 128], [1, 32]]>], %x[#bir.ap<8224, {{\[\[}}64, 128], [1, 32]]>]
// CHECK-NEXT:    bir.tensor_tensor add %u
// CHECK-NEXT:    bir.dma %y[#bir.ap<8192, {{\[\[}}64, 128], [1, 32]]>], %u
// CHECK-NOT:   nc_symbolic

//--- depth1.mlir
module {
  module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<256x64xf32>
      %y = bir.memloc "y" output : !bir.dram<256x64xf32>
      %t = bir.memloc "t" internal : !bir.sbuf<128x128xf32>
      %u = bir.memloc "u" internal : !bir.sbuf<128x256xf32>
      bir.dma %t[#bir.ap<0, [[128, 128], [1, 32]]>], %x[#bir.sap<()[s0] -> (s0 * 8192), [[64, 128], [1, 32]]>] : !bir.sbuf<128x128xf32>, !bir.dram<256x64xf32>
      bir.dma %t[#bir.ap<64, [[128, 128], [1, 32]]>], %x[#bir.sap<()[s0] -> (s0 * 8192 + 32), [[64, 128], [1, 32]]>] : !bir.sbuf<128x128xf32>, !bir.dram<256x64xf32>
      bir.tensor_tensor add %u[#bir.ap<0, [[256, 128], [1, 32]]>], %t[#bir.ap<0, [[128, 128], [1, 32]]>], %t[#bir.ap<64, [[128, 128], [1, 32]]>] : !bir.sbuf<128x256xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
      bir.tensor_scalar multiply %u[#bir.ap<0, [[256, 128], [1, 32]]>], %u[#bir.ap<0, [[256, 128], [1, 32]]>], 2.0 {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>
      bir.dma %y[#bir.sap<()[s0] -> (s0 * 8192), [[64, 128], [1, 32]]>], %u[#bir.ap<0, [[256, 128], [1, 32]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x256xf32>
    }
  }
}

//--- depth2.mlir
module @host {
  module @wrapper {
    module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
      bir.func @main {
        %x = bir.memloc "x" input : !bir.dram<256x64xf32>
        %y = bir.memloc "y" output : !bir.dram<256x64xf32>
        %t = bir.memloc "t" internal : !bir.sbuf<128x128xf32>
        %u = bir.memloc "u" internal : !bir.sbuf<128x256xf32>
        bir.dma %t[#bir.ap<0, [[128, 128], [1, 32]]>], %x[#bir.sap<()[s0] -> (s0 * 8192), [[64, 128], [1, 32]]>] : !bir.sbuf<128x128xf32>, !bir.dram<256x64xf32>
        bir.dma %t[#bir.ap<64, [[128, 128], [1, 32]]>], %x[#bir.sap<()[s0] -> (s0 * 8192 + 32), [[64, 128], [1, 32]]>] : !bir.sbuf<128x128xf32>, !bir.dram<256x64xf32>
        bir.tensor_tensor add %u[#bir.ap<0, [[256, 128], [1, 32]]>], %t[#bir.ap<0, [[128, 128], [1, 32]]>], %t[#bir.ap<64, [[128, 128], [1, 32]]>] : !bir.sbuf<128x256xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
        bir.tensor_scalar multiply %u[#bir.ap<0, [[256, 128], [1, 32]]>], %u[#bir.ap<0, [[256, 128], [1, 32]]>], 2.0 {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>
        bir.dma %y[#bir.sap<()[s0] -> (s0 * 8192), [[64, 128], [1, 32]]>], %u[#bir.ap<0, [[256, 128], [1, 32]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x256xf32>
      }
    }
  }
}

//--- host.mlir
module @host {
  func.func @forward(%x: memref<256x64xf32>, %y: memref<256x64xf32>) {
    bir.launch @add_halves(%x, %y) : memref<256x64xf32>, memref<256x64xf32>
    return
  }
  bir.kernel @add_halves {
    module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
      bir.func @main {
        %x = bir.memloc "x" input : !bir.dram<256x64xf32>
        %y = bir.memloc "y" output : !bir.dram<256x64xf32>
        %t = bir.memloc "t" internal : !bir.sbuf<128x128xf32>
        %u = bir.memloc "u" internal : !bir.sbuf<128x256xf32>
        bir.dma %t[#bir.ap<0, [[128, 128], [1, 32]]>], %x[#bir.sap<()[s0] -> (s0 * 8192), [[64, 128], [1, 32]]>] : !bir.sbuf<128x128xf32>, !bir.dram<256x64xf32>
        bir.dma %t[#bir.ap<64, [[128, 128], [1, 32]]>], %x[#bir.sap<()[s0] -> (s0 * 8192 + 32), [[64, 128], [1, 32]]>] : !bir.sbuf<128x128xf32>, !bir.dram<256x64xf32>
        bir.tensor_tensor add %u[#bir.ap<0, [[256, 128], [1, 32]]>], %t[#bir.ap<0, [[128, 128], [1, 32]]>], %t[#bir.ap<64, [[128, 128], [1, 32]]>] : !bir.sbuf<128x256xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
        bir.tensor_scalar multiply %u[#bir.ap<0, [[256, 128], [1, 32]]>], %u[#bir.ap<0, [[256, 128], [1, 32]]>], 2.0 {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>
        bir.dma %y[#bir.sap<()[s0] -> (s0 * 8192), [[64, 128], [1, 32]]>], %u[#bir.ap<0, [[256, 128], [1, 32]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x256xf32>
      }
    }
  }
}
