// Outputs written as .npy read back as inputs: f32 as it is, bf16 through
// float32 (exact), i16 as it is; raw files of the tensor's size work too.
//
// RUN: split-file %s %t
// RUN: walrus-run %t/write.mlir --output-dir %t/out | FileCheck %s --check-prefix=HASHES
// RUN: walrus-run %t/read.mlir --input a=%t/out/a.npy --input b=%t/out/b.npy --input c=%t/out/c.npy --print-outputs | FileCheck %s --check-prefix=READ
// RUN: not walrus-run %t/read.mlir --input a=%t/out/c.npy 2>&1 | FileCheck %s --check-prefix=DTYPE

// HASHES: a: !bir.dram<2x2xf32> xxh3 0x{{[0-9a-f]+}}
// HASHES: b: !bir.dram<2x2xbf16> xxh3 0x{{[0-9a-f]+}}
// HASHES: c: !bir.dram<2x2xi16> xxh3 0x{{[0-9a-f]+}}

// READ:      ra: !bir.dram<2x2xf32>
// READ-NEXT:   0.25 0.25
// READ-NEXT:   -3 -3
// READ-NEXT: rb: !bir.dram<2x2xbf16>
// READ-NEXT:   1.5 1.5
// READ-NEXT:   1.5 1.5
// READ-NEXT: rc: !bir.dram<2x2xi16>
// READ-NEXT:   -7 -7
// READ-NEXT:   -7 -7

// DTYPE: error: walrus-run: '{{.*}}c.npy' has dtype '<i2', which does not match the tensor's element type

//--- write.mlir
bir.func @main {
  %a = bir.memloc "a" output : !bir.dram<2x2xf32>
  %b = bir.memloc "b" output : !bir.dram<2x2xbf16>
  %c = bir.memloc "c" output : !bir.dram<2x2xi16>
  %t = bir.memloc "t" internal : !bir.sbuf<2x2xf32>
  %u = bir.memloc "u" internal : !bir.sbuf<2x2xbf16>
  %v = bir.memloc "v" internal : !bir.sbuf<2x2xi16>
  bir.memset %t[#bir.ap<0, [[2, 1], [1, 2]]>], 0.25 : !bir.sbuf<2x2xf32>
  bir.memset %t[#bir.ap<2, [[2, 1], [1, 2]]>], -3.0 : !bir.sbuf<2x2xf32>
  bir.memset %u[#bir.ap<0, [[2, 2], [1, 2]]>], 1.5 : !bir.sbuf<2x2xbf16>
  bir.memset %v[#bir.ap<0, [[2, 2], [1, 2]]>], -7.0 : !bir.sbuf<2x2xi16>
  bir.dma %a[#bir.ap<0, [[2, 2], [1, 2]]>], %t[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.dram<2x2xf32>, !bir.sbuf<2x2xf32>
  bir.dma %b[#bir.ap<0, [[2, 2], [1, 2]]>], %u[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.dram<2x2xbf16>, !bir.sbuf<2x2xbf16>
  bir.dma %c[#bir.ap<0, [[2, 2], [1, 2]]>], %v[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.dram<2x2xi16>, !bir.sbuf<2x2xi16>
}
//--- read.mlir
bir.func @main {
  %a = bir.memloc "a" input : !bir.dram<2x2xf32>
  %b = bir.memloc "b" input : !bir.dram<2x2xbf16>
  %c = bir.memloc "c" input : !bir.dram<2x2xi16>
  %ra = bir.memloc "ra" output : !bir.dram<2x2xf32>
  %rb = bir.memloc "rb" output : !bir.dram<2x2xbf16>
  %rc = bir.memloc "rc" output : !bir.dram<2x2xi16>
  %t = bir.memloc "t" internal : !bir.sbuf<2x2xf32>
  %u = bir.memloc "u" internal : !bir.sbuf<2x2xbf16>
  %v = bir.memloc "v" internal : !bir.sbuf<2x2xi16>
  bir.dma %t[#bir.ap<0, [[2, 2], [1, 2]]>], %a[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.sbuf<2x2xf32>, !bir.dram<2x2xf32>
  bir.dma %u[#bir.ap<0, [[2, 2], [1, 2]]>], %b[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.sbuf<2x2xbf16>, !bir.dram<2x2xbf16>
  bir.dma %v[#bir.ap<0, [[2, 2], [1, 2]]>], %c[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.sbuf<2x2xi16>, !bir.dram<2x2xi16>
  bir.dma %ra[#bir.ap<0, [[2, 2], [1, 2]]>], %t[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.dram<2x2xf32>, !bir.sbuf<2x2xf32>
  bir.dma %rb[#bir.ap<0, [[2, 2], [1, 2]]>], %u[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.dram<2x2xbf16>, !bir.sbuf<2x2xbf16>
  bir.dma %rc[#bir.ap<0, [[2, 2], [1, 2]]>], %v[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.dram<2x2xi16>, !bir.sbuf<2x2xi16>
}
