// RUN: walrus-opt %s -lnc-verify=mode=concretized -verify-diagnostics
// RUN: not walrus-opt %s -lnc-verify=mode=both 2>&1 | FileCheck %s --check-prefix=MODE

// An enum option: its values are listed by --help.
// MODE: for the --mode option: Cannot find option named 'both'!

// expected-error @+1 {{module has no bir.neuron_core_id: it was not split by -lnc-split}}
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
  }
}
