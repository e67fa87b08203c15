#!/usr/bin/env python3
"""Writes whole models in the linalg forms torch-mlir emits, from shapes.

No torch here: each model is written op by op the way torch-mlir's
TorchToLinalg lowers the aten ops a torch module traces to (its forms,
studied from the public torch-mlir tests and lowering patterns):

  - every module declares `ml_program.global private mutable @global_seed`;
  - weights are `arith.constant dense_resource<torch_tensor_...>` blobs (the
    fx importer's form) or splats; `--elide` writes `dense_resource<
    __elided__>`, as `--mlir-elide-resource-strings-if-larger` prints them;
  - aten.linear on 3-D activations is a transpose of the weight, a
    broadcast of it to the batch and linalg.batch_matmul, then the bias;
  - softmax is decomposed (max and sum as keepdim reductions `(.., 0)`);
  - LayerNorm computes its variance in f64; GELU is the erf form; ReLU and
    clamps are cmpf + select; sigmoid is 1 / (1 + exp(-x));
  - convolutions are linalg.conv_2d_nchw_fchw (and depthwise) on a
    tensor.pad'ded input; pools are linalg.pooling_nchw_max and sums;
  - shapes move with tensor.expand_shape / collapse_shape / extract_slice
    / concat and linalg.transpose; static size checks are cf.assert.

  gen_zoo.py MODEL [--size small|real] [--elide] [-o FILE]

MODEL: bert-layer, bert-encoder, llama-layer, resnet18, mobilenetv3-block,
vit. `small` sizes run under the oracle in `make check`; `real` sizes are
the benchmark's (BERT-base at sequence 128, ResNet-18 at 224 x 224).
"""
import argparse
import random
import struct
import sys


def float_text(value):
    """A float literal MLIR parses: `1e-12` needs its `.0`."""
    text = repr(float(value))
    mantissa, _, exponent = text.partition("e")
    if exponent and "." not in mantissa:
        text = f"{mantissa}.0e{exponent}"
    return text


