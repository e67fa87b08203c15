// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir -verify-diagnostics

// Every case -convert-linalg-to-bir does not lower is an error at the op
// that names what is not supported; the function is left as it was.

func.func @sine(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'math.sin' in its body}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %l = math.sin %a : f32
    linalg.yield %l : f32
  }
  return
}

// -----

func.func @loop(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' is not supported in a function it lowers}}
  scf.for %i = %c0 to %c1 step %c1 {
  }
  linalg.copy ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>)
  return
}

// -----

func.func @dynamic(%x: memref<?x8xf32>, %y: memref<?x8xf32>) {
  // expected-error @+1 {{'linalg.copy' is not supported with a memref that is not static with evenly strided rows}}
  linalg.copy ins(%x : memref<?x8xf32>) outs(%y : memref<?x8xf32>)
  return
}

// -----

func.func @softmax_rows(%x: memref<8x16xf32>, %y: memref<8x16xf32>) {
  // expected-error @+1 {{'linalg.softmax' is not supported with a softmax along other than the innermost dimension}}
  linalg.softmax dimension(0) ins(%x : memref<8x16xf32>) outs(%y : memref<8x16xf32>)
  return
}

// -----

func.func @on_tensors(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'linalg.copy' is not supported with tensor operands (bufferize first: -one-shot-bufferize="bufferize-function-boundaries")}}
  %r = linalg.copy ins(%x : tensor<8x8xf32>) outs(%y : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

func.func @huge(%x: memref<4611686018427387904x4xf32>, %y: memref<4611686018427387904x4xf32>) {
  // expected-error @+1 {{'linalg.copy' is not supported with a memref of more than 2^48 elements}}
  linalg.copy ins(%x : memref<4611686018427387904x4xf32>) outs(%y : memref<4611686018427387904x4xf32>)
  return
}

// -----

// A generic that writes nothing.
func.func @no_output(%x: memref<8x8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with no output}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) {
  ^bb0(%a: f32):
    linalg.yield
  }
  return
}

// -----

func.func @two_outputs(%x: memref<8x8xf32>, %y: memref<8xf32>, %z: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with more than one output}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x8xf32>) outs(%y, %z : memref<8xf32>, memref<8xf32>) {
  ^bb0(%a: f32, %o: f32, %p: f32):
    %s = arith.addf %a, %o : f32
    %m = arith.maximumf %a, %p : f32
    linalg.yield %s, %m : f32, f32
  }
  return
}

// -----

func.func @wide_rows(%x: memref<4x100000xf32>, %y: memref<4x100000xf32>) {
  // expected-error @+1 {{'linalg.softmax' is not supported with rows of 100000 elements, which do not fit in one SBUF partition}}
  linalg.softmax dimension(1) ins(%x : memref<4x100000xf32>) outs(%y : memref<4x100000xf32>)
  return
}

// -----

