// RUN: walrus-opt %s -split-input-file -vn-split="explain skip=skipped" -verify-diagnostics -o /dev/null

// Every reason a tensor stays whole, as a remark on the tensor.

bir.func @reasons {
  // expected-remark @+1 {{vn-split: not splitting 'x': it is a program input}}
  %x = bir.memloc "x" input : !bir.dram<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'acc': its accesses form one group}}
  %acc = bir.memloc "acc" internal : !bir.psum<128x8xf32>
  // expected-remark @+1 {{vn-split: skipping 'skipped' by user request}}
  %skipped = bir.memloc "skipped" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'placed': it is already placed}}
  %placed = bir.memloc "placed" internal address 0 base_partition 0 : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'member': it is in memory-location set 's'}}
  %member = bir.memloc "member" internal set "s" : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'viewed' due to reinterpret cast}}
  %viewed = bir.memloc "viewed" internal : !bir.sbuf<128x8xf32>
  %view = bir.view %viewed : !bir.sbuf<128x8xf32> to !bir.sbuf<128x4xf32>
  // expected-remark @+1 {{vn-split: not splitting 'strided' due to non-contiguous AP in 'bir.memset'}}
  %strided = bir.memloc "strided" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'across' due to access across channels in 'bir.memset'}}
  %across = bir.memloc "across" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'turned' due to transpose (differing partition step)}}
  %turned = bir.memloc "turned" internal : !bir.sbuf<8x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'gathered' due to CollectiveCompute access or cross-core access}}
  %gathered = bir.memloc "gathered" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'whole': its accesses form one group}}
  %whole = bir.memloc "whole" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'looped' due to too many loop iterations to analyze}}
  %looped = bir.memloc "looped" internal : !bir.sbuf<128x8xf32>
  bir.memset %strided[#bir.ap<0, [[16, 64], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.memset %across[#bir.ap<4, [[8, 2], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.transpose %turned[#bir.ap<0, [[8, 8], [1, 8]]>], %turned[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.collective all_reduce %gathered[#bir.ap<0, [[8, 128], [1, 8]]>], %gathered[#bir.ap<0, [[8, 128], [1, 8]]>] reduce add
    : !bir.sbuf<128x8xf32>, !bir.sbuf<128x8xf32>
  bir.memset %whole[#bir.ap<0, [[8, 128], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.loop 0 to 300 step 1 {
    bir.loop 0 to 300 step 1 {
      bir.memset %looped[#bir.sap<(d0, d1)[s0] -> ((d0 + d1) mod 8), [[8, 1], [1, 1]]>], 0.0 : !bir.sbuf<128x8xf32>
    }
  }
}

// -----

// A copy destination another core writes into keeps its name and shape.
bir.func @remote {
  // expected-remark @+1 {{vn-split: not splitting 'src' due to CollectiveCompute access or cross-core access}}
  %src = bir.memloc "src" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 'inbox' due to CollectiveCompute access or cross-core access}}
  %inbox = bir.memloc "inbox" internal : !bir.sbuf<128x8xf32>
  bir.memset %src[#bir.ap<0, [[8, 128], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.sb2sb %inbox[#bir.ap<0, [[8, 128], [1, 8]]>], %src[#bir.ap<0, [[8, 128], [1, 8]]>] peer affine_map<()[s0] -> (0)>
    : !bir.sbuf<128x8xf32>, !bir.sbuf<128x8xf32>
}

// -----

// A split that would need a name already in use is refused.
bir.func @taken {
  // expected-remark @+1 {{vn-split: not splitting 't': piece name 't_VN_0' is taken}}
  %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{vn-split: not splitting 't_VN_0': its accesses form one group}}
  %taken = bir.memloc "t_VN_0" internal : !bir.sbuf<128x8xf32>
  bir.memset %t[#bir.ap<0, [[8, 64], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.memset %t[#bir.ap<512, [[8, 64], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.memset %taken[#bir.ap<0, [[8, 64], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
}