def shape_type(shape, element="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def identity(rank):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def amap(rank, results):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


class Module:
    """One func.func being written: SSA names, weights and their blobs."""

    def __init__(self, name, elide, seed=0):
        self.name, self.elide = name, elide
        self.lines, self.blobs, self.counter = [], {}, 0
        self.random = random.Random(seed)

    def fresh(self, stem="v"):
        self.counter += 1
        return f"%{stem}{self.counter}"

    def emit(self, line):
        self.lines.append("    " + line)

    # -- values -----------------------------------------------------------

    def scalar(self, value, element="f32"):
        name = self.fresh("cst")
        if element.startswith("f"):
            text = "0xFF800000" if value == float("-inf") else float_text(value)
        else:
            text = str(int(value))
        self.emit(f"{name} = arith.constant {text} : {element}")
        return name

    def weight(self, shape, scale=0.5, element="f32"):
        """A weight as torch-mlir's fx importer writes one: a resource blob."""
        count = 1
        for d in shape:
            count *= d
        key = f"torch_tensor_{'_'.join(map(str, shape))}_torch.float32_{len(self.blobs)}"
        if not self.elide:
            values = [self.random.uniform(-scale, scale) for _ in range(count)]
            self.blobs[key] = struct.pack("<I", 4) + struct.pack(f"<{count}f", *values)
        name = self.fresh("w")
        resource = "__elided__" if self.elide else key
        self.emit(f"{name} = arith.constant dense_resource<{resource}> : {shape_type(shape, element)}")
        return name

    def splat(self, shape, value):
        name = self.fresh("splat")
        self.emit(f"{name} = arith.constant dense<{float_text(value)}> : {shape_type(shape)}")
        return name

    def empty(self, shape, element="f32"):
        name = self.fresh("empty")
        self.emit(f"{name} = tensor.empty() : {shape_type(shape, element)}")
        return name

    def filled(self, shape, value, element="f32"):
        init = self.empty(shape, element)
        constant = self.scalar(value, element)
        name = self.fresh("fill")
        self.emit(f"{name} = linalg.fill ins({constant} : {element}) outs({init} : "
                  f"{shape_type(shape, element)}) -> {shape_type(shape, element)}")
        return name

    def generic(self, inputs, out_shape, body, maps=None, iterators=None, init=None,
                out_element="f32"):
        """A linalg.generic; `inputs` are (value, shape, map, element) and
        `body(args, out)` returns (lines, yielded) in terms of block args."""
        rank = len(out_shape)
        iterators = iterators or ["parallel"] * rank
        out_map = maps or identity(len(iterators))
        init = init or self.empty(out_shape, out_element)
        args = [f"%in{i}" for i in range(len(inputs))]
        lines, result = body(args, "%out")
        ins = ", ".join(v for v, _, _, _ in inputs)
        in_types = ", ".join(shape_type(s, e) for _, s, _, e in inputs)
        map_list = ", ".join([m for _, _, m, _ in inputs] + [out_map])
        iterator_list = ", ".join(f'"{i}"' for i in iterators)
        name = self.fresh("g")
        ins_text = f" ins({ins} : {in_types})" if inputs else ""
        self.emit(f"{name} = linalg.generic {{indexing_maps = [{map_list}], "
                  f"iterator_types = [{iterator_list}]}}{ins_text} outs({init} : "
                  f"{shape_type(out_shape, out_element)}) {{")
        block = ", ".join(f"{a}: {e}" for a, (_, _, _, e) in zip(args, inputs))
        self.emit(f"^bb0({block}{', ' if inputs else ''}%out: {out_element}):")
        for line in lines:
            self.emit("  " + line)
        self.emit(f"  linalg.yield {result} : {out_element}")
        self.emit(f"}} -> {shape_type(out_shape, out_element)}")
        return name

    def elementwise(self, values, shape, op_lines, maps=None, elements=None):
        """An all-parallel generic over `shape`; values given with maps."""
        rank = len(shape)
        maps = maps or [identity(rank)] * len(values)
        elements = elements or ["f32"] * len(values)
        inputs = [(v, s, m, e) for (v, s), m, e in zip(values, maps, elements)]
        return self.generic(inputs, shape, op_lines)

    # -- shapes -----------------------------------------------------------

    def transpose(self, value, shape, permutation):
        out_shape = [shape[p] for p in permutation]
        init = self.empty(out_shape)
        name = self.fresh("t")
        self.emit(f"{name} = linalg.transpose ins({value} : {shape_type(shape)}) outs({init} : "
                  f"{shape_type(out_shape)}) permutation = [{', '.join(map(str, permutation))}]")
        return name, out_shape

    def reshape(self, value, shape, out_shape, groups, expand):
        name = self.fresh("r")
        group_text = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups)
        if expand:
            self.emit(f"{name} = tensor.expand_shape {value} [{group_text}] output_shape "
                      f"[{', '.join(map(str, out_shape))}] : {shape_type(shape)} into "
                      f"{shape_type(out_shape)}")
        else:
            self.emit(f"{name} = tensor.collapse_shape {value} [{group_text}] : "
                      f"{shape_type(shape)} into {shape_type(out_shape)}")
        return name

    def slice(self, value, shape, offsets, sizes):
        name = self.fresh("s")
        self.emit(f"{name} = tensor.extract_slice {value}[{', '.join(map(str, offsets))}] "
                  f"[{', '.join(map(str, sizes))}] [{', '.join('1' for _ in sizes)}] : "
                  f"{shape_type(shape)} to {shape_type(sizes)}")
        return name

    def concat(self, values, shapes, dim):
        out_shape = list(shapes[0])
        out_shape[dim] = sum(s[dim] for s in shapes)
        name = self.fresh("cat")
        types = ", ".join(shape_type(s) for s in shapes)
        self.emit(f"{name} = tensor.concat dim({dim}) {', '.join(values)} : ({types}) -> "
                  f"{shape_type(out_shape)}")
        return name, out_shape

    def pad(self, value, shape, low, high, fill):
        out_shape = [d + lo + hi for d, lo, hi in zip(shape, low, high)]
        constant = self.scalar(fill)
        name = self.fresh("pad")
        indices = ", ".join(f"%i{n}: index" for n in range(len(shape)))
        self.emit(f"{name} = tensor.pad {value} low[{', '.join(map(str, low))}] "
                  f"high[{', '.join(map(str, high))}] {{")
        self.emit(f"^bb0({indices}):")
        self.emit(f"  tensor.yield {constant} : f32")
        self.emit(f"}} : {shape_type(shape)} to {shape_type(out_shape)}")
        return name, out_shape

    def size_check(self, lhs, rhs, message):
        a, b = self.scalar(lhs, "index"), self.scalar(rhs, "index")
        cond = self.fresh("eq")
        self.emit(f"{cond} = arith.cmpi eq, {a}, {b} : index")
        self.emit(f'cf.assert {cond}, "{message}"')

    def text(self, arguments, results):
        args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arguments))
        out = ["module {",
               "  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>",
               f"  func.func @{self.name}({args}) -> {results[1]} {{"]
        out += self.lines
        out += [f"    return {results[0]} : {results[1]}", "  }", "}"]
        if self.blobs:
            out += ["{-#", "  dialect_resources: {", "    builtin: {"]
            out += [f'      {key}: "0x{data.hex().upper()}",' for key, data in self.blobs.items()]
            out[-1] = out[-1].rstrip(",")
            out += ["    }", "  }", "#-}"]
        return "\n".join(out) + "\n"