// In place, C[m, n] += C[m, k] W[k, n] would read elements already updated.
func.func @matmul_reads_its_output(%w: memref<8x8xf32>, %c: memref<8x8xf32>) {
  // expected-error @+1 {{'linalg.matmul' is not supported with an input that reads the output's buffer other than element for element (linalg leaves the order of such updates to the loop nest)}}
  linalg.matmul ins(%c, %w : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return
}

// -----

// A reduction stores its sums as one contiguous run.
func.func @reduction_into_strided_rows(%x: memref<2x8x8xf32>, %s: memref<2x16xf32>) {
  %rows = memref.subview %s[0, 0] [2, 8] [1, 1] : memref<2x16xf32> to memref<2x8xf32, strided<[16, 1]>>
  // expected-error @+1 {{'linalg.reduce' is not supported with an output that is a strided view}}
  linalg.reduce ins(%x : memref<2x8x8xf32>) outs(%rows : memref<2x8xf32, strided<[16, 1]>>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return
}

// -----

func.func @scalar_argument(%x: memref<8x8xf32>, %s: f32, %y: memref<8x8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with a scalar operand that is not a constant}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x8xf32>, f32) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Comparisons the vector engine has no form for (ordered inequality
// before -normalize-linalg rewrites it, unsigned order) are named with the
// ones that lower.
func.func @ordered_unequal(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.cmpf' one in its body (the ordered and unordered orderings, oeq, une, ord and uno of a value with itself, and the signed integer comparisons lower; -normalize-linalg writes one, ueq, ord and uno as two of them)}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.cmpf one, %a, %zero : f32
    %s = arith.select %p, %zero, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @unsigned_order(%x: memref<8x8xi32>, %y: memref<8x8xi32>) {
  %c = arith.constant 3 : i32
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.cmpi' ult in its body}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xi32>) outs(%y : memref<8x8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %p = arith.cmpi ult, %a, %c : i32
    %s = arith.select %p, %c, %a : i32
    linalg.yield %s : i32
  }
  return
}

// -----

func.func @bitwise_and(%x: memref<8x8xi32>, %y: memref<8x8xi32>) {
  %c = arith.constant 3 : i32
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.andi' on other than i1 in its body}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xi32>) outs(%y : memref<8x8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.andi %a, %c : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// A zero-size memref of rank 1 is refused like those of higher rank.
func.func @empty(%x: memref<0xf32>, %y: memref<0xf32>) {
  // expected-error @+1 {{'linalg.copy' is not supported with a memref of other than whole-byte elements of at most 64 bits or i1, or of no elements}}
  linalg.copy ins(%x : memref<0xf32>) outs(%y : memref<0xf32>)
  return
}

// -----

// linalg the straight-line kernel cannot reach is named, never skipped:
// inside scf.if, inside scf.for, and in a second block.
func.func @in_if(%x: memref<4x4xf32>, %y: memref<4x4xf32>, %c: i1) {
  // expected-note @+1 {{the enclosing op}}
  scf.if %c {
    // expected-error @+1 {{'linalg.copy' is inside 'scf.if': only the linalg ops of the entry block's top level lower (the kernel is straight-line code)}}
    linalg.copy ins(%x : memref<4x4xf32>) outs(%y : memref<4x4xf32>)
  }
  return
}

// -----

func.func @in_for(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  %lo = arith.constant 0 : index
  %hi = arith.constant 4 : index
  %step = arith.constant 1 : index
  // expected-note @+1 {{the enclosing op}}
  scf.for %i = %lo to %hi step %step {
    // expected-error @+1 {{'linalg.copy' is inside 'scf.for'}}
    linalg.copy ins(%x : memref<4x4xf32>) outs(%y : memref<4x4xf32>)
  }
  linalg.copy ins(%x : memref<4x4xf32>) outs(%y : memref<4x4xf32>)
  return
}

// -----

// expected-note @+1 {{the enclosing op}}
func.func @second_block(%x: memref<4x4xf32>, %y: memref<4x4xf32>, %c: i1) {
  cf.cond_br %c, ^copy, ^done
^copy:
  // expected-error @+1 {{'linalg.copy' is in a block other than the function's entry block}}
  linalg.copy ins(%x : memref<4x4xf32>) outs(%y : memref<4x4xf32>)
  cf.br ^done
^done:
  return
}

// -----

// An input that reads the output's own buffer other than element for
// element (found by the mutation driver: each row's first column was read
// after the loop nest would have overwritten it) is named, as are in-place
// transposes and reductions.
func.func @aliased_first_column(%c: memref<130x96xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with an input that reads the output's buffer other than element for element (linalg leaves the order of such updates to the loop nest)}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<130x96xf32>) outs(%c : memref<130x96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

func.func @transpose_in_place(%c: memref<64x64xf32>) {
  // expected-error @+1 {{'linalg.transpose' is not supported with an input in the output's buffer}}
  linalg.transpose ins(%c : memref<64x64xf32>) outs(%c : memref<64x64xf32>) permutation = [1, 0]
  return
}

// -----

// A bounds check the kernel cannot prove at compile time is named (one
// that folds to true is dropped: frontend-forms.mlir).
func.func @checked(%x: memref<8x8xf32>, %y: memref<8x8xf32>, %ok: i1) {
  // expected-error @+1 {{convert-linalg-to-bir: 'cf.assert' whose condition is not known to hold at compile time (the kernel has no assertions): 'index out of range'}}
  cf.assert %ok, "index out of range"
  linalg.copy ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>)
  return
}

// -----

// The general lowering takes indexing maps linear in the loops.
func.func @floordiv_map(%x: memref<4xf32>, %y: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with an indexing map that is not linear in the loops}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i floordiv 2)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

func.func @two_outputs(%x: memref<8x8xf32>, %y: memref<8xf32>, %z: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with more than one output}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x8xf32>) outs(%y, %z : memref<8xf32>, memref<8xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32):
    %0 = arith.maximumf %a, %m : f32
    %1 = arith.addf %a, %s : f32
    linalg.yield %0, %1 : f32, f32
  }
  return
}

