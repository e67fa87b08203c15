// A valid program of 4 x 2^32 loop iterations (a mutation of
// test/Transforms/lnc-split/lnc-split-report.mlir): walrus-run stops at its limit.

// The pass option overrides bir.lnc_size; `report` says what each core
// keeps. Cores 0 and 3 keep the masked memset, cores 1 and 2 lose it and
// the loop around it.

// expected-remark @+5 {{lnc-split: core 0 of 4 keeps 2 of 2 instructions; pruned 0 instruction(s) and 0 loop(s)}}
// expected-remark @+4 {{lnc-split: core 1 of 4 keeps 1 of 2 instructions; pruned 1 instruction(s) and 1 loop(s)}}
// expected-remark @+3 {{lnc-split: core 2 of 4 keeps 1 of 2 instructions; pruned 1 instruction(s) and 1 loop(s)}}
// expected-remark @+2 {{lnc-split: core 3 of 4 keeps 2 of 2 instructions; pruned 0 instruction(s) and 0 loop(s)}}
// expected-remark @+1 {{lnc-split: split 1 symbolic module(s) into 4 core modules with 3 clone(s); pruned 2 instruction(s) in all}}
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.loop 0 to 4294967297 step 1 {
      bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0
        {mask = affine_set<()[s0] : (s0 * 3 - s0 * s0 >= 0, (s0 - 1) * (s0 - 2) - 1 >= 0)>} : !bir.sbuf<128x4xf32>
    }
    bir.core_barrier "done"
  }
}
