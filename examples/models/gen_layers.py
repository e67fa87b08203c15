#!/usr/bin/env python3
"""Writes real model layers in linalg on tensors, from their shapes.

    python3 examples/models/gen_layers.py decoder --seq 2048 --hidden 4096 \
        --heads 32 --ffn 11008 > decoder.mlir
    python3 examples/models/gen_layers.py mlp --seq 2048 --hidden 4096 --ffn 16384
    python3 examples/models/gen_layers.py conv --seq 2048 --hidden 1024 --taps 3

Layers (f32, one function each, the form torch-mlir or StableHLO-to-linalg
produce after fusion of elementwise ops into linalg.generic):
  decoder  LLaMA-style transformer decoder layer: RMSNorm, Q/K/V
           projections, per head (column slices) scaled dot-product
           attention with softmax (no causal mask), output projection,
           residual, RMSNorm, SwiGLU MLP, residual;
  mlp      x W1 + b1, GELU (tanh form), W2 + b2, residual;
  conv     1-D convolution block: a `taps`-tap convolution over time as
           matmuls on shifted slices, bias, ReLU, a pointwise (1x1)
           convolution, residual.
With --reference, the softmax is written out (reduce max, subtract, exp,
reduce add, divide): the form upstream MLIR lowers to LLVM, for the oracle.
"""
import argparse
import sys


