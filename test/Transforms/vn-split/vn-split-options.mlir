// Each option of -vn-split on the same input, one RUN line and prefix each.
//
// RUN: walrus-opt %s -vn-split=explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: walrus-opt %s -vn-split="explain per-split-limit=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PER-SPLIT
// RUN: walrus-opt %s -vn-split="explain vn-limit=5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=VN-LIMIT
// RUN: walrus-opt %s -vn-split="explain ratio=1.5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RATIO
// RUN: walrus-opt %s -vn-split="explain no-split-dram" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-DRAM
// RUN: walrus-opt %s -vn-split="explain skip=three,dram" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: walrus-opt %s -vn-split=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: not walrus-opt %s -vn-split=ratio=0.5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not walrus-opt %s -vn-split=dram-to-sb-bytes=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// DEFAULT: remark: vn-split: split 'three' into 3 pieces: three_VN_0 (1 x 32 B), three_VN_1 (1 x 32 B), three_VN_2 (1 x 32 B)
// DEFAULT: remark: vn-split: not splitting 'lshape': elts/partition duplicated (1.19 x) beyond ratio = 1.00
// DEFAULT: remark: vn-split: split 'dram' into 2 pieces: dram_VN_0 (1 x 32 B), dram_VN_1 (1 x 32 B)
// DEFAULT: remark: vn-split: not splitting 'huge': piece 0 (1 partitions, 1200000 bytes) would have to be placed in DRAM (perSplitLimit)

// PER-SPLIT: remark: vn-split: not splitting 'three': 3 pieces exceed per-split-limit = 2
// PER-SPLIT: remark: vn-split: split 'dram' into 2 pieces

// The function holds 4 memory locations; splitting 'three' would make 6.
// VN-LIMIT: remark: vn-split: not splitting 'three'; exceed vn limit = 6 v.s. limit=5
// VN-LIMIT: remark: vn-split: split 'dram' into 2 pieces

// RATIO: remark: vn-split: split 'lshape' into 2 pieces: lshape_VN_0 (8 x 32 B), lshape_VN_1 (3 x 16 B)

// NO-DRAM: remark: vn-split: split 'three' into 3 pieces
// NO-DRAM: remark: vn-split: not splitting 'dram': DRAM tensors are not split (no-split-dram)

// SKIP: remark: vn-split: skipping 'three' by user request
// SKIP: remark: vn-split: skipping 'dram' by user request

// Dead: both originals, the unread row of 'three' and both DRAM pieces.
// REPORT: remark: vn-split: @main: split 2 tensor(s) into 5 piece(s), 5 dead node(s), 3 dead instruction(s), 0 fold(s), 0 moved to SB

// BAD: error: vn-split: ratio must be at least 1, per-split-limit at least 2, vn-limit at least 1 and dram-to-sb-bytes at least 0

bir.func @main {
  %three = bir.memloc "three" internal : !bir.sbuf<3x8xf32>
  %lshape = bir.memloc "lshape" internal : !bir.sbuf<8x8xf32>
  %dram = bir.memloc "dram" internal : !bir.dram<2x8xf32>
  %huge = bir.memloc "huge" internal : !bir.sbuf<2x300000xf32>
  bir.memset %three[#bir.ap<0, [[8, 1], [1, 8]]>], 0.0 : !bir.sbuf<3x8xf32>
  bir.memset %three[#bir.ap<8, [[8, 1], [1, 8]]>], 1.0 : !bir.sbuf<3x8xf32>
  bir.memset %three[#bir.ap<16, [[8, 1], [1, 8]]>], 2.0 : !bir.sbuf<3x8xf32>
  // Rows 0-3 whole and rows 3-7 columns 0-1 overlap: one group whose
  // rectangle contains the second group, rows 5-7 columns 4-7.
  bir.memset %lshape[#bir.ap<0, [[8, 4], [1, 8]]>], 0.0 : !bir.sbuf<8x8xf32>
  bir.memset %lshape[#bir.ap<24, [[8, 5], [1, 2]]>], 0.0 : !bir.sbuf<8x8xf32>
  bir.memset %lshape[#bir.ap<44, [[8, 3], [1, 4]]>], 0.0 : !bir.sbuf<8x8xf32>
  bir.dma %dram[#bir.ap<0, [[8, 1], [1, 8]]>], %three[#bir.ap<0, [[8, 1], [1, 8]]>] : !bir.dram<2x8xf32>, !bir.sbuf<3x8xf32>
  bir.dma %dram[#bir.ap<8, [[8, 1], [1, 8]]>], %three[#bir.ap<8, [[8, 1], [1, 8]]>] : !bir.dram<2x8xf32>, !bir.sbuf<3x8xf32>
  bir.memset %huge[#bir.ap<0, [[300000, 1], [1, 300000]]>], 0.0 : !bir.sbuf<2x300000xf32>
  bir.memset %huge[#bir.ap<300000, [[300000, 1], [1, 300000]]>], 0.0 : !bir.sbuf<2x300000xf32>
}