# -- layers ---------------------------------------------------------------


def linear(m, x, shape, out_features, bias=True):
    """aten.linear on [B, S, In]: weight [Out, In] transposed, broadcast to the
    batch, batch_matmul, plus the bias."""
    batch, seq, features = shape
    m.size_check(features, features, "mismatching contracting dimension for aten.linear")
    w = m.weight([out_features, features], scale=features ** -0.5)
    wt, _ = m.transpose(w, [out_features, features], [1, 0])
    wb = m.generic([(wt, [features, out_features], amap(3, ["d1", "d2"]), "f32")],
                   [batch, features, out_features], lambda a, o: ([], a[0]))
    zero = m.filled([batch, seq, out_features], 0.0)
    y = m.fresh("mm")
    m.emit(f"{y} = linalg.batch_matmul ins({x}, {wb} : {shape_type(shape)}, "
           f"{shape_type([batch, features, out_features])}) outs({zero} : "
           f"{shape_type([batch, seq, out_features])}) -> {shape_type([batch, seq, out_features])}")
    out_shape = [batch, seq, out_features]
    if not bias:
        return y, out_shape
    b = m.weight([out_features])
    return m.elementwise([(y, out_shape), (b, [out_features])], out_shape,
                         lambda a, o: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"),
                         maps=[identity(3), amap(3, ["d2"])]), out_shape


def keepdim_reduce(m, x, shape, combine, init_value, element="f32"):
    """A reduction of the last dimension into [..., 1] (torch's keepdim)."""
    rank = len(shape)
    out_shape = shape[:-1] + [1]
    init = m.filled(out_shape, init_value, element)
    out_map = amap(rank, [f"d{i}" for i in range(rank - 1)] + ["0"])
    iterators = ["parallel"] * (rank - 1) + ["reduction"]
    return m.generic([(x, shape, identity(rank), element)], out_shape,
                     lambda a, o: ([f"%r = arith.{combine} {a[0]}, {o} : {element}"], "%r"),
                     maps=out_map, iterators=iterators, init=init, out_element=element)


def keep_map(rank):
    return amap(rank, [f"d{i}" for i in range(rank - 1)] + ["0"])


def softmax(m, x, shape):
    """aten._softmax over the last dimension, decomposed as torch-mlir does."""
    rank = len(shape)
    mx = keepdim_reduce(m, x, shape, "maximumf", float("-inf"))
    e = m.elementwise([(x, shape), (mx, shape[:-1] + [1])], shape,
                      lambda a, o: ([f"%d = arith.subf {a[0]}, {a[1]} : f32",
                                     "%e = math.exp %d : f32"], "%e"),
                      maps=[identity(rank), keep_map(rank)])
    total = keepdim_reduce(m, e, shape, "addf", 0.0)
    return m.elementwise([(e, shape), (total, shape[:-1] + [1])], shape,
                         lambda a, o: ([f"%q = arith.divf {a[0]}, {a[1]} : f32"], "%q"),
                         maps=[identity(rank), keep_map(rank)])


def layer_norm(m, x, shape, eps=1e-12):
    """aten.native_layer_norm: the mean in f32, the variance in f64."""
    rank, width = len(shape), shape[-1]
    total = keepdim_reduce(m, x, shape, "addf", 0.0)
    n32 = m.scalar(float(width))
    sq = m.generic([(x, shape, identity(rank), "f32"), (total, shape[:-1] + [1], keep_map(rank), "f32")],
                   shape, lambda a, o: ([f"%mu = arith.divf {a[1]}, {n32} : f32",
                                          f"%d = arith.subf {a[0]}, %mu : f32",
                                          "%d64 = arith.extf %d : f32 to f64",
                                          "%q = arith.mulf %d64, %d64 : f64"], "%q"),
                   out_element="f64")
    var = keepdim_reduce(m, sq, shape, "addf", 0.0, element="f64")
    n64, e64 = m.scalar(float(width), "f64"), m.scalar(eps, "f64")
    w, b = m.weight([width], 0.2), m.weight([width], 0.2)
    inputs = [(x, shape, identity(rank), "f32"), (total, shape[:-1] + [1], keep_map(rank), "f32"),
              (var, shape[:-1] + [1], keep_map(rank), "f64"),
              (w, [width], amap(rank, [f"d{rank - 1}"]), "f32"),
              (b, [width], amap(rank, [f"d{rank - 1}"]), "f32")]
    return m.generic(inputs, shape, lambda a, o: ([
        f"%mu = arith.divf {a[1]}, {n32} : f32",
        f"%v = arith.divf {a[2]}, {n64} : f64",
        f"%ve = arith.addf %v, {e64} : f64",
        "%vt = arith.truncf %ve : f64 to f32",
        "%r = math.rsqrt %vt : f32",
        f"%d = arith.subf {a[0]}, %mu : f32",
        "%n = arith.mulf %d, %r : f32",
        f"%s = arith.mulf %n, {a[3]} : f32",
        f"%y = arith.addf %s, {a[4]} : f32"], "%y"))


