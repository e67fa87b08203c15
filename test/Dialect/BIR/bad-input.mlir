// Bad input as a new user writes it: every case ends in a located error and
// a non-zero exit, never a crash (`not` fails on a crash).
//
// RUN: split-file %s %t
// RUN: head -c 700 %examples/tiled-matmul.mlir > %t/truncated.mlir
// RUN: not walrus-opt %t/truncated.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not walrus-opt %t/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OP
// RUN: not walrus-opt %t/partitions.mlir 2>&1 | FileCheck %s --check-prefix=PARTITIONS
// RUN: not walrus-opt %t/past-end.mlir 2>&1 | FileCheck %s --check-prefix=PAST-END
// RUN: not walrus-opt %t/mask.mlir 2>&1 | FileCheck %s --check-prefix=MASK
// RUN: not walrus-opt %t/element-type.mlir 2>&1 | FileCheck %s --check-prefix=ELEMENT-TYPE
// RUN: printf '\000\377\376bir' > %t/garbage.mlir
// RUN: not walrus-opt %t/garbage.mlir 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not walrus-opt %t/bad-option.mlir -print-bir-summary=1 2>&1 | FileCheck %s --check-prefix=BAD-OPTION

// TRUNCATED: truncated.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// UNKNOWN-OP: unknown-op.mlir:3:3: error: custom op 'bir.dmaa' is unknown
// PARTITIONS: partitions.mlir:2:8: error: 'bir.memloc' op has 129 partitions but the target's SBUF has 128
// PAST-END: past-end.mlir:4:3: error: 'bir.tensor_copy' op 'src_ap' touches element 65536, outside the 65536 elements of 'a'
// MASK: mask.mlir:3:3: error: 'bir.memset' op mask may only mention the shard id (symbol s0), but it has 0 dim(s) and 2 symbol(s)
// ELEMENT-TYPE: element-type.mlir:4:3: error: 'bir.dma' op element types of 'dst' ('f32') and 'src' ('bf16') must match
// GARBAGE: garbage.mlir:1:{{[0-9]+}}: error: unexpected character
// BAD-OPTION: error: <Pass-Options-Parser>: no such option 1

//--- unknown-op.mlir
bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  bir.dmaa %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>]
}
//--- partitions.mlir
bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<129x512xbf16>
}
//--- past-end.mlir
bir.func @f {
  %a = bir.memloc "a" internal : !bir.sbuf<128x512xbf16>
  %b = bir.memloc "b" internal : !bir.sbuf<128x512xbf16>
  bir.tensor_copy %b[#bir.ap<0, [[512, 128], [1, 512]]>], %a[#bir.ap<1, [[512, 128], [1, 512]]>]
    : !bir.sbuf<128x512xbf16>, !bir.sbuf<128x512xbf16>
}
//--- mask.mlir
bir.func @f {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0 {mask = affine_set<()[s0, core] : (core - 1 == 0)>}
    : !bir.sbuf<128x4xf32>
}
//--- element-type.mlir
bir.func @f {
  %x = bir.memloc "x" input : !bir.dram<128x4xbf16>
  %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
  bir.dma %t[#bir.ap<0, [[4, 128], [1, 4]]>], %x[#bir.ap<0, [[4, 128], [1, 4]]>]
    : !bir.sbuf<128x4xf32>, !bir.dram<128x4xbf16>
}
//--- bad-option.mlir
module {}
