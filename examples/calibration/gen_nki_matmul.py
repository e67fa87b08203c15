#!/usr/bin/env python3
"""The NKI matrix multiplication tutorial's kernels, written in bir.

The tutorial (aws-neuron-sdk, nki/guides/tutorials/matrix_multiplication.rst
and nki/examples/matrix_multiplication/matrix_multiplication_nki_kernels.py)
computes result[M, N] = lhsT[K, M]^T rhs[K, N] in bf16 on trn1 in four steps:

  tiled           tiles of 128 x 128 (lhsT), 128 x 512 (rhs), loop m, n, k;
  hoist_load      lhsT's tiles of one m loaded once, rhs's of one (m, n);
  block_free      blocks of 2 x 2 tiles along M and N, their tiles loaded
                  once per block;
  fully_optimized blocks of 16 (M), 2 (N) and 8 (K) tiles, results kept in
                  SBUF across the K blocks and added to from PSUM, rhs and
                  lhsT loaded one block (a large DMA) at a time.

Each is written with the loop order, tile sizes, blocking and hoisting the
tutorial gives. The NKI compiler gives each iteration's tile fresh storage
(it multi-buffers by itself); these kernels write the buffers it would use:
`--buffers` rotating tiles where a loop reloads a tile (2 by default), and
a PSUM tile per pair of output tiles. The loops are bir.loops; the timing
model unrolls them.

  gen_nki_matmul.py KERNEL [--m 4096 --k 8192 --n 8192] [--dtype f32]
                    [--target trn2] [-o FILE]
"""
import argparse
import sys

TILE_M, TILE_K, TILE_N = 128, 128, 512


class Kernel:
    def __init__(self, m, k, n):
        self.m, self.k, self.n = m, k, n
        self.memlocs, self.lines, self.depth = [], [], 0

    def memloc(self, name, kind, memory, shape, element):
        self.memlocs.append(f'    %{name} = bir.memloc "{name}" {kind} : '
                            f'!bir.{memory}<{"x".join(map(str, shape))}x{element}>')
        return name

    def emit(self, line):
        self.lines.append("    " + "  " * self.depth + line)

    def loop(self, count):
        self.emit(f"bir.loop 0 to {count} step 1 {{")
        self.depth += 1
        return f"d{self.depth - 1}"

    def end(self):
        self.depth -= 1
        self.emit("}")

    def ap(self, start, pairs):
        """An access pattern whose start is an expression in the loops."""
        text = ", ".join(f"[{s}, {n}]" for s, n in pairs)
        if all(c.isdigit() for c in str(start)):
            return f"#bir.ap<{start}, [{text}]>"
        dims = ", ".join(f"d{i}" for i in range(self.depth))
        return f"#bir.sap<({dims})[s0] -> ({start}), [{text}]>"

    def text(self):
        return "\n".join([
            'module @nc_symbolic attributes {bir.lnc_size = 1 : i64, '
            'bir.target = #bir.target<"trn1">} {',
            "  bir.func @main {"] + self.memlocs + self.lines + ["  }", "}", ""])


def types(*names):
    return ", ".join(names)