class Writer:
    """SSA names, tensor types and the linalg ops the layers use."""

    def __init__(self):
        self.lines = []
        self.count = 0

    def name(self, stem):
        self.count += 1
        return f"%v{stem}{self.count}"

    @staticmethod
    def type(shape):
        return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"

    def emit(self, line):
        self.lines.append("  " + line)

    def empty(self, shape):
        value = self.name("e")
        self.emit(f"{value} = tensor.empty() : {self.type(shape)}")
        return value

    def fill(self, shape, constant):
        value = self.name("f")
        self.emit(f"{value} = linalg.fill ins({constant} : f32) outs({self.empty(shape)} : "
                  f"{self.type(shape)}) -> {self.type(shape)}")
        return value

    def generic(self, inputs, out_shape, body, maps=None):
        """An all-parallel generic: inputs are (value, shape, map) with the
        map's results over d0..; body is a list of lines using %a0, %a1...
        and yielding %r."""
        rank = len(out_shape)
        dims = ", ".join(f"d{i}" for i in range(rank))
        identity = f"affine_map<({dims}) -> ({dims})>"
        in_maps = [f"affine_map<({dims}) -> ({m})>" for _, _, m in inputs]
        value = self.name("g")
        ins = ", ".join(v for v, _, _ in inputs)
        in_types = ", ".join(self.type(s) for _, s, _ in inputs)
        args = ", ".join(f"%a{i}: f32" for i in range(len(inputs)))
        all_maps = ", ".join(in_maps + [identity])
        iterators = ", ".join(['"parallel"'] * rank)
        self.emit(f"{value} = linalg.generic {{indexing_maps = [{all_maps}], "
                  f"iterator_types = [{iterators}]}} "
                  f"ins({ins} : {in_types}) outs({self.empty(out_shape)} : {self.type(out_shape)}) {{")
        self.emit(f"^bb0({args}, %out: f32):")
        for line in body:
            self.emit("  " + line)
        self.emit("  linalg.yield %r : f32")
        self.emit(f"}} -> {self.type(out_shape)}")
        return value

    def row_reduce(self, value, shape, combiner, init):
        """Reduces the innermost dimension."""
        out_shape = shape[:-1]
        result = self.name("red")
        self.emit(f"{result} = linalg.reduce ins({value} : {self.type(shape)}) "
                  f"outs({self.fill(out_shape, init)} : {self.type(out_shape)}) "
                  f"dimensions = [{len(shape) - 1}]")
        self.emit("  (%in: f32, %acc: f32) {")
        self.emit(f"    %c = {combiner} %in, %acc : f32")
        self.emit("    linalg.yield %c : f32")
        self.emit("  }")
        return result

    def matmul(self, a, a_shape, b, b_shape, transpose_b=False):
        m = a_shape[0]
        n = b_shape[0] if transpose_b else b_shape[1]
        out = self.fill([m, n], "%zero")
        value = self.name("mm")
        maps = ""
        if transpose_b:
            maps = ("indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
                    "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ")
        self.emit(f"{value} = linalg.matmul {maps}ins({a}, {b} : {self.type(a_shape)}, "
                  f"{self.type(b_shape)}) outs({out} : {self.type([m, n])}) -> {self.type([m, n])}")
        return value

    def batch_matmul(self, a, a_shape, b, b_shape, out_shape, a_map, b_map):
        out = self.fill(out_shape, "%zero")
        value = self.name("bmm")
        self.emit(f"{value} = linalg.batch_matmul indexing_maps = ["
                  f"affine_map<(b, m, n, k) -> ({a_map})>, affine_map<(b, m, n, k) -> ({b_map})>, "
                  f"affine_map<(b, m, n, k) -> (b, m, n)>] ins({a}, {b} : {self.type(a_shape)}, "
                  f"{self.type(b_shape)}) outs({out} : {self.type(out_shape)}) -> "
                  f"{self.type(out_shape)}")
        return value

    def softmax(self, value, shape, reference):
        if not reference:
            result = self.name("sm")
            self.emit(f"{result} = linalg.softmax dimension({len(shape) - 1}) ins({value} : "
                      f"{self.type(shape)}) outs({self.empty(shape)} : {self.type(shape)}) -> "
                      f"{self.type(shape)}")
            return result
        rows = ", ".join(f"d{i}" for i in range(len(shape) - 1))
        full = ", ".join(f"d{i}" for i in range(len(shape)))
        high = self.row_reduce(value, shape, "arith.maximumf", "%lowest")
        exps = self.generic([(value, shape, full), (high, shape[:-1], rows)], shape,
                            ["%s = arith.subf %a0, %a1 : f32", "%r = math.exp %s : f32"])
        total = self.row_reduce(exps, shape, "arith.addf", "%zero")
        return self.generic([(exps, shape, full), (total, shape[:-1], rows)], shape,
                            ["%r = arith.divf %a0, %a1 : f32"])

    def rms_norm(self, x, seq, hidden, gain):
        squares = self.generic([(x, [seq, hidden], "d0, d1")], [seq, hidden],
                               ["%r = arith.mulf %a0, %a0 : f32"])
        total = self.row_reduce(squares, [seq, hidden], "arith.addf", "%zero")
        scale = self.generic([(total, [seq], "d0")], [seq],
                             [f"%m = arith.mulf %a0, %inv_hidden : f32",
                              "%s = arith.addf %m, %eps : f32", "%r = math.rsqrt %s : f32"])
        return self.generic([(x, [seq, hidden], "d0, d1"), (scale, [seq], "d0"),
                             (gain, [hidden], "d1")], [seq, hidden],
                            ["%s = arith.mulf %a0, %a1 : f32", "%r = arith.mulf %s, %a2 : f32"])

    def add(self, x, y, shape):
        dims = ", ".join(f"d{i}" for i in range(len(shape)))
        return self.generic([(x, shape, dims), (y, shape, dims)], shape,
                            ["%r = arith.addf %a0, %a1 : f32"])


def constants(writer, hidden):
    writer.emit("%zero = arith.constant 0.0 : f32")
    writer.emit("%one = arith.constant 1.0 : f32")
    writer.emit("%lowest = arith.constant -3.0e38 : f32")
    writer.emit("%eps = arith.constant 1.0e-5 : f32")
    writer.emit(f"%inv_hidden = arith.constant {1.0 / hidden!r} : f32")


def function(name, arguments, result_shape, writer, result):
    signature = ", ".join(f"%{n}: {Writer.type(s)}" for n, s in arguments)
    head = f"func.func @{name}({signature}) -> {Writer.type(result_shape)} {{"
    return "\n".join([head, *writer.lines, f"  return {result} : {Writer.type(result_shape)}",
                      "}"])


