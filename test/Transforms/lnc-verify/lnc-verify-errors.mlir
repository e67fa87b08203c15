// RUN: walrus-opt %s -split-input-file -lnc-verify -verify-diagnostics

// Symbolic: a cross-core instruction must run on every core.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    // expected-error @+1 {{cross-core instruction is masked off on core 1; every core must take part in it}}
    bir.core_barrier "half" {mask = affine_set<()[s0] : (s0 == 0)>}
  }
}

// -----

module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-warning @+1 {{mask holds on none of the 2 cores: the instruction runs nowhere}}
    bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0
      {mask = affine_set<()[s0] : (s0 - 2 >= 0)>} : !bir.sbuf<128x4xf32>
  }
}

// -----

// Concretized: the per-core modules must come as cores 0 .. N-1.
module {
  module @nc00 attributes {bir.lnc_size = 3 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
    }
  }
  // expected-error @+1 {{core 2 is out of order: expected core 1 here}}
  module @nc02 attributes {bir.lnc_size = 3 : i64, bir.neuron_core_id = 2 : i64} {
    bir.func @main {
    }
  }
}

// -----

module {
  // expected-error @+1 {{the per-core modules starting at @nc00 stop at core 0 of 2}}
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
    }
  }
}

// -----

module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
    }
    bir.func @helper {
    }
  }
  // expected-error @+1 {{core 1 has 1 function(s), core 0 has 2}}
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
    }
  }
}

// -----

module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    // expected-error @+1 {{function #0 is @main on core 0 but @other on core 1}}
    bir.func @other {
    }
  }
}

// -----

// Every named memloc exists on every core.
module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      // expected-error @+1 {{could not find memloc 'send_k_buf' of @main on core 1}}
      %a = bir.memloc "send_k_buf" internal : !bir.sbuf<128x4xf32>
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
      // expected-error @+1 {{memloc 'recv_buf' of @main on core 1 does not exist on core 0}}
      %b = bir.memloc "recv_buf" internal : !bir.sbuf<128x4xf32>
    }
  }
}

// -----

// Barriers: same names in the same order.
module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      bir.core_barrier "a"
      bir.core_barrier "b"
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
      bir.core_barrier "a"
      // expected-error @+1 {{expected core barrier #1 of @main to be named 'b' as on core 0, but on core 1 it is named 'c'}}
      bir.core_barrier "c"
    }
  }
}

// -----

module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      bir.core_barrier "a"
      bir.core_barrier "b"
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    // expected-error @+1 {{core 1 has 1 core barrier(s) in @main, core 0 has 2}}
    bir.func @main {
      bir.core_barrier "a"
    }
  }
}

// -----

// Cross-core instructions: the same kinds in the same order.
module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
      bir.sb2sb %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>]
        peer affine_map<() -> (1)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
      // expected-error @+1 {{cross-core instruction #0 of @main is 'bir.sb2sb' on core 0 but 'bir.collective' on core 1}}
      bir.collective all_reduce %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>]
        reduce add : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
    }
  }
}

// -----

module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
      bir.collective all_reduce %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>]
        reduce add : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    // expected-error @+1 {{core 1 has 0 cross-core instruction(s) in @main, core 0 has 1}}
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    }
  }
}

// -----

// No shard symbol may survive the split.
module {
  module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
      // expected-error @+1 {{mask still mentions the shard id on core 0}}
      bir.memset %t[#bir.ap<0, [[4, 128], [1, 4]]>], 0.0
        {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x4xf32>
      // expected-error @+1 {{'dst_ap' still mentions the shard id on core 0}}
      bir.memset %t[#bir.sap<()[s0] -> (s0), [[4, 128], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
      // expected-error @+1 {{'shard_offset' still mentions the shard id on core 0}}
      bir.collective all_gather %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 2]]>]
        shard_offset affine_map<()[s0] -> (s0 * 2)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
      // expected-error @+1 {{'peer' still mentions the shard id on core 0}}
      bir.sb2sb %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>]
        peer affine_map<()[s0] -> (1 - s0)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
    }
  }
  module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
      bir.collective all_gather %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 2]]>]
        shard_offset affine_map<() -> (2)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
      bir.sb2sb %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>]
        peer affine_map<() -> (0)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
    }
  }
}