def tiled(kernel, buffers):
    km, kk, kn = kernel.m // TILE_M, kernel.k // TILE_K, kernel.n // TILE_N
    K, M, N = kernel.k, kernel.m, kernel.n
    lhs = [kernel.memloc(f"lhs{b}", "internal", "sbuf", [128, TILE_M], "bf16") for b in range(buffers)]
    rhs = [kernel.memloc(f"rhs{b}", "internal", "sbuf", [128, TILE_N], "bf16") for b in range(buffers)]
    accs = [kernel.memloc(f"acc{b}", "internal", "psum", [128, TILE_N], "f32") for b in range(2)]
    ress = [kernel.memloc(f"res{b}", "internal", "sbuf", [128, TILE_N], "bf16") for b in range(2)]
    m = kernel.loop(km)
    n2 = kernel.loop(kn // 2)
    assert kk % buffers == 0
    for half in range(2):
        n = f"({n2} * 2 + {half})"
        tiled_tile(kernel, buffers, lhs, rhs, accs[half], ress[half], m, n, kk, M, N, K)
    kernel.end()
    kernel.end()


def tiled_tile(kernel, buffers, lhs, rhs, acc, res, m, n, kk, M, N, K):
    """One output tile of the tiled kernel: the k tiles, `buffers` at a
    time in rotating tiles, then the store."""
    for peeled in (True, False):
        if not peeled:
            k = kernel.loop(kk // buffers - 1)
        for b in range(buffers):
            kt = f"{b}" if peeled else f"({k} * {buffers} + {buffers + b})"
            kernel.emit(f"bir.dma %{lhs[b]}[{kernel.ap(0, [(TILE_M, 128), (1, TILE_M)])}], "
                        f"%lhsT[{kernel.ap(f'{kt} * {TILE_K * M} + {m} * {TILE_M}', [(M, 128), (1, TILE_M)])}]"
                        f" : !bir.sbuf<128x{TILE_M}xbf16>, !bir.dram<{K}x{M}xbf16>")
            kernel.emit(f"bir.dma %{rhs[b]}[{kernel.ap(0, [(TILE_N, 128), (1, TILE_N)])}], "
                        f"%rhs[{kernel.ap(f'{kt} * {TILE_K * N} + {n} * {TILE_N}', [(N, 128), (1, TILE_N)])}]"
                        f" : !bir.sbuf<128x{TILE_N}xbf16>, !bir.dram<{K}x{N}xbf16>")
            start = " start" if peeled and b == 0 else ""
            kernel.emit(f"bir.matmult %{acc}[{kernel.ap(0, [(TILE_N, 128), (1, TILE_N)])}], "
                        f"%{lhs[b]}[{kernel.ap(0, [(TILE_M, 128), (1, TILE_M)])}], "
                        f"%{rhs[b]}[{kernel.ap(0, [(TILE_N, 128), (1, TILE_N)])}]{start}"
                        f" : !bir.psum<128x{TILE_N}xf32>, !bir.sbuf<128x{TILE_M}xbf16>, "
                        f"!bir.sbuf<128x{TILE_N}xbf16>")
        if not peeled:
            kernel.end()
    store(kernel, acc, res, f"{m} * {TILE_M * N} + {n} * {TILE_N}")


def store(kernel, psum, sbuf, start, columns=TILE_N, psum_offset=0):
    N, M = kernel.n, kernel.m
    kernel.emit(f"bir.tensor_copy %{sbuf}[{kernel.ap(0, [(columns, 128), (1, columns)])}], "
                f"%{psum}[{kernel.ap(psum_offset, [(TILE_N, 128), (1, columns)])}] : "
                f"!bir.sbuf<128x{columns}xbf16>, !bir.psum<128x{TILE_N}xf32>")
    kernel.emit(f"bir.dma %result[{kernel.ap(start, [(N, 128), (1, columns)])}], "
                f"%{sbuf}[{kernel.ap(0, [(columns, 128), (1, columns)])}] : "
                f"!bir.dram<{M}x{N}xbf16>, !bir.sbuf<128x{columns}xbf16>")


def chain(kernel, acc, lhs, lhs_start, rhs, rhs_start, count, lhs_step, rhs_step, lhs_cols,
          rhs_cols):
    """`count` matmults into `acc`, the k-th reading column k * step of
    each operand's tile (the first with start, the last with stop)."""
    k = kernel.loop(count)
    lhs_ap = kernel.ap(f"{lhs_start} + {k} * {lhs_step}", [(lhs_cols, 128), (1, TILE_M)])
    rhs_ap = kernel.ap(f"{rhs_start} + {k} * {rhs_step}", [(rhs_cols, 128), (1, TILE_N)])
    kernel.emit(f"bir.matmult %{acc}[{kernel.ap(0, [(TILE_N, 128), (1, TILE_N)])}], "
                f"%{lhs}[{lhs_ap}], %{rhs}[{rhs_ap}] : !bir.psum<128x{TILE_N}xf32>, "
                f"!bir.sbuf<128x{lhs_cols}xbf16>, !bir.sbuf<128x{rhs_cols}xbf16>")
    kernel.end()


def load_tiles(kernel, tile, count, tile_cols, src, src_start, src_step, src_cols, src_row,
               tile_offset=0):
    """`count` DMAs of 128 x src_cols into columns tile_offset + k *
    src_cols of `tile`."""
    k = kernel.loop(count)
    kernel.emit(f"bir.dma %{tile}[{kernel.ap(f'{tile_offset} + {k} * {src_cols}', [(tile_cols, 128), (1, src_cols)])}], "
                f"%{src}[{kernel.ap(f'{src_start} + {k} * {src_step}', [(src_row, 128), (1, src_cols)])}]"
                f" : !bir.sbuf<128x{tile_cols}xbf16>, "
                f"!bir.dram<{kernel.k}x{src_row}xbf16>")
    kernel.end()


def hoist_load(kernel, buffers):
    km, kk, kn = kernel.m // TILE_M, kernel.k // TILE_K, kernel.n // TILE_N
    M, N = kernel.m, kernel.n
    lhs_cols, rhs_cols = kk * TILE_M, kk * TILE_N
    lhs = [kernel.memloc(f"lhs{b}", "internal", "sbuf", [128, lhs_cols], "bf16") for b in range(buffers)]
    rhs = [kernel.memloc(f"rhs{b}", "internal", "sbuf", [128, rhs_cols], "bf16") for b in range(buffers)]
    accs = [kernel.memloc(f"acc{b}", "internal", "psum", [128, TILE_N], "f32") for b in range(buffers)]
    ress = [kernel.memloc(f"res{b}", "internal", "sbuf", [128, TILE_N], "bf16") for b in range(buffers)]
    m = kernel.loop(km // buffers)
    for bm in range(buffers):
        mt = f"({m} * {buffers} + {bm})"
        load_tiles(kernel, lhs[bm], kk, lhs_cols, "lhsT", f"{mt} * {TILE_M}", TILE_K * M, TILE_M, M)
        n = kernel.loop(kn // buffers)
        for bn in range(buffers):
            nt = f"({n} * {buffers} + {bn})"
            load_tiles(kernel, rhs[bn], kk, rhs_cols, "rhs", f"{nt} * {TILE_N}", TILE_K * N, TILE_N, N)
            chain(kernel, accs[bn], lhs[bm], 0, rhs[bn], 0, kk, TILE_M, TILE_N, lhs_cols, rhs_cols)
            store(kernel, accs[bn], ress[bn], f"{mt} * {TILE_M * N} + {nt} * {TILE_N}")
        kernel.end()
    kernel.end()


def block_free(kernel, buffers):
    bm_tiles, bn_tiles = 2, 2
    kk = kernel.k // TILE_K
    M, N = kernel.m, kernel.n
    lhs_cols, rhs_cols = bm_tiles * kk * TILE_M, bn_tiles * kk * TILE_N
    # The rhs block is 128 KiB per partition: one buffer of it fits in SBUF.
    kernel.memloc("lhs_block", "internal", "sbuf", [128, lhs_cols], "bf16")
    kernel.memloc("rhs_block", "internal", "sbuf", [128, rhs_cols], "bf16")
    psums = [kernel.memloc(f"acc{b}", "internal", "psum", [128, TILE_N], "f32") for b in range(2)]
    ress = [kernel.memloc(f"res{b}", "internal", "sbuf", [128, TILE_N], "bf16") for b in range(2)]
    m = kernel.loop(M // (TILE_M * bm_tiles))
    for bm in range(bm_tiles):
        load_tiles(kernel, "lhs_block", kk, lhs_cols, "lhsT",
                   f"({m} * {bm_tiles} + {bm}) * {TILE_M}", TILE_K * M, TILE_M, M,
                   tile_offset=bm * kk * TILE_M)
    n = kernel.loop(N // (TILE_N * bn_tiles))
    for bn in range(bn_tiles):
        load_tiles(kernel, "rhs_block", kk, rhs_cols, "rhs",
                   f"({n} * {bn_tiles} + {bn}) * {TILE_N}", TILE_K * N, TILE_N, N,
                   tile_offset=bn * kk * TILE_N)
    for bm in range(bm_tiles):
        for bn in range(bn_tiles):
            acc = psums[(bm * bn_tiles + bn) % 2]
            chain(kernel, acc, "lhs_block", bm * kk * TILE_M, "rhs_block", bn * kk * TILE_N, kk,
                  TILE_M, TILE_N, lhs_cols, rhs_cols)
            store(kernel, acc, ress[(bm * bn_tiles + bn) % 2],
                  f"({m} * {bm_tiles} + {bm}) * {TILE_M * N} + ({n} * {bn_tiles} + {bn}) * {TILE_N}")
    kernel.end()
    kernel.end()


def fully_optimized(kernel, buffers):
    tm, tn, tk = 16, 2, 8
    M, N, K = kernel.m, kernel.n, kernel.k
    block_m, block_n, block_k = TILE_M * tm, TILE_N * tn, TILE_K * tk
    m_tiles = M // TILE_M
    kernel.memloc("results", "internal", "sbuf", [128, m_tiles * block_n], "bf16")
    rhs = [kernel.memloc(f"rhs{b}", "internal", "sbuf", [128, tk * block_n], "bf16") for b in range(buffers)]
    lhs = [kernel.memloc(f"lhs{b}", "internal", "sbuf", [128, tk * block_m], "bf16") for b in range(buffers)]
    psums = [kernel.memloc(f"acc{b}", "internal", "psum", [128, TILE_N], "f32") for b in range(2)]
    n = kernel.loop(N // block_n)
    # Every result M-tile of the N block starts at zero.
    mt = kernel.loop(m_tiles)
    kernel.emit(f"bir.memset %results[{kernel.ap(f'{mt} * {block_n}', [(m_tiles * block_n, 128), (1, block_n)])}], "
                f"0.0 : !bir.sbuf<128x{m_tiles * block_n}xbf16>")
    kernel.end()
    k = kernel.loop(K // block_k // buffers)
    for bk in range(buffers):
        kb = f"({k} * {buffers} + {bk})"
        load_tiles(kernel, rhs[bk], tk, tk * block_n, "rhs",
                   f"{kb} * {block_k * N} + {n} * {block_n}", TILE_K * N, block_n, N)
        m = kernel.loop(M // block_m)
        load_tiles(kernel, lhs[bk], tk, tk * block_m, "lhsT",
                   f"{kb} * {block_k * M} + {m} * {block_m}", TILE_K * M, block_m, M)
        for n_tile in range(tn):
            # A PSUM tile per output tile, two in turn (the compiler's
            # rotation over PSUM banks).
            m_pair = kernel.loop(tm // 2)
            for half in range(2):
                fully_optimized_tile(kernel, psums[half], lhs[bk], rhs[bk], m,
                                     f"({m_pair} * 2 + {half})", n_tile, tm, tk, block_m,
                                     block_n, m_tiles)
            kernel.end()
        kernel.end()
    kernel.end()
    # The result M-tiles out, one N block (a large DMA) each.
    mt = kernel.loop(m_tiles)
    kernel.emit(f"bir.dma %result[{kernel.ap(f'{mt} * {TILE_M * N} + {n} * {block_n}', [(N, 128), (1, block_n)])}], "
                f"%results[{kernel.ap(f'{mt} * {block_n}', [(m_tiles * block_n, 128), (1, block_n)])}] : "
                f"!bir.dram<{M}x{N}xbf16>, !bir.sbuf<128x{m_tiles * block_n}xbf16>")
    kernel.end()
    kernel.end()


def fully_optimized_tile(kernel, acc, lhs, rhs, m, m_tile, n_tile, tm, tk, block_m, block_n,
                         m_tiles):
    """One output tile of a fully optimized block: its K block's matmults
    into PSUM, then added into the result M-tile in SBUF."""
    chain(kernel, acc, lhs, f"{m_tile} * {TILE_M}", rhs, n_tile * TILE_N, tk, block_m,
          block_n, tk * block_m, tk * block_n)
    # Evict from PSUM while adding into the result M-tile.
    tile = f"({m} * {tm} + {m_tile}) * {block_n} + {n_tile * TILE_N}"
    res_ap = kernel.ap(tile, [(m_tiles * block_n, 128), (1, TILE_N)])
    kernel.emit(f"bir.tensor_tensor add %results[{res_ap}], %results[{res_ap}], "
                f"%{acc}[{kernel.ap(0, [(TILE_N, 128), (1, TILE_N)])}] : "
                f"!bir.sbuf<128x{m_tiles * block_n}xbf16>, "
                f"!bir.sbuf<128x{m_tiles * block_n}xbf16>, !bir.psum<128x{TILE_N}xf32>")


KERNELS = {"tiled": tiled, "hoist_load": hoist_load, "block_free": block_free,
           "fully_optimized": fully_optimized}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kernel", choices=sorted(KERNELS))
    parser.add_argument("--m", type=int, default=4096)
    parser.add_argument("--k", type=int, default=8192)
    parser.add_argument("--n", type=int, default=8192)
    parser.add_argument("--buffers", type=int, default=2,
                        help="rotating buffers where a loop reloads a tile")
    parser.add_argument("--dtype", choices=["bf16", "f32"], default="bf16",
                        help="the operands' and result's element type")
    parser.add_argument("--target", choices=["trn1", "trn2", "trn3"], default="trn1")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    kernel = Kernel(args.m, args.k, args.n)
    kernel.memloc("lhsT", "input", "dram", [args.k, args.m], "bf16")
    kernel.memloc("rhs", "input", "dram", [args.k, args.n], "bf16")
    kernel.memloc("result", "output", "dram", [args.m, args.n], "bf16")
    # Rotating buffers never outnumber the iterations that rotate them.
    tiles_k = args.k // TILE_K
    blocks_k = max(1, args.k // (TILE_K * 8))
    buffers = args.buffers
    while buffers > 1 and (tiles_k % buffers or tiles_k // buffers < 2
                           or (args.kernel == "fully_optimized" and blocks_k % buffers)):
        buffers -= 1
    KERNELS[args.kernel](kernel, buffers)
    # The kernels are written in bf16 on trn1; the same structure in
    # another type or on another target.
    text = kernel.text().replace("xbf16>", f"x{args.dtype}>").replace(
        '#bir.target<"trn1">', f'#bir.target<"{args.target}">')
    if args.output:
        open(args.output, "w").write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