def decoder(args):
    seq, hidden, heads, ffn = args.seq, args.hidden, args.heads, args.ffn
    head_dim = hidden // heads
    if head_dim * heads != hidden:
        sys.exit("hidden must be a multiple of heads")
    w = Writer()
    constants(w, hidden)
    w.emit(f"%scale = arith.constant {head_dim ** -0.5!r} : f32")
    xn = w.rms_norm("%x", seq, hidden, "%g1")
    q = w.matmul(xn, [seq, hidden], "%wq", [hidden, hidden])
    # The attention scale folded into q, as most implementations do.
    q = w.generic([(q, [seq, hidden], "d0, d1")], [seq, hidden],
                  ["%r = arith.mulf %a0, %scale : f32"])
    k = w.matmul(xn, [seq, hidden], "%wk", [hidden, hidden])
    v = w.matmul(xn, [seq, hidden], "%wv", [hidden, hidden])
    # Heads are column slices of q, k, v; each head's context goes into its
    # columns of the context.
    context = w.empty([seq, hidden])
    for head in range(heads):
        slices = []
        for source in (q, k, v):
            part = w.name("h")
            w.emit(f"{part} = tensor.extract_slice {source}[0, {head * head_dim}] "
                   f"[{seq}, {head_dim}] [1, 1] : {w.type([seq, hidden])} to "
                   f"{w.type([seq, head_dim])}")
            slices.append(part)
        qh, kh, vh = slices
        scores = w.matmul(qh, [seq, head_dim], kh, [seq, head_dim], transpose_b=True)
        probs = w.softmax(scores, [seq, seq], args.reference)
        ctx = w.matmul(probs, [seq, seq], vh, [seq, head_dim])
        placed = w.name("ctx")
        w.emit(f"{placed} = tensor.insert_slice {ctx} into {context}[0, {head * head_dim}] "
               f"[{seq}, {head_dim}] [1, 1] : {w.type([seq, head_dim])} into "
               f"{w.type([seq, hidden])}")
        context = placed
    out = w.matmul(context, [seq, hidden], "%wo", [hidden, hidden])
    h = w.add("%x", out, [seq, hidden])
    hn = w.rms_norm(h, seq, hidden, "%g2")
    gate = w.matmul(hn, [seq, hidden], "%w1", [hidden, ffn])
    up = w.matmul(hn, [seq, hidden], "%w3", [hidden, ffn])
    swiglu = w.generic([(gate, [seq, ffn], "d0, d1"), (up, [seq, ffn], "d0, d1")], [seq, ffn],
                       ["%n = arith.negf %a0 : f32", "%e = math.exp %n : f32",
                        "%d = arith.addf %one, %e : f32", "%s = arith.divf %one, %d : f32",
                        "%silu = arith.mulf %a0, %s : f32", "%r = arith.mulf %silu, %a1 : f32"])
    down = w.matmul(swiglu, [seq, ffn], "%w2", [ffn, hidden])
    y = w.add(h, down, [seq, hidden])
    square = [hidden, hidden]
    arguments = [("x", [seq, hidden]), ("g1", [hidden]), ("wq", square), ("wk", square),
                 ("wv", square), ("wo", square), ("g2", [hidden]),
                 ("w1", [hidden, ffn]), ("w3", [hidden, ffn]), ("w2", [ffn, hidden])]
    return function(args.name or "decoder", arguments, [seq, hidden], w, y)


