// RUN: walrus-opt %s -lnc-verify=mode=symbolic -verify-diagnostics

module {
  // expected-error @+1 {{module is already concretized for core 0}}
  module @nc00 attributes {bir.lnc_size = 1 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
    }
  }
}
