// RUN: walrus-opt %s -split-input-file -print-bir-timeline -verify-diagnostics -o /dev/null

// The cores meet at every barrier: one only core 0 reaches cannot be timed.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    // expected-error @+1 {{timing model: not every core reaches this barrier or collective}}
    bir.core_barrier "b0" {mask = affine_set<()[s0] : (-s0 == 0)>}
  }
}