// -----

// Every point of a parallel loop writes its own element of the output.
func.func @output_missing_a_loop(%x: memref<8x8xf32>, %y: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with an output that a parallel loop does not index}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A reduction into its own input's buffer.
func.func @reduction_in_place(%x: memref<8x8xf32>) {
  %row = memref.subview %x[0, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1]>>
  // expected-error @+1 {{'linalg.reduce' is not supported with an input that reads the output's buffer other than element for element (linalg leaves the order of such updates to the loop nest)}}
  linalg.reduce ins(%x : memref<8x8xf32>) outs(%row : memref<8xf32, strided<[1]>>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A kernel reads weights; it does not keep state in a mutable global.
memref.global "private" @state : memref<8xf32> = dense<0.0>
func.func @mutable_global(%x: memref<8xf32>, %y: memref<8xf32>) {
  // expected-error @+1 {{'memref.get_global' of @state, which is not a constant global with an initial value (a kernel reads weights, it does not keep state)}}
  %s = memref.get_global @state : memref<8xf32>
  linalg.add ins(%x, %s : memref<8xf32>, memref<8xf32>) outs(%y : memref<8xf32>)
  return
}

// -----

memref.global "private" constant @weights : memref<8xf32> = dense<1.0>
func.func @writes_a_constant(%x: memref<8xf32>) {
  // expected-error @+1 {{a linalg op writes the constant global @weights}}
  %w = memref.get_global @weights : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%w : memref<8xf32>)
  return
}

// -----

func.func @fifth_power(%x: memref<8xf32>, %y: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'math.powf' by other than a constant 1, 2, 3, 4, -1, 0.5 or -0.5}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c5 = arith.constant 5.0 : f32
    %p = math.powf %a, %c5 : f32
    linalg.yield %p : f32
  }
  return
}

// -----

// f64-as-f32 computes f64 intermediates in f32; the host's f64 data would
// have to be converted on the way in.
// expected-error @+1 {{'host_f64_arg0' is an f64 tensor of the host: the engines have no f64, and f64-as-f32 computes only intermediates in f32 (pass f32, or f64-as-f32=false to compute in f64 as the interpreter can)}}
func.func @host_f64(%x: memref<8xf64>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<8xf64>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f64, %o: f32):
    %t = arith.truncf %a : f64 to f32
    linalg.yield %t : f32
  }
  return
}

// -----

