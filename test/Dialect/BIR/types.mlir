// RUN: walrus-opt %s --verify-roundtrip | FileCheck %s

// CHECK-LABEL: bir.func @types
bir.func @types {
  // CHECK: !bir.sbuf<128x512xbf16>
  %a = bir.memloc "a" internal : !bir.sbuf<128x512xbf16>
  // CHECK: !bir.sbuf<1x1xi8>
  %b = bir.memloc "b" internal : !bir.sbuf<1x1xi8>
  // CHECK: !bir.sbuf<128x4x2x512xf16>
  %c = bir.memloc "c" internal : !bir.sbuf<128x4x2x512xf16>
  // CHECK: !bir.sbuf<64x32xi16>
  %d = bir.memloc "d" internal : !bir.sbuf<64x32xi16>
  // CHECK: !bir.sbuf<128x64xf8E4M3FN>
  %e = bir.memloc "e" internal : !bir.sbuf<128x64xf8E4M3FN>
  // CHECK: !bir.psum<128x512xf32>
  %f = bir.memloc "f" internal : !bir.psum<128x512xf32>
  // CHECK: !bir.psum<128x2x512xi32>
  %g = bir.memloc "g" internal : !bir.psum<128x2x512xi32>
  // CHECK: !bir.dram<1048576xui8>
  %h = bir.memloc "h" input : !bir.dram<1048576xui8>
  // CHECK: !bir.dram<4x4096x128xf32>
  %i = bir.memloc "i" output : !bir.dram<4x4096x128xf32>
  // CHECK: !bir.dram<7xf64>
  %j = bir.memloc "j" input : !bir.dram<7xf64>
}