def mlp(args):
    seq, hidden, ffn = args.seq, args.hidden, args.ffn
    w = Writer()
    constants(w, hidden)
    w.emit("%half = arith.constant 0.5 : f32")
    w.emit("%c0 = arith.constant 0.7978845608 : f32")
    w.emit("%c1 = arith.constant 0.044715 : f32")
    a = w.matmul("%x", [seq, hidden], "%w1", [hidden, ffn])
    act = w.generic([(a, [seq, ffn], "d0, d1"), ("%b1", [ffn], "d1")], [seq, ffn],
                    ["%z = arith.addf %a0, %a1 : f32", "%z3 = arith.mulf %z, %z : f32",
                     "%z3b = arith.mulf %z3, %z : f32", "%k = arith.mulf %z3b, %c1 : f32",
                     "%i = arith.addf %z, %k : f32", "%u = arith.mulf %i, %c0 : f32",
                     "%t = math.tanh %u : f32", "%p = arith.addf %t, %one : f32",
                     "%h = arith.mulf %z, %half : f32", "%r = arith.mulf %h, %p : f32"])
    b = w.matmul(act, [seq, ffn], "%w2", [ffn, hidden])
    y = w.generic([(b, [seq, hidden], "d0, d1"), ("%b2", [hidden], "d1"),
                   ("%x", [seq, hidden], "d0, d1")], [seq, hidden],
                  ["%s = arith.addf %a0, %a1 : f32", "%r = arith.addf %s, %a2 : f32"])
    arguments = [("x", [seq, hidden]), ("w1", [hidden, ffn]), ("b1", [ffn]),
                 ("w2", [ffn, hidden]), ("b2", [hidden])]
    return function(args.name or "mlp", arguments, [seq, hidden], w, y)


def conv(args):
    seq, hidden, taps = args.seq, args.hidden, args.taps
    w = Writer()
    constants(w, hidden)
    padded = seq + taps - 1
    out = w.fill([seq, hidden], "%zero")
    for tap in range(taps):
        window = w.name("win")
        w.emit(f"{window} = tensor.extract_slice %x[{tap}, 0] [{seq}, {hidden}] [1, 1] : "
               f"{w.type([padded, hidden])} to {w.type([seq, hidden])}")
        kernel = w.name("k")
        w.emit(f"{kernel} = tensor.extract_slice %w[{tap}, 0, 0] [1, {hidden}, {hidden}] "
               f"[1, 1, 1] : {w.type([taps, hidden, hidden])} to {w.type([hidden, hidden])}")
        summed = w.name("c")
        w.emit(f"{summed} = linalg.matmul ins({window}, {kernel} : {w.type([seq, hidden])}, "
               f"{w.type([hidden, hidden])}) outs({out} : {w.type([seq, hidden])}) -> "
               f"{w.type([seq, hidden])}")
        out = summed
    relu = w.generic([(out, [seq, hidden], "d0, d1"), ("%b", [hidden], "d1")], [seq, hidden],
                     ["%s = arith.addf %a0, %a1 : f32", "%r = arith.maximumf %s, %zero : f32"])
    point = w.matmul(relu, [seq, hidden], "%p", [hidden, hidden])
    centre = w.name("mid")
    w.emit(f"{centre} = tensor.extract_slice %x[{taps // 2}, 0] [{seq}, {hidden}] [1, 1] : "
           f"{w.type([padded, hidden])} to {w.type([seq, hidden])}")
    y = w.add(point, centre, [seq, hidden])
    arguments = [("x", [padded, hidden]), ("w", [taps, hidden, hidden]), ("b", [hidden]),
                 ("p", [hidden, hidden])]
    return function(args.name or "conv", arguments, [seq, hidden], w, y)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("layer", choices=["decoder", "mlp", "conv"])
    parser.add_argument("--seq", type=int, default=72)
    parser.add_argument("--hidden", type=int, default=96)
    parser.add_argument("--heads", type=int, default=2)
    parser.add_argument("--ffn", type=int, default=160)
    parser.add_argument("--taps", type=int, default=3)
    parser.add_argument("--name", help="function name (default: the layer's)")
    parser.add_argument("--reference", action="store_true",
                        help="write softmax out in upstream-lowerable ops")
    args = parser.parse_args()
    layer = {"decoder": decoder, "mlp": mlp, "conv": conv}[args.layer]
    print(f"// python3 examples/models/gen_layers.py {' '.join(sys.argv[1:])}")
    print(layer(args))


if __name__ == "__main__":
    main()
