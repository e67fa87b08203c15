// RUN: walrus-opt %s -split-input-file -lnc-split -verify-diagnostics --allow-unregistered-dialect -o /dev/null

// A bir.kernel holds program modules only.
bir.kernel @k {
  // expected-error @+1 {{'test.other' op cannot sit in a bir.kernel}}
  "test.other"() : () -> ()
}

// -----

bir.kernel @k {
  // expected-error @+1 {{'builtin.module' op cannot sit in a bir.kernel: a kernel holds only builtin.modules with bir.funcs}}
  module @empty {
  }
}

// -----

"test.wrapper"() ({
  // expected-error @+1 {{'bir.func' op expects parent op 'builtin.module'}}
  bir.func @main {
  }
}) : () -> ()

// -----

// A kernel module where no pass can put its per-core modules.
"test.wrapper"() ({
  // expected-error @+1 {{kernel module is inside 'test.wrapper': kernels sit in a builtin.module or a bir.kernel}}
  module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
    bir.func @main {
    }
  }
}) : () -> ()

// -----

module @outer {
  bir.func @main {
  }
  // expected-error @+1 {{kernel module is inside another kernel module}}
  module @inner {
    bir.func @main {
    }
  }
}

// -----

// A host that names a bare kernel module would be left dangling.
module @host {
  // expected-error @+1 {{lnc-split: this refers to kernel module @nc_symbolic, which the split replaces by its per-core modules; put the kernel in a bir.kernel, whose symbol stays}}
  "test.launch"() {kernel = @nc_symbolic} : () -> ()
  // expected-note @+1 {{the kernel module}}
  module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
    bir.func @main {
    }
  }
}

// -----

func.func @host() {
  // expected-error @+1 {{'bir.launch' op @missing does not name a bir.kernel}}
  bir.launch @missing() 
  return
}

// -----

func.func @host() {
  // expected-error @+1 {{'bir.launch' op kernel @k has no @main function to bind arguments to}}
  bir.launch @k()
  return
}
bir.kernel @k {
  module {
    bir.func @other {
    }
  }
}

// -----

func.func @host(%x: memref<4x8xf32>) {
  // expected-error @+1 {{'bir.launch' op passes 1 argument(s), but @main of kernel @k has 2 DRAM input(s) and output(s)}}
  bir.launch @k(%x) : memref<4x8xf32>
  return
}
bir.kernel @k {
  module {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<4x8xf32>
      %y = bir.memloc "y" output : !bir.dram<4x8xf32>
      %t = bir.memloc "t" internal : !bir.dram<4x8xf32>
    }
  }
}

// -----

func.func @host(%x: memref<4x8xf32>, %y: memref<32xf16>) {
  // expected-error @+1 {{'bir.launch' op argument #1 ('memref<32xf16>') does not match 'y' of kernel @k ('!bir.dram<4x8xf32>')}}
  bir.launch @k(%x, %y) : memref<4x8xf32>, memref<32xf16>
  return
}
bir.kernel @k {
  module {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<4x8xf32>
      %y = bir.memloc "y" output : !bir.dram<4x8xf32>
    }
  }
}

// -----

func.func @host(%x: memref<?x8xf32>) {
  // expected-error @+1 {{'bir.launch' op argument #0 ('memref<?x8xf32>') does not match 'x' of kernel @k ('!bir.dram<4x8xf32>')}}
  bir.launch @k(%x) : memref<?x8xf32>
  return
}
bir.kernel @k {
  module {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<4x8xf32>
    }
  }
}

// -----

// A strided memref binds the buffer its layout reaches (3 * 16 + 8
// elements here), not its element count.
func.func @host(%x: memref<4x8xf32, strided<[16, 1]>>) {
  // expected-error @+1 {{'bir.launch' op argument #0 ('memref<4x8xf32, strided<[16, 1]>>') does not match 'x' of kernel @k ('!bir.dram<4x8xf32>')}}
  bir.launch @k(%x) : memref<4x8xf32, strided<[16, 1]>>
  return
}
bir.kernel @k {
  module {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<4x8xf32>
    }
  }
}

// -----

func.func @host(%x: memref<4x8xf32, strided<[16, 1]>>) {
  bir.launch @k(%x) : memref<4x8xf32, strided<[16, 1]>>
  return
}
bir.kernel @k {
  module {
    bir.func @main {
      %x = bir.memloc "x" input : !bir.dram<56xf32>
    }
  }
}
