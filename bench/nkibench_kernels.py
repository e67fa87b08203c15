"""NKIBench's kernels in the linalg forms torch-mlir emits.

Each writer takes the problem's sizes (NKIBench/summary.json's names:
M, N, K, ...) and writes `@forward` over the reference's inputs, in the
order its get_inputs() returns them, op by op as torch-mlir's
TorchToLinalg lowers the aten ops the PyTorch form of the reference traces
to: one linalg.generic per elementwise op (scalars as captured
arith.constant, keepdim reductions into `[.., 1]` read through a `0` map),
linalg.fill + linalg.matmul / batch_matmul, linalg.transpose, slices and
concatenation, expand/collapse_shape. The building blocks are
examples/zoo/gen_zoo.py's. A float argument of the reference (an
epsilon) is a constant, as torch-mlir folds a Python scalar.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "zoo"))
import gen_zoo as z  # noqa: E402
from gen_zoo import amap, identity, shape_type  # noqa: E402


def unary(m, x, shape, line):
    """An elementwise op of one operand; `line` formats `{0}`."""
    return m.elementwise([(x, shape)], shape, lambda a, o: ([f"%r = {line.format(a[0])} : f32"], "%r"))


def binary(m, x, y, shape, op, y_shape=None, y_map=None):
    """`x op y`, y broadcast through `y_map` where given."""
    maps = [identity(len(shape)), y_map or identity(len(shape))]
    return m.elementwise([(x, shape), (y, y_shape or shape)], shape,
                         lambda a, o: ([f"%r = arith.{op} {a[0]}, {a[1]} : f32"], "%r"), maps=maps)


def with_scalar(m, x, shape, op, value, scalar_first=False):
    """`x op c` (or `c op x`) with c a captured constant."""
    c = m.scalar(value)
    return m.elementwise([(x, shape)], shape, lambda a, o: (
        [f"%r = arith.{op} {c if scalar_first else a[0]}, {a[0] if scalar_first else c} : f32"], "%r"))


def matmul(m, a, b, rows, inner, columns):
    zero = m.filled([rows, columns], 0.0)
    name = m.fresh("mm")
    m.emit(f"{name} = linalg.matmul ins({a}, {b} : {shape_type([rows, inner])}, "
           f"{shape_type([inner, columns])}) outs({zero} : {shape_type([rows, columns])}) -> "
           f"{shape_type([rows, columns])}")
    return name


def batch_matmul(m, a, b, batch, rows, inner, columns):
    out = [batch, rows, columns]
    zero = m.filled(out, 0.0)
    name = m.fresh("bmm")
    m.emit(f"{name} = linalg.batch_matmul ins({a}, {b} : {shape_type([batch, rows, inner])}, "
           f"{shape_type([batch, inner, columns])}) outs({zero} : {shape_type(out)}) -> "
           f"{shape_type(out)}")
    return name


def sigmoid_gate(m, x, shape):
    """x / (1 + exp(-x)): aten.neg, aten.exp, aten.add.Scalar, aten.div."""
    e = unary(m, unary(m, x, shape, "arith.negf {0}"), shape, "math.exp {0}")
    return binary(m, x, with_scalar(m, e, shape, "addf", 1.0, scalar_first=True), shape, "divf")


def rms_of_sum(m, total, rows):
    """sqrt over the [rows, 1] sum."""
    return unary(m, total, [rows, 1], "math.sqrt {0}")


def silu(s):
    m, shape = z.Module("forward", False), [s["M"], s["N"]]
    return m, [shape], sigmoid_gate(m, "%arg0", shape), shape


def adamw(s):
    m, shape = z.Module("forward", False), [s["M"], s["N"]]
    theta, g, mom, vel = "%arg0", "%arg1", "%arg2", "%arg3"
    theta_t = binary(m, theta, with_scalar(m, theta, shape, "mulf", 1e-5, True), shape, "subf")
    m_t = binary(m, with_scalar(m, mom, shape, "mulf", 0.9, True),
                 with_scalar(m, g, shape, "mulf", 0.1, True), shape, "addf")
    g2 = binary(m, with_scalar(m, g, shape, "mulf", 0.001, True), g, shape, "mulf")
    v_t = binary(m, with_scalar(m, vel, shape, "mulf", 0.999, True), g2, shape, "addf")
    v_hat = with_scalar(m, v_t, shape, "mulf", 1000.0)
    denom = with_scalar(m, unary(m, v_hat, shape, "math.sqrt {0}"), shape, "addf", 1e-8)
    step = binary(m, with_scalar(m, m_t, shape, "mulf", 0.01, True), denom, shape, "divf")
    return m, [shape] * 4, binary(m, theta_t, step, shape, "subf"), shape


def rope_single_freq_apply(s):
    m = z.Module("forward", False)
    width, half = s["B"] * s["H"] * s["N"], s["D"] // 2
    x_shape, h_shape = [s["D"], width], [half, width]
    cos, sin = "%arg1", "%arg2"
    x0 = m.slice("%arg0", x_shape, [0, 0], h_shape)
    x1 = m.slice("%arg0", x_shape, [half, 0], h_shape)
    out0 = binary(m, binary(m, x0, cos, h_shape, "mulf"), binary(m, x1, sin, h_shape, "mulf"),
                  h_shape, "subf")
    out1 = binary(m, binary(m, x0, sin, h_shape, "mulf"), binary(m, x1, cos, h_shape, "mulf"),
                  h_shape, "addf")
    out, _ = m.concat([out0, out1], [h_shape, h_shape], 0)
    return m, [x_shape, h_shape, h_shape], out, x_shape


def matmul_kernel(s):
    m = z.Module("forward", False)
    return m, [[s["M"], s["K"]], [s["K"], s["N"]]], \
        matmul(m, "%arg0", "%arg1", s["M"], s["K"], s["N"]), [s["M"], s["N"]]


def transpose_matmul(s):
    m = z.Module("forward", False)
    lhs_t, _ = m.transpose("%arg0", [s["K"], s["M"]], [1, 0])
    return m, [[s["K"], s["M"]], [s["K"], s["N"]]], \
        matmul(m, lhs_t, "%arg1", s["M"], s["K"], s["N"]), [s["M"], s["N"]]


def bmm(s):
    m = z.Module("forward", False)
    b, rows, inner, cols = s["B"], s["M"], s["K"], s["N"]
    return m, [[b, rows, inner], [b, inner, cols]], \
        batch_matmul(m, "%arg0", "%arg1", b, rows, inner, cols), [b, rows, cols]


def bmm_softmax(s):
    m = z.Module("forward", False)
    b, rows, inner, cols = s["B"], s["M"], s["K"], s["N"]
    scores = batch_matmul(m, "%arg0", "%arg1", b, rows, inner, cols)
    return m, [[b, rows, inner], [b, inner, cols]], \
        z.softmax(m, scores, [b, rows, cols]), [b, rows, cols]


def rms_normalized(m, y, rows, width, eps=None, squares="mulf"):
    """y / sqrt(sum(y^2 / width) + eps), row by row: aten.square (or
    aten.pow 2), aten.div by the width, aten.sum keepdim, aten.sqrt."""
    shape = [rows, width]
    if squares == "mulf":
        sq = binary(m, y, y, shape, "mulf")
    else:
        two = m.scalar(2.0)
        sq = m.elementwise([(y, shape)], shape,
                           lambda a, o: ([f"%r = math.powf {a[0]}, {two} : f32"], "%r"))
    total = z.keepdim_reduce(m, with_scalar(m, sq, shape, "divf", float(width)), shape, "addf", 0.0)
    if eps is not None:
        total = with_scalar(m, total, [rows, 1], "addf", eps)
    return binary(m, y, rms_of_sum(m, total, rows), shape, "divf", [rows, 1], z.keep_map(2))


def rmsnorm_matmul(s):
    m = z.Module("forward", False)
    rows, width, cols = s["M"], s["K"], s["N"]
    normalized = rms_normalized(m, "%arg0", rows, width)
    return m, [[rows, width], [width, cols]], \
        matmul(m, normalized, "%arg1", rows, width, cols), [rows, cols]


def add_rmsnorm_matmul(s):
    m = z.Module("forward", False)
    rows, width, cols = s["M"], s["K"], s["N"]
    shape = [rows, width]
    y = binary(m, "%arg0", "%arg2", shape, "addf")
    normalized = rms_normalized(m, y, rows, width, eps=1e-5)
    scaled = binary(m, normalized, "%arg3", shape, "mulf", [width], amap(2, ["d1"]))
    return m, [shape, [width, cols], shape, [width]], \
        matmul(m, scaled, "%arg1", rows, width, cols), [rows, cols]


def matmul_add_rmsnorm(s):
    m = z.Module("forward", False)
    rows, inner, cols = s["M"], s["K"], s["N"]
    shape = [rows, cols]
    y = binary(m, matmul(m, "%arg0", "%arg1", rows, inner, cols), "%arg2", shape, "addf")
    # y * g / sqrt(mean(y ** 2) + eps): aten.pow, aten.mean (sum, divide).
    two = m.scalar(2.0)
    sq = m.elementwise([(y, shape)], shape, lambda a, o: ([f"%r = math.powf {a[0]}, {two} : f32"], "%r"))
    mean = with_scalar(m, z.keepdim_reduce(m, sq, shape, "addf", 0.0), [rows, 1], "divf", float(cols))
    rms = rms_of_sum(m, with_scalar(m, mean, [rows, 1], "addf", 1e-5), rows)
    scaled = binary(m, y, "%arg3", shape, "mulf", [cols], amap(2, ["d1"]))
    out = binary(m, scaled, rms, shape, "divf", [rows, 1], z.keep_map(2))
    return m, [[rows, inner], [inner, cols], shape, [cols]], out, shape


def swiglu(s):
    m = z.Module("forward", False)
    rows, inner, hidden = s["M"], s["K"], s["N"]
    up = matmul(m, "%arg0", "%arg1", rows, inner, hidden)
    gate = matmul(m, "%arg0", "%arg3", rows, inner, hidden)
    product = binary(m, sigmoid_gate(m, gate, [rows, hidden]), up, [rows, hidden], "mulf")
    return m, [[rows, inner], [inner, hidden], [hidden, inner], [inner, hidden]], \
        matmul(m, product, "%arg2", rows, hidden, inner), [rows, inner]


def lora(s):
    m = z.Module("forward", False)
    rows, inner, cols, rank = s["M"], s["K"], s["N"], s["R"]
    y1 = matmul(m, "%arg0", "%arg1", rows, inner, cols)
    y2 = matmul(m, matmul(m, "%arg0", "%arg2", rows, inner, rank), "%arg3", rows, rank, cols)
    return m, [[rows, inner], [inner, cols], [inner, rank], [rank, cols]], \
        binary(m, y1, y2, [rows, cols], "addf"), [rows, cols]


def gqa_full(s):
    """repeat_kv (expand to [B, N, KH, rep, D], collapse), heads first,
    scores over sqrt(D), decomposed softmax, context: 4-D matmuls as
    batch_matmul over the collapsed batch and heads."""
    m = z.Module("forward", False)
    b, n, qh, kh, d = s["B"], s["N"], s["QH"], s["KH"], s["D"]
    rep = qh // kh
    q_shape, kv_shape = [b, n, qh, d], [b, n, kh, d]

    def repeat(value):
        unit = m.reshape(value, kv_shape, [b, n, kh, 1, d], [[0], [1], [2, 3], [4]], expand=True)
        five = [b, n, kh, rep, d]
        wide = m.generic([(unit, [b, n, kh, 1, d], amap(5, ["d0", "d1", "d2", "0", "d4"]), "f32")],
                         five, lambda a, o: ([], a[0]))
        return m.reshape(wide, five, q_shape, [[0], [1], [2, 3], [4]], expand=False)

    def heads_first(value):
        t, _ = m.transpose(value, q_shape, [0, 2, 1, 3])
        return m.reshape(t, [b, qh, n, d], [b * qh, n, d], [[0, 1], [2], [3]], expand=False)

    q, k, v = heads_first("%arg0"), heads_first(repeat("%arg1")), heads_first(repeat("%arg2"))
    kt, _ = m.transpose(k, [b * qh, n, d], [0, 2, 1])
    scores = batch_matmul(m, q, kt, b * qh, n, d, n)
    scaled = with_scalar(m, scores, [b * qh, n, n], "divf", float(d) ** 0.5)
    probs = z.softmax(m, scaled, [b * qh, n, n])
    context = batch_matmul(m, probs, v, b * qh, n, n, d)
    out = m.reshape(context, [b * qh, n, d], [b, qh, n, d], [[0, 1], [2], [3]], expand=True)
    return m, [q_shape, kv_shape, kv_shape], out, [b, qh, n, d]


KERNELS = {
    "silu": silu, "adamw": adamw, "rope_single_freq_apply": rope_single_freq_apply,
    "matmul": matmul_kernel, "transpose_matmul": transpose_matmul, "bmm": bmm,
    "bmm_softmax": bmm_softmax, "rmsnorm_matmul": rmsnorm_matmul,
    "add_rmsnorm_matmul": add_rmsnorm_matmul, "matmul_add_rmsnorm": matmul_add_rmsnorm,
    "swiglu": swiglu, "lora": lora, "gqa_full": gqa_full,
}

# Not written: mamba's selective scan is a loop over the sequence in
# PyTorch, which torch-mlir unrolls into one op per step (7168 here).
NOT_WRITTEN = {"mamba": "a scan over 7168 steps, which torch-mlir unrolls op by op"}


def write(problem, sizes):
    """The module's text and its argument and result shapes."""
    m, arguments, result, result_shape = KERNELS[problem](sizes)
    text = m.text([shape_type(a) for a in arguments], (result, shape_type(result_shape)))
    return text, arguments, result_shape


def main():
    import argparse
    parser = argparse.ArgumentParser(description="Writes one NKIBench problem as torch-mlir emits it.")
    parser.add_argument("problem", choices=sorted(KERNELS))
    parser.add_argument("--sizes", required=True, help="name=value,... (NKIBench/summary.json's names)")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    sizes = {k: int(v) for k, v in (item.split("=") for item in args.sizes.split(",") if item)}
    text, _, _ = write(args.problem, sizes)
    (sys.stdout if args.output == "-" else open(args.output, "w")).write(text)


if __name__ == "__main__":
    main()