def gelu(m, x, shape):
    half, one, r = m.scalar(0.5), m.scalar(1.0), m.scalar(0.70710678118654752)
    return m.elementwise([(x, shape)], shape, lambda a, o: ([
        f"%h = arith.mulf {a[0]}, {half} : f32",
        f"%s = arith.mulf {a[0]}, {r} : f32",
        "%e = math.erf %s : f32",
        f"%p = arith.addf %e, {one} : f32",
        "%g = arith.mulf %h, %p : f32"], "%g"))


def relu(m, x, shape):
    zero = m.scalar(0.0)
    return m.elementwise([(x, shape)], shape, lambda a, o: ([
        f"%c = arith.cmpf ugt, {a[0]}, {zero} : f32",
        f"%s = arith.select %c, {a[0]}, {zero} : f32"], "%s"))


def add(m, x, y, shape):
    return m.elementwise([(x, shape), (y, shape)], shape,
                         lambda a, o: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"))


def attention(m, x, shape, heads, kv_heads=None, mask=None, rotary=None):
    """Multi-head (or grouped-query) self-attention on [B, S, D]."""
    batch, seq, dim = shape
    kv_heads = kv_heads or heads
    head_dim = dim // heads
    q, _ = linear(m, x, shape, dim, bias=rotary is None)
    k, _ = linear(m, x, shape, kv_heads * head_dim, bias=rotary is None)
    v, _ = linear(m, x, shape, kv_heads * head_dim, bias=rotary is None)

    def heads_first(value, count):
        split = m.reshape(value, [batch, seq, count * head_dim], [batch, seq, count, head_dim],
                          [[0], [1], [2, 3]], expand=True)
        t, t_shape = m.transpose(split, [batch, seq, count, head_dim], [0, 2, 1, 3])
        return t, t_shape

    q4, q_shape = heads_first(q, heads)
    k4, k_shape = heads_first(k, kv_heads)
    v4, _ = heads_first(v, kv_heads)
    if rotary:
        q4 = rotary(q4, q_shape)
        k4 = rotary(k4, k_shape)
    if kv_heads != heads:
        # repeat_kv: expand [B, KVH, 1, S, Dh] to [B, KVH, rep, S, Dh], collapse.
        rep = heads // kv_heads
        def repeat(value):
            five = [batch, kv_heads, rep, seq, head_dim]
            unit = m.reshape(value, [batch, kv_heads, seq, head_dim], [batch, kv_heads, 1, seq, head_dim],
                             [[0], [1, 2], [3], [4]], expand=True)
            b = m.generic([(unit, [batch, kv_heads, 1, seq, head_dim],
                            amap(5, ["d0", "d1", "0", "d3", "d4"]), "f32")], five,
                          lambda a, o: ([], a[0]))
            return m.reshape(b, five, [batch, heads, seq, head_dim], [[0], [1, 2], [3], [4]],
                             expand=False)
        k4, v4 = repeat(k4), repeat(v4)
    flat = [batch * heads, seq, head_dim]
    qf = m.reshape(q4, [batch, heads, seq, head_dim], flat, [[0, 1], [2], [3]], expand=False)
    kf = m.reshape(k4, [batch, heads, seq, head_dim], flat, [[0, 1], [2], [3]], expand=False)
    vf = m.reshape(v4, [batch, heads, seq, head_dim], flat, [[0, 1], [2], [3]], expand=False)
    kt, kt_shape = m.transpose(kf, flat, [0, 2, 1])
    scores_shape = [batch * heads, seq, seq]
    zero = m.filled(scores_shape, 0.0)
    s = m.fresh("scores")
    m.emit(f"{s} = linalg.batch_matmul ins({qf}, {kt} : {shape_type(flat)}, {shape_type(kt_shape)}) "
           f"outs({zero} : {shape_type(scores_shape)}) -> {shape_type(scores_shape)}")
    scale = m.scalar(head_dim ** -0.5)
    if mask:
        scaled = m.elementwise([(s, scores_shape), (mask, [seq, seq])], scores_shape,
                               lambda a, o: ([f"%m = arith.mulf {a[0]}, {scale} : f32",
                                              f"%a = arith.addf %m, {a[1]} : f32"], "%a"),
                               maps=[identity(3), amap(3, ["d1", "d2"])])
    else:
        scaled = m.elementwise([(s, scores_shape)], scores_shape,
                               lambda a, o: ([f"%m = arith.mulf {a[0]}, {scale} : f32"], "%m"))
    p = softmax(m, scaled, scores_shape)
    zero2 = m.filled(flat, 0.0)
    c = m.fresh("ctx")
    m.emit(f"{c} = linalg.batch_matmul ins({p}, {vf} : {shape_type(scores_shape)}, {shape_type(flat)}) "
           f"outs({zero2} : {shape_type(flat)}) -> {shape_type(flat)}")
    c4 = m.reshape(c, flat, [batch, heads, seq, head_dim], [[0, 1], [2], [3]], expand=True)
    ct, _ = m.transpose(c4, [batch, heads, seq, head_dim], [0, 2, 1, 3])
    merged = m.reshape(ct, [batch, seq, heads, head_dim], shape, [[0], [1], [2, 3]], expand=False)
    out, _ = linear(m, merged, shape, dim, bias=rotary is None)
    return out


# -- models ---------------------------------------------------------------


def bert_layer(m, x, shape, heads, ffn):
    a = attention(m, x, shape, heads)
    h = layer_norm(m, add(m, a, x, shape), shape)
    up, up_shape = linear(m, h, shape, ffn)
    down, _ = linear(m, gelu(m, up, up_shape), up_shape, shape[-1])
    return layer_norm(m, add(m, down, h, shape), shape)


def embedding(m, ids, ids_shape, rows, dim):
    table = m.weight([rows, dim])
    out_shape = ids_shape + [dim]
    return m.generic([(ids, ids_shape, amap(3, ["d0", "d1"]), "i64")], out_shape,
                     lambda a, o: ([f"%i = arith.index_cast {a[0]} : i64 to index",
                                    "%j = linalg.index 2 : index",
                                    f"%e = tensor.extract {table}[%i, %j] : {shape_type([rows, dim])}"],
                                   "%e"))


def bert(args, sizes):
    seq, dim, heads, ffn, layers, vocab = sizes
    m = Module("bert_layer" if args.model == "bert-layer" else "bert_encoder", args.elide)
    shape = [1, seq, dim]
    if args.model == "bert-layer":
        out = bert_layer(m, "%arg0", shape, heads, ffn)
        return m.text([shape_type(shape)], (out, shape_type(shape)))
    words = embedding(m, "%arg0", [1, seq], vocab, dim)
    positions = m.weight([1, seq, dim], 0.1)
    types = m.weight([dim], 0.1)
    summed = m.elementwise([(words, shape), (positions, shape), (types, [dim])], shape,
                           lambda a, o: ([f"%s = arith.addf {a[0]}, {a[1]} : f32",
                                          f"%t = arith.addf %s, {a[2]} : f32"], "%t"),
                           maps=[identity(3), identity(3), amap(3, ["d2"])])
    h = layer_norm(m, summed, shape)
    for _ in range(layers):
        h = bert_layer(m, h, shape, heads, ffn)
    return m.text([shape_type([1, seq], "i64")], (h, shape_type(shape)))


def rms_norm(m, x, shape, eps=1e-6):
    rank, width = len(shape), shape[-1]
    sq = m.elementwise([(x, shape)], shape, lambda a, o: ([f"%q = arith.mulf {a[0]}, {a[0]} : f32"], "%q"))
    total = keepdim_reduce(m, sq, shape, "addf", 0.0)
    n, e = m.scalar(float(width)), m.scalar(eps)
    w = m.weight([width], 0.2)
    return m.generic([(x, shape, identity(rank), "f32"),
                      (total, shape[:-1] + [1], keep_map(rank), "f32"),
                      (w, [width], amap(rank, [f"d{rank - 1}"]), "f32")], shape,
                     lambda a, o: ([f"%m = arith.divf {a[1]}, {n} : f32",
                                    f"%me = arith.addf %m, {e} : f32",
                                    "%r = math.rsqrt %me : f32",
                                    f"%y = arith.mulf {a[0]}, %r : f32",
                                    f"%z = arith.mulf %y, {a[2]} : f32"], "%z"))


def llama_layer(args, sizes):
    seq, dim, heads, kv_heads, ffn = sizes
    m = Module("llama_layer", args.elide)
    shape = [1, seq, dim]
    head_dim = dim // heads
    cos = m.weight([seq, head_dim], 1.0)
    sin = m.weight([seq, head_dim], 1.0)
    # The causal mask as torch builds it: a constant of 0 and -inf.
    mask_name = m.fresh("mask")
    rows = ", ".join("[" + ", ".join("0.0" if j <= i else "0xFF800000" for j in range(seq)) + "]"
                     for i in range(seq))
    m.emit(f"{mask_name} = arith.constant dense<[{rows}]> : {shape_type([seq, seq])}")

    def rotary(value, vshape):
        b, h, s, d = vshape
        half = d // 2
        x1 = m.slice(value, vshape, [0, 0, 0, 0], [b, h, s, half])
        x2 = m.slice(value, vshape, [0, 0, 0, half], [b, h, s, half])
        neg = m.elementwise([(x2, [b, h, s, half])], [b, h, s, half],
                            lambda a, o: ([f"%n = arith.negf {a[0]} : f32"], "%n"))
        rotated, _ = m.concat([neg, x1], [[b, h, s, half], [b, h, s, half]], 3)
        return m.elementwise([(value, vshape), (rotated, vshape), (cos, [s, d]), (sin, [s, d])], vshape,
                             lambda a, o: ([f"%c = arith.mulf {a[0]}, {a[2]} : f32",
                                            f"%r = arith.mulf {a[1]}, {a[3]} : f32",
                                            "%y = arith.addf %c, %r : f32"], "%y"),
                             maps=[identity(4), identity(4), amap(4, ["d2", "d3"]), amap(4, ["d2", "d3"])])

    normed = rms_norm(m, "%arg0", shape)
    a = attention(m, normed, shape, heads, kv_heads, mask=mask_name, rotary=rotary)
    h = add(m, a, "%arg0", shape)
    normed2 = rms_norm(m, h, shape)
    gate, up_shape = linear(m, normed2, shape, ffn, bias=False)
    up, _ = linear(m, normed2, shape, ffn, bias=False)
    one = m.scalar(1.0)
    swiglu = m.elementwise([(gate, up_shape), (up, up_shape)], up_shape, lambda a, o: ([
        f"%n = arith.negf {a[0]} : f32", "%e = math.exp %n : f32",
        f"%d = arith.addf %e, {one} : f32", f"%s = arith.divf {one}, %d : f32",
        f"%silu = arith.mulf {a[0]}, %s : f32", f"%y = arith.mulf %silu, {a[1]} : f32"], "%y"))
    down, _ = linear(m, swiglu, up_shape, dim, bias=False)
    out = add(m, down, h, shape)
    return m.text([shape_type(shape)], (out, shape_type(shape)))


def conv(m, x, shape, out_channels, kernel, stride=1, padding=0, groups=1, bias=False):
    """aten.convolution: tensor.pad, then conv_2d_nchw_fchw (or depthwise)."""
    n, c, h, w = shape
    if padding:
        x, shape = m.pad(x, shape, [0, 0, padding, padding], [0, 0, padding, padding], 0.0)
        n, c, h, w = shape
    oh, ow = (h - kernel) // stride + 1, (w - kernel) // stride + 1
    out_shape = [n, out_channels, oh, ow]
    zero = m.filled(out_shape, 0.0)
    name = m.fresh("conv")
    attrs = (f"{{dilations = dense<1> : vector<2xi64>, strides = dense<{stride}> : vector<2xi64>}}")
    if groups == 1:
        wt = m.weight([out_channels, c, kernel, kernel], (c * kernel * kernel) ** -0.5)
        m.emit(f"{name} = linalg.conv_2d_nchw_fchw {attrs} ins({x}, {wt} : {shape_type(shape)}, "
               f"{shape_type([out_channels, c, kernel, kernel])}) outs({zero} : "
               f"{shape_type(out_shape)}) -> {shape_type(out_shape)}")
    else:
        wt = m.weight([c, kernel, kernel], kernel ** -1.0)
        m.emit(f"{name} = linalg.depthwise_conv_2d_nchw_chw {attrs} ins({x}, {wt} : "
               f"{shape_type(shape)}, {shape_type([c, kernel, kernel])}) outs({zero} : "
               f"{shape_type(out_shape)}) -> {shape_type(out_shape)}")
    if bias:
        b = m.weight([out_channels], 0.1)
        name = m.elementwise([(name, out_shape), (b, [out_channels])], out_shape,
                             lambda a, o: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"),
                             maps=[identity(4), amap(4, ["d1"])])
    return name, out_shape


def batch_norm(m, x, shape):
    """aten.batch_norm in eval mode: per-channel statistics and affine."""
    c = shape[1]
    mean, var = m.weight([c], 0.1), m.weight([c], 0.1)
    w, b = m.weight([c], 0.5), m.weight([c], 0.1)
    eps, one = m.scalar(1e-5), m.scalar(1.0)
    per_channel = amap(4, ["d1"])
    return m.elementwise([(x, shape), (mean, [c]), (var, [c]), (w, [c]), (b, [c])], shape,
                         lambda a, o: ([f"%va = math.absf {a[2]} : f32",
                                        f"%vo = arith.addf %va, {one} : f32",
                                        f"%ve = arith.addf %vo, {eps} : f32",
                                        "%sd = math.sqrt %ve : f32",
                                        f"%d = arith.subf {a[0]}, {a[1]} : f32",
                                        "%n = arith.divf %d, %sd : f32",
                                        f"%s = arith.mulf %n, {a[3]} : f32",
                                        f"%y = arith.addf %s, {a[4]} : f32"], "%y"),
                         maps=[identity(4)] + [per_channel] * 4)


def max_pool(m, x, shape, kernel, stride, padding):
    x, shape = m.pad(x, shape, [0, 0, padding, padding], [0, 0, padding, padding], float("-inf"))
    n, c, h, w = shape
    oh, ow = (h - kernel) // stride + 1, (w - kernel) // stride + 1
    out_shape = [n, c, oh, ow]
    init = m.filled(out_shape, float("-inf"))
    window = m.empty([kernel, kernel])
    name = m.fresh("pool")
    m.emit(f"{name} = linalg.pooling_nchw_max {{dilations = dense<1> : vector<2xi64>, strides = "
           f"dense<{stride}> : vector<2xi64>}} ins({x}, {window} : {shape_type(shape)}, "
           f"{shape_type([kernel, kernel])}) outs({init} : {shape_type(out_shape)}) -> "
           f"{shape_type(out_shape)}")
    return name, out_shape


def global_avg_pool(m, x, shape):
    """aten.adaptive_avg_pool2d to 1 x 1: a sum over H and W, then a divide."""
    n, c, h, w = shape
    out_shape = [n, c, 1, 1]
    init = m.filled(out_shape, 0.0)
    total = m.generic([(x, shape, identity(4), "f32")], out_shape,
                      lambda a, o: ([f"%s = arith.addf {a[0]}, {o} : f32"], "%s"),
                      maps=amap(4, ["d0", "d1", "0", "0"]),
                      iterators=["parallel", "parallel", "reduction", "reduction"], init=init)
    count = m.scalar(float(h * w))
    return m.elementwise([(total, out_shape)], out_shape,
                         lambda a, o: ([f"%a = arith.divf {a[0]}, {count} : f32"], "%a")), out_shape


def basic_block(m, x, shape, channels, stride):
    y, y_shape = conv(m, x, shape, channels, 3, stride, 1)
    y = relu(m, batch_norm(m, y, y_shape), y_shape)
    y, y_shape = conv(m, y, y_shape, channels, 3, 1, 1)
    y = batch_norm(m, y, y_shape)
    if stride != 1 or shape[1] != channels:
        x, _ = conv(m, x, shape, channels, 1, stride, 0)
        x = batch_norm(m, x, y_shape)
    return relu(m, add(m, y, x, y_shape), y_shape), y_shape


def classifier(m, pooled, channels, classes):
    flat = m.reshape(pooled, [1, channels, 1, 1], [1, channels], [[0], [1, 2, 3]], expand=False)
    w = m.weight([classes, channels], channels ** -0.5)
    wt, _ = m.transpose(w, [classes, channels], [1, 0])
    zero = m.filled([1, classes], 0.0)
    mm = m.fresh("fc")
    m.emit(f"{mm} = linalg.matmul ins({flat}, {wt} : {shape_type([1, channels])}, "
           f"{shape_type([channels, classes])}) outs({zero} : {shape_type([1, classes])}) -> "
           f"{shape_type([1, classes])}")
    b = m.weight([classes], 0.1)
    return m.elementwise([(mm, [1, classes]), (b, [classes])], [1, classes],
                         lambda a, o: ([f"%s = arith.addf {a[0]}, {a[1]} : f32"], "%s"),
                         maps=[identity(2), amap(2, ["d1"])])


def resnet18(args, sizes):
    image, width, classes = sizes
    m = Module("resnet18", args.elide)
    shape = [1, 3, image, image]
    y, shape = conv(m, "%arg0", shape, width, 7, 2, 3)
    y = relu(m, batch_norm(m, y, shape), shape)
    y, shape = max_pool(m, y, shape, 3, 2, 1)
    for stage, channels in enumerate([width, width * 2, width * 4, width * 8]):
        for block in range(2):
            y, shape = basic_block(m, y, shape, channels, 2 if stage and not block else 1)
    pooled, _ = global_avg_pool(m, y, shape)
    out = classifier(m, pooled, shape[1], classes)
    return m.text([shape_type([1, 3, image, image])], (out, shape_type([1, classes])))


def hard(m, x, shape, swish):
    """torch's hardswish / hardsigmoid: clamp(x + 3, 0, 6) / 6 (times x)."""
    three, zero, six = m.scalar(3.0), m.scalar(0.0), m.scalar(6.0)
    tail = [f"%m = arith.mulf {{x}}, %c2 : f32", "%y = arith.divf %m, {six} : f32"] if swish \
        else ["%y = arith.divf %c2, {six} : f32"]
    return m.elementwise([(x, shape)], shape, lambda a, o: ([
        f"%p = arith.addf {a[0]}, {three} : f32",
        f"%l = arith.cmpf ult, %p, {zero} : f32",
        f"%c1 = arith.select %l, {zero}, %p : f32",
        f"%h = arith.cmpf ugt, %c1, {six} : f32",
        f"%c2 = arith.select %h, {six}, %c1 : f32"] +
        [line.format(x=a[0], six=six) for line in tail], "%y"))


def mobilenet_block(args, sizes):
    image, channels, expanded, squeeze = sizes
    m = Module("mobilenetv3_block", args.elide)
    shape = [1, channels, image, image]
    y, y_shape = conv(m, "%arg0", shape, expanded, 1)
    y = hard(m, batch_norm(m, y, y_shape), y_shape, swish=True)
    y, y_shape = conv(m, y, y_shape, expanded, 3, 1, 1, groups=expanded)
    y = hard(m, batch_norm(m, y, y_shape), y_shape, swish=True)
    pooled, p_shape = global_avg_pool(m, y, y_shape)
    s, s_shape = conv(m, pooled, p_shape, squeeze, 1, bias=True)
    s = relu(m, s, s_shape)
    s, s_shape = conv(m, s, s_shape, expanded, 1, bias=True)
    gate = hard(m, s, s_shape, swish=False)
    scaled = m.elementwise([(y, y_shape), (gate, s_shape)], y_shape,
                           lambda a, o: ([f"%s = arith.mulf {a[0]}, {a[1]} : f32"], "%s"),
                           maps=[identity(4), amap(4, ["d0", "d1", "0", "0"])])
    out, out_shape = conv(m, scaled, y_shape, channels, 1)
    out = add(m, batch_norm(m, out, out_shape), "%arg0", out_shape)
    return m.text([shape_type(shape)], (out, shape_type(shape)))


def vit(args, sizes):
    image, patch, dim, heads, ffn = sizes
    m = Module("vit", args.elide)
    y, y_shape = conv(m, "%arg0", [1, 3, image, image], dim, patch, patch, bias=True)
    patches = (image // patch) ** 2
    flat = m.reshape(y, y_shape, [1, dim, patches], [[0], [1], [2, 3]], expand=False)
    tokens, t_shape = m.transpose(flat, [1, dim, patches], [0, 2, 1])
    cls = m.weight([1, 1, dim], 0.1)
    seq_tokens, shape = m.concat([cls, tokens], [[1, 1, dim], t_shape], 1)
    position = m.weight(shape, 0.1)
    h = add(m, seq_tokens, position, shape)
    a = attention(m, layer_norm(m, h, shape), shape, heads)
    h = add(m, a, h, shape)
    up, up_shape = linear(m, layer_norm(m, h, shape), shape, ffn)
    down, _ = linear(m, gelu(m, up, up_shape), up_shape, dim)
    out = add(m, down, h, shape)
    return m.text([shape_type([1, 3, image, image])], (out, shape_type(shape)))


MODELS = {
    # name: (builder, small sizes, real sizes)
    "bert-layer": (bert, (16, 32, 2, 64, 1, 50), (128, 768, 12, 3072, 1, 30522)),
    "bert-encoder": (bert, (16, 32, 2, 64, 2, 50), (128, 768, 12, 3072, 12, 30522)),
    "llama-layer": (llama_layer, (16, 32, 4, 2, 48), (128, 4096, 32, 8, 11008)),
    "resnet18": (resnet18, (32, 8, 10), (224, 64, 1000)),
    "mobilenetv3-block": (mobilenet_block, (8, 8, 16, 8), (56, 24, 72, 24)),
    "vit": (vit, (16, 4, 32, 2, 64), (224, 16, 768, 12, 3072)),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", choices=sorted(MODELS))
    parser.add_argument("--size", choices=["small", "real"], default="small")
    parser.add_argument("--elide", action="store_true",
                        help="write weights as dense_resource<__elided__> (no data)")
    parser.add_argument("-o", "--output", help="file to write (default: stdout)")
    args = parser.parse_args()
    builder, small, real = MODELS[args.model]
    text = builder(args, small if args.size == "small" else real)
    if args.output:
        with open(args.output, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
