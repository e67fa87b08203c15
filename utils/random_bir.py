#!/usr/bin/env python3
"""Seeded generator of small, valid, symbolic BIR programs.

Each program has a DRAM input and output, a few SBUF and PSUM tiles (each
filled first, so that nothing reads undefined memory), and a random mix of DMAs (some with shard-dependent addresses), copies, memsets,
elementwise and reduction instructions, transposes and matmults, a
dma_gather of rows of the input, some in
loops with loop-dependent addresses, some under shard masks, for 1, 2 or 4
logical cores. Every access stays in bounds by construction; `walrus-opt`
verifies the result.
"""
import argparse
import random
import sys

FLOATS = ["f32", "bf16", "f16"]
ALU = ["add", "subtract", "multiply", "max", "min"]
ACTIVATIONS = ["identity", "relu", "square", "tanh", "sigmoid"]


class Tile:
    def __init__(self, name, memory, partitions, free, dtype):
        self.name, self.memory = name, memory
        self.partitions, self.free, self.dtype = partitions, free, dtype

    @property
    def type(self):
        return f"!bir.{self.memory}<{self.partitions}x{self.free}x{self.dtype}>"


def ap(offset, free, rows, cols):
    return f"#bir.ap<{offset}, [[{free}, {rows}], [1, {cols}]]>"


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        # The gather draws from its own generator: the rest of a seed's
        # program is what it was before gathers were added.
        self.gather_rng = random.Random(f"{seed}:gather")
        self.lines = []
        self.depth = 0  # enclosing loops
        self.room = 0  # rows a window needs to move once per loop iteration

    def dram_transfer(self, sbuf, dram):
        """A DMA between a random SBUF tile of `dram`'s type and the shard's
        block of `dram`: (tile, tile window, DRAM pattern), or None."""
        rng = self.rng
        t = rng.choice([t for t in sbuf if t.dtype == dram.dtype] or sbuf[:1])
        if t.dtype != dram.dtype:
            return None
        shape = self.shape_for(t, max_rows=self.block, max_cols=dram.free)
        if not shape:
            return None
        rows, cols = shape
        row = rng.randint(0, self.block - rows)
        c0 = rng.randint(0, dram.free - cols)
        pattern = (f"#bir.sap<()[s0] -> (s0 * {self.block * dram.free} + {row * dram.free + c0}), "
                   f"[[{dram.free}, {rows}], [1, {cols}]]>")
        return t, self.window(t, rows, cols), pattern

    def window(self, tile, rows, cols, r0=None, moves=None):
        """An access of rows x cols; inside a loop, may move by one row per
        iteration (`self.room` = trip count - 1 rows of room needed).
        `r0` and `moves` fix the first row and whether it moves."""
        loop_rows = self.room
        if r0 is None:
            r0 = self.rng.randint(0, tile.partitions - rows - loop_rows)
        c0 = self.rng.randint(0, tile.free - cols)
        offset = r0 * tile.free + c0
        if moves is None:
            moves = self.rng.random() < 0.7
        if loop_rows and moves:
            dims = ", ".join(f"d{i}" for i in range(self.depth))
            return (f"#bir.sap<({dims})[s0] -> (d{self.depth - 1} * {tile.free} + {offset}), "
                    f"[[{tile.free}, {rows}], [1, {cols}]]>")
        return ap(offset, tile.free, rows, cols)

    def mask(self):
        if self.lnc == 1 or self.rng.random() > 0.3:
            return ""
        core = self.rng.randrange(self.lnc)
        if self.rng.random() < 0.5:
            return f" {{mask = affine_set<()[s0] : (s0 - {core} == 0)>}}"
        return f" {{mask = affine_set<()[s0] : (s0 - {core} >= 0)>}}"

    def emit(self, text):
        self.lines.append("    " + "  " * self.depth + text)

    def shape_for(self, *tiles, max_rows=None, max_cols=None):
        """rows x cols that fit every tile, leaving `self.room` rows for the
        loop to move the window; None when nothing fits."""
        rows = min(t.partitions for t in tiles) - self.room
        cols = min(t.free for t in tiles)
        if max_rows is not None:
            rows = min(rows, max_rows)
        if max_cols is not None:
            cols = min(cols, max_cols)
        if rows < 1 or cols < 1:
            return None
        return self.rng.randint(1, rows), self.rng.randint(1, cols)

    def instruction(self):
        rng = self.rng
        sbuf = [t for t in self.tiles if t.memory == "sbuf"]
        kind = rng.choice(["dma_in", "dma_in", "copy", "memset", "scalar", "tensor", "activation",
                           "reduce", "transpose", "matmult", "dma_out", "dma_out"])
        if kind == "dma_in":
            picked = self.dram_transfer(sbuf, self.x)
            if picked:
                t, window, src = picked
                self.emit(f"bir.dma %{t.name}[{window}], %x[{src}]{self.mask()}"
                          f" : {t.type}, {self.x.type}")
        elif kind == "dma_out":
            picked = self.dram_transfer(sbuf, self.y)
            if picked:
                t, window, dst = picked
                self.emit(f"bir.dma %y[{dst}], %{t.name}[{window}]{self.mask()}"
                          f" : {self.y.type}, {t.type}")
        elif kind == "copy":
            a, b = rng.choice(self.tiles), rng.choice(self.tiles)
            shape = self.shape_for(a, b)
            if not shape:
                return
            rows, cols = shape
            self.emit(f"bir.tensor_copy %{a.name}[{self.window(a, rows, cols)}], "
                      f"%{b.name}[{self.window(b, rows, cols)}]{self.mask()} : {a.type}, {b.type}")
        elif kind == "memset":
            t = rng.choice(self.tiles)
            shape = self.shape_for(t)
            if not shape:
                return
            rows, cols = shape
            value = rng.choice(["0.0", "1.0", "-2.5", "0.125"])
            self.emit(f"bir.memset %{t.name}[{self.window(t, rows, cols)}], {value}{self.mask()} : {t.type}")
        elif kind in ("scalar", "activation"):
            a, b = rng.choice(self.tiles), rng.choice(self.tiles)
            shape = self.shape_for(a, b)
            if not shape:
                return
            rows, cols = shape
            dst, src = self.window(a, rows, cols), self.window(b, rows, cols)
            if kind == "scalar":
                op = rng.choice(ALU)
                self.emit(f"bir.tensor_scalar {op} %{a.name}[{dst}], %{b.name}[{src}], "
                          f"{rng.choice(['0.5', '2.0', '-1.0'])}{self.mask()} : {a.type}, {b.type}")
            else:
                fn = rng.choice(ACTIVATIONS)
                self.emit(f"bir.activation {fn} %{a.name}[{dst}], %{b.name}[{src}]{self.mask()} : {a.type}, {b.type}")
        elif kind == "tensor":
            a, b, c = (rng.choice(self.tiles) for _ in range(3))
            shape = self.shape_for(a, b, c)
            if not shape:
                return
            rows, cols = shape
            self.emit(f"bir.tensor_tensor {rng.choice(ALU)} %{a.name}[{self.window(a, rows, cols)}], "
                      f"%{b.name}[{self.window(b, rows, cols)}], %{c.name}[{self.window(c, rows, cols)}]"
                      f"{self.mask()} : {a.type}, {b.type}, {c.type}")
        elif kind == "reduce":
            a, b = rng.choice(self.tiles), rng.choice(self.tiles)
            shape = self.shape_for(a, b)
            if not shape:
                return
            rows, cols = shape
            self.emit(f"bir.tensor_reduce {rng.choice(['add', 'max', 'min'])} "
                      f"%{a.name}[{self.window(a, rows, 1)}], %{b.name}[{self.window(b, rows, cols)}]"
                      f"{self.mask()} : {a.type}, {b.type}")
        elif kind == "transpose":
            a, b = rng.choice(sbuf), rng.choice(sbuf)
            if a.dtype != b.dtype:
                return
            max_rows = min(b.partitions, a.free) - self.room
            max_cols = min(b.free, a.partitions - self.room)
            if max_rows < 1 or max_cols < 1:
                return
            rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
            self.emit(f"bir.transpose %{a.name}[{self.window(a, cols, rows)}], "
                      f"%{b.name}[{self.window(b, rows, cols)}]{self.mask()} : {a.type}, {b.type}")
        elif kind == "matmult":
            psum = [t for t in self.tiles if t.memory == "psum"]
            acc = rng.choice(psum)
            floats = [t for t in sbuf if t.dtype in ("bf16", "f16", "f32")]
            if not floats:
                return
            w = rng.choice(floats)
            movings = [t for t in floats if t.dtype == w.dtype]
            m = rng.choice(movings)
            max_k = min(w.partitions, m.partitions) - self.room
            max_rows = min(w.free, acc.partitions - self.room)
            max_cols = min(m.free, acc.free)
            if min(max_k, max_rows, max_cols) < 1:
                return
            k, rows = rng.randint(1, max_k), rng.randint(1, max_rows)
            cols = rng.randint(1, max_cols)
            flags = rng.choice([" start", " start stop", "", " stop"])
            # The tensor engine reads both operands' rows on the same
            # partitions: the same first row, moving together.
            r0 = rng.randint(0, min(w.partitions, m.partitions) - k - self.room)
            moves = rng.random() < 0.7
            self.emit(f"bir.matmult %{acc.name}[{self.window(acc, rows, cols)}], "
                      f"%{w.name}[{self.window(w, k, rows, r0, moves)}], "
                      f"%{m.name}[{self.window(m, k, cols, r0, moves)}]{flags}"
                      f"{self.mask()} : {acc.type}, {w.type}, {m.type}")

    def gather(self):
        """Rows of x gathered into a tile by a dma_gather (the ids a memset
        of one valid row), then stored to y: the tiles it adds."""
        g = self.gather_rng
        rows = g.randint(1, 8)
        targets = [t for t in self.tiles if t.memory == "sbuf" and t.dtype == self.x.dtype
                   and t.partitions >= rows]
        if not targets:
            return []
        ids = Tile("ids", "sbuf", 8, 1, "i32")
        t = g.choice(targets)
        width = g.randint(1, min(t.free, self.x.free))
        c0 = g.randint(0, self.x.free - width)
        self.emit(f"bir.memset %ids[{ap(0, 1, rows, 1)}], {g.randrange(self.x.partitions)} : {ids.type}")
        self.emit(f"bir.dma_gather %{t.name}[{ap(0, t.free, rows, width)}], "
                  f"%x[#bir.ap<{c0}, [[{self.x.free}, {self.x.partitions}], [1, {width}]]>], "
                  f"%ids[{ap(0, 1, rows, 1)}] : {t.type}, {self.x.type}, {ids.type}")
        stored_rows, stored_cols = min(rows, self.block), min(width, self.y.free)
        self.emit(f"bir.dma %y[#bir.sap<()[s0] -> (s0 * {self.block * self.y.free}), "
                  f"[[{self.y.free}, {stored_rows}], [1, {stored_cols}]]>], "
                  f"%{t.name}[{ap(0, t.free, stored_rows, stored_cols)}] : {self.y.type}, {t.type}")
        return [ids]

    def program(self):
        rng = self.rng
        self.lnc = rng.choice([1, 2, 2, 4])
        self.block = rng.randint(1, 8)  # DRAM rows per core
        dtype = rng.choice(FLOATS)
        self.x = Tile("x", "dram", self.block * self.lnc, rng.randint(1, 12), dtype)
        self.y = Tile("y", "dram", self.block * self.lnc, rng.randint(1, 12), dtype)
        self.tiles = []
        for i in range(rng.randint(2, 5)):
            # Some tiles span more than a quarter of the partitions, so that
            # their row blocks can die apart (sb-alloc's row blocks).
            rows = rng.randint(33, 72) if rng.random() < 0.2 else rng.randint(1, 12)
            self.tiles.append(Tile(f"t{i}", "sbuf", rows, rng.randint(1, 12),
                                   dtype if i == 0 or rng.random() < 0.6 else rng.choice(FLOATS)))
        self.tiles.append(Tile("acc", "psum", rng.randint(1, 12), rng.randint(1, 12), "f32"))
        # Every tile starts defined: reading memory nothing wrote is
        # undefined, and an allocator may legitimately change what it reads.
        for t in self.tiles:
            self.emit(f"bir.memset %{t.name}[{ap(0, t.free, t.partitions, t.free)}], "
                      f"0.25 : {t.type}")
        for _ in range(rng.randint(4, 16)):
            if rng.random() < 0.2:
                trips = rng.randint(1, 3)
                self.emit(f"bir.loop 0 to {trips} step 1 {{")
                self.depth += 1
                self.room = trips - 1
                for _ in range(rng.randint(1, 3)):
                    self.instruction()
                self.room = 0
                self.depth -= 1
                self.emit("}")
                continue
            self.instruction()
        ids = self.gather()
        out = [f"module @nc_symbolic attributes {{bir.lnc_size = {self.lnc} : i64}} {{",
               "  bir.func @main {",
               f'    %x = bir.memloc "x" input : {self.x.type}',
               f'    %y = bir.memloc "y" output : {self.y.type}']
        for t in self.tiles + ids:
            out.append(f'    %{t.name} = bir.memloc "{t.name}" internal : {t.type}')
        return "\n".join(out + self.lines + ["  }", "}", ""])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("seed", type=int)
    args = parser.parse_args()
    sys.stdout.write(Generator(args.seed).program())


if __name__ == "__main__":
    main()
