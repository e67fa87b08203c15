//===- Passes.td - Walrus passes ---------------------------*- tablegen -*-===//

#ifndef WALRUS_TRANSFORMS_PASSES_TD
#define WALRUS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrintBirSummary : Pass<"print-bir-summary", "mlir::ModuleOp"> {
  let summary = "Print a summary of every BIR module and function";
  let description = [{
    For each module holding `bir.func`s (the symbolic module, or each
    per-core module after `-lnc-split`), prints its core and target, then
    per function the memory locations by memory with their declared
    footprint, and the instructions by kind, with loops and masked
    instructions counted. The IR is left unchanged.

    ```
    $ walrus-opt -print-bir-summary examples/tiled-matmul.mlir -o /dev/null
    module @nc_symbolic: symbolic over 2 cores, target trn2 (128 x 229376 B SBUF)
      func @main: 5 memlocs, 9 instructions (2 loops, 2 masked)
      ...
    ```
  }];
}

#endif // WALRUS_TRANSFORMS_PASSES_TD