// An embedding's ids are read one per output row, contiguous.
func.func @embedding_strided_ids(%ids: memref<4x16xi64>, %table: memref<50x8xf32>, %y: memref<4x8x8xf32>) {
  %every_other = memref.subview %ids[0, 0] [4, 8] [1, 2] : memref<4x16xi64> to memref<4x8xi64, strided<[16, 2]>>
  // expected-error @+1 {{'linalg.generic' is not supported with an operand whose rows are not evenly strided}}
  linalg.generic {indexing_maps = [affine_map<(b, s, d) -> (b, s)>, affine_map<(b, s, d) -> (b, s, d)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%every_other : memref<4x8xi64, strided<[16, 2]>>) outs(%y : memref<4x8x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %column = linalg.index 2 : index
    %v = memref.load %table[%row, %column] : memref<50x8xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// A body that reads a memref other than as an embedding.
func.func @load_elsewhere(%x: memref<8xf32>, %t: memref<8xf32>, %y: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'memref.load' in its body: a read that is neither at an affine function of the loops nor, on tensors before -normalize-linalg, at rows computed from the inputs and loops alone of a table under 2^63 elements (a row read from what the op writes)}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %v = memref.load %t[%i] : memref<8xf32>
    %s = arith.addf %a, %v : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The general lowering's patterns walk forwards.
func.func @backwards(%x: memref<4xf32>, %y: memref<4xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with an indexing map that walks an operand backwards}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (3 - i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// triton-shared's form: the program id is an argument, and the offsets of
// the tile each program reads are computed from it when the host runs.
// The first op that computes from it is named, with the argument.
func.func @triton_program(%in: memref<*xf32>, %out: memref<4x64xf32>, %pid: i32) {
  %c4 = arith.constant 4 : i32
  // expected-error @+1 {{'arith.muli' computes from the function's argument #2 ('i32'), a value known only when the host runs (as a Triton program id): a kernel's shapes and addresses are static; bind such arguments to constants first}}
  %row = arith.muli %pid, %c4 : i32
  %index = arith.index_cast %row : i32 to index
  %view = memref.reinterpret_cast %in to offset: [%index], sizes: [4, 64], strides: [64, 1] : memref<*xf32> to memref<4x64xf32, strided<[64, 1], offset: ?>>
  linalg.copy ins(%view : memref<4x64xf32, strided<[64, 1], offset: ?>>) outs(%out : memref<4x64xf32>)
  return
}

// -----

// An unsigned conversion reads a boolean's byte as its value; of a wider
// integer, stored signed, it would not.
func.func @unsigned_bytes(%x: memref<8xi8>, %y: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.uitofp' of other than i1 in its body}}
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<8xi8>) outs(%y : memref<8xf32>) {
  ^bb0(%a: i8, %o: f32):
    %f = arith.uitofp %a : i8 to f32
    linalg.yield %f : f32
  }
  return
}

// -----

// The engine converts to an integer rounding to nearest: fptosi truncates,
// which -normalize-linalg writes first; without it, a value not known to be
// an integer is refused.
func.func @truncating_conversion(%x: memref<8x8xf32>, %y: memref<8x8xi32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.fptosi' of a value not known to be an integer in its body (outside -normalize-linalg, which truncates it)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xi32>) {
  ^bb0(%a: f32, %o: i32):
    %i = arith.fptosi %a : f32 to i32
    linalg.yield %i : i32
  }
  return
}

// -----

// Unsigned division: the engine divides as the element type's signedness
// says, and a signless i32 is signed.
func.func @unsigned_division(%x: memref<8x8xi32>, %y: memref<8x8xi32>) {
  %c = arith.constant 3 : i32
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.divui' in its body}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xi32>) outs(%y : memref<8x8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %q = arith.divui %a, %c : i32
    linalg.yield %q : i32
  }
  return
}

// -----

// Rounding half away from zero is written with roundeven by
// -normalize-linalg; the lowering alone names it.
func.func @round_half_away(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'math.round' in its body}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.round %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Shifts by a value: the vector engine's bitvec operators are not in the
// dialect (-normalize-linalg writes shifts by constants as products and
// floor quotients).
func.func @shift_left(%x: memref<8x8xi32>, %y: memref<8x8xi32>, %c: i32) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.shli' in its body}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xi32>) outs(%y : memref<8x8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.shli %a, %c : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// trunci wraps where the engine's conversion saturates: only a value the
// range analysis bounds within the narrower type converts.
func.func @wrapping_truncation(%x: memref<8x8xi32>, %y: memref<8x8xi8>) {
  // expected-error @+1 {{'linalg.generic' is not supported with 'arith.trunci' of a value upstream's integer range analysis does not bound within 8 signed bits in its body (the engine's conversion saturates where trunci wraps)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xi32>) outs(%y : memref<8x8xi8>) {
  ^bb0(%a: i32, %o: i8):
    %t = arith.trunci %a : i32 to i8
    linalg.yield %t : i8
  }
  return
}
