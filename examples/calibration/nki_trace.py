"""Writes an NKI kernel in bir by tracing it.

A kernel of the loop-nest form the Neuron compiler prints (NKIBench's
baseline kernels: `nl.ndarray` tiles, `nl.affine_range` loops, `nl.arange`
indices, `nl.load` / `nl.store` and `nisa` instructions) is run once with
stand-ins for `neuronxcc.nki`: each loop runs its body once with a symbolic
induction variable, and each statement records the instruction it would
issue. The record becomes a bir program of the same structure: its loops,
tile shapes, the engine of each instruction, its identity-matmul transposes.

A kernel in the whole-tile API (`nl.matmul`, `nl.sum`, `broadcast_to`, an
instruction's result used as a tile) is the compiler's input: the tracer
lowers it as NKIBench's profiles show the compiler did (`nl.matmul`
transposes its left operand on PE at each call, a one-partition tile
broadcasts by DMA, loop-invariant loads move out of their loops where the
tile fits; see hoist_invariant_loads).

Storage: an on-chip tile array `(b1, ..., par_dim(P), f...)` gets fresh
storage per block index, as the compiler's printed kernel declares. A block
dimension every access indexes by the same loop variable is private to that
loop's iteration; it rotates through as many copies as the memory holds
(the same number for every array of a memory, at least two, at most its
blocks: SBUF's 192 KiB and PSUM's 16 KiB per partition on trn1), or
`--buffers`. Any other block dimension keeps every block.

Where the compiler left the engine to itself (`engine=unknown_engine`,
`nl.copy`), the engine is the one the published profiles show it chose:
copies and `tensor_scalar`s that multiply or add (by a constant or a
per-partition vector) run on the scalar engine: NKIBench's matmul kernel,
whose only non-matmul instructions are copies, shows the vector engine
idle and the scalar engine busy (experiments/full_complete_local/
profile_results.csv). Other elementwise instructions run on the vector
engine, memsets on GpSimd (their defaults).
"""
import contextlib
import itertools
import math
import types

import numpy as np


class Lin:
    """An index: const + sum coef * loop + iterators (position -> (n, coef))."""

    def __init__(self, const=0, loops=None, iters=None):
        self.const, self.loops, self.iters = const, dict(loops or {}), dict(iters or {})

    @staticmethod
    def of(value):
        return value if isinstance(value, Lin) else Lin(const=int(value))

    def __add__(self, other):
        other = Lin.of(other)
        loops = dict(self.loops)
        for name, coef in other.loops.items():
            loops[name] = loops.get(name, 0) + coef
        iters = dict(self.iters)
        for pos, (n, coef) in other.iters.items():
            if pos in iters:
                raise ValueError("two iterators on one index position")
            iters[pos] = (n, coef)
        return Lin(self.const + other.const, loops, iters)

    __radd__ = __add__

    def __mul__(self, factor):
        if isinstance(factor, Lin):
            if factor.loops or factor.iters:
                raise ValueError("a product of two indices is not affine")
            factor = factor.const
        return Lin(self.const * factor, {k: v * factor for k, v in self.loops.items()},
                   {p: (n, c * factor) for p, (n, c) in self.iters.items()})

    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + Lin.of(other) * -1

    def __rsub__(self, other):
        return Lin.of(other) + self * -1

    def __ge__(self, other):
        return ("ge", self - other)


class Arange:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, key):
        key = key if isinstance(key, tuple) else (key,)
        [position] = [i for i, k in enumerate(key) if isinstance(k, slice)]
        return Lin(iters={position: (self.n, 1)})


class ParDim(int):
    pass


class Tensor:
    def __init__(self, tracer, name, shape, dtype, buffer, value=None):
        self.tracer, self.name, self.dtype, self.buffer, self.value = tracer, name, dtype, buffer, value
        self.shape = tuple(int(d) for d in shape)
        pars = [i for i, d in enumerate(shape) if isinstance(d, ParDim)]
        self.par = pars[0] if pars else (0 if buffer != "hbm" else None)
        self.accesses = []  # each access's index tuple, for the storage plan
        self.prefix = []  # loops a tile allocated inside them is fresh for

    def __getitem__(self, index):
        index = index if isinstance(index, tuple) else (index,)
        # A slice a:b is an iterator of b - a at the next grid position.
        slices, converted = 0, []
        for component in index:
            if isinstance(component, slice):
                start = Lin.of(0 if component.start is None else component.start)
                stop = Lin.of(self.shape[len(self.prefix) + len(converted)]
                              if component.stop is None else component.stop)
                extent = (stop - start).const
                converted.append(start + Lin(iters={slices: (extent, 1)}))
                slices += 1
            else:
                converted.append(Lin.of(component))
        index = tuple(Lin(loops={var: 1}) for var in self.prefix) + tuple(converted)
        self.accesses.append(index)
        return Access(self, index)

    def whole(self):
        """An access of every element (past the per-iteration prefix)."""
        return self[tuple(slice(None) for _ in self.shape[len(self.prefix):])]

    def reshape(self, shape):
        """A DRAM tensor seen in another row-major shape."""
        return Reshaped(self, shape)

    def broadcast_to(self, shape):
        return self.tracer.broadcast(self.whole(), shape)

    def __iadd__(self, value):
        """`psum += nl.matmul(...)`: accumulates into the whole tile."""
        self.tracer.record(value.finish(self.whole(), accumulate=True))
        return self

    def __setitem__(self, index, value):
        target = self[index]
        if isinstance(value, Pending):
            self.tracer.record(value.finish(target))
        elif isinstance(value, Access) and value.pending is not None:
            pending = value.pending
            if pending.kind != "matmul":
                # `tile[...] += x` in SBUF: an add into the tile.
                pending = Pending("tensor", lhs=target, rhs=self.tracer.value(pending),
                                  op="add", mask=None)
                self.tracer.record(pending.finish(target))
                return
            self.tracer.record(pending.finish(target, accumulate=True))
        else:
            raise TypeError(f"cannot assign {value!r}")


class Reshaped:
    """A row-major view of a one-dimensional DRAM tensor: each index of the
    view is the base's linear element index."""

    def __init__(self, base, shape):
        if base.buffer != "hbm" or len(base.shape) != 1:
            raise NotImplementedError("reshape of anything but a 1-D DRAM tensor")
        self.base, self.shape = base, tuple(shape)

    def __getitem__(self, index):
        index = index if isinstance(index, tuple) else (index,)
        strides = [math.prod(self.shape[i + 1:]) for i in range(len(self.shape))]
        linear = Lin()
        for component, stride in zip(index, strides):
            linear = linear + Lin.of(component) * stride
        access = Access(self.base, (linear,))
        self.base.accesses.append(access.index)
        return access


class Access:
    def __init__(self, tensor, index):
        self.tensor, self.index, self.pending = tensor, index, None

    def broadcast_to(self, shape):
        return self.tensor.tracer.broadcast(self, shape)

    def __iadd__(self, value):
        self.pending = value
        return self


class Pending:
    """An instruction waiting for its destination."""

    tracer = None

    def __init__(self, kind, **fields):
        self.kind, self.fields, self.result = kind, fields, None
        # Where it was written: a result first used in a loop inside is
        # still computed (and allocated) there.
        self.stack = list(Pending.tracer.stack)

    def finish(self, dst, accumulate=False):
        return dict(kind=self.kind, dst=dst, accumulate=accumulate, **self.fields)

    def __truediv__(self, divisor):
        # The compiler folds a division by a constant into a multiplication
        # (rmsnorm_matmul's printed kernel multiplies by 1/K).
        return Pending("scalar", src=self.tracer.value(self), op="multiply",
                       scalar=1.0 / float(divisor), reverse=False, mask=None)

    def __setitem__(self, index, value):
        """`tile[...] = op(tile, ...)`: writes the materialized result."""
        if index is not Ellipsis:
            raise NotImplementedError("only tile[...] = value on an instruction's result")
        self.tracer.record(value.finish(self.tracer.value(self)))

    def broadcast_to(self, shape):
        return self.tracer.broadcast(self.tracer.value(self), shape)

    def materialize(self, tracer):
        """Records the instruction into a fresh tile shaped as its first
        operand walks, and returns that tile's access."""
        if self.result is None:
            source = next(v for k, v in self.fields.items()
                          if k in ("src", "lhs", "data0", "stationary") and isinstance(v, Access))
            iters = {}
            for lin in source.index:
                iters.update(lin.iters)
            shape = [iters[pos][0] for pos in sorted(iters)]
            if self.kind == "reduce":
                shape = shape[:1] + [1]
            if self.kind == "transpose":
                shape = shape[::-1]
            if self.kind == "matmul":
                moving = self.fields["moving"]
                columns = [n for lin in moving.index for pos, (n, _) in lin.iters.items() if pos]
                shape = [shape[1] if len(shape) > 1 else 1] + columns
            buffer = "psum" if self.kind in ("matmul", "transpose") else "sbuf"
            with tracer.at(self.stack):
                tile = tracer.tensor(shape, source.tensor.dtype, buffer)
                self.result = tile.whole()
                tracer.record(self.finish(self.result))
        return self.result

    def __getitem__(self, index):
        return self.materialize(self.tracer).tensor[index]


class Loop:
    def __init__(self, var, count, depth):
        self.var, self.count, self.depth, self.body = var, count, depth, []


class Tracer:
    def __init__(self, trips=None):
        self.root = Loop(None, 1, 0)
        self.stack = [self.root]
        self.tensors, self.counter = [], itertools.count()
        self.trips = trips or {}
        self.before = None  # the loop an instruction is recorded before
        # Whether the kernel uses the language's whole-tile API (nl.matmul,
        # nl.sum, broadcast_to): it is the compiler's input, not its
        # printed output, and the compiler's own rewrites still apply.
        self.source_level = False

    # --- recording
    def record(self, instruction):
        instruction["loops"] = [loop.var for loop in self.stack[1:]]
        body = self.stack[-1].body
        body.insert(body.index(self.before) if self.before in body else len(body), instruction)

    @contextlib.contextmanager
    def at(self, stack):
        """Records at the end of `stack`'s loop written so far, before the
        loop the trace is in now."""
        saved = self.stack, self.before
        if len(stack) < len(self.stack):
            self.before = self.stack[len(stack)]
        self.stack = stack
        try:
            yield
        finally:
            self.stack, self.before = saved

    def broadcast(self, access, shape):
        """A one-partition tile copied to `shape[0]` partitions: compute
        engines read only their own partitions, a DMA copies across."""
        tile = self.tensor(shape, access.tensor.dtype, "sbuf")
        source = Access(access.tensor, access.index)
        source.partitions = shape[0]
        # Its memory location spans the partitions it is read as (as SBUF
        # does physically): bir bounds a pattern's partitions by its type's.
        access.tensor.rows = max(getattr(access.tensor, "rows", 0), shape[0])
        self.record(dict(kind="dma", dst=tile.whole(), src=source, mask=None, accumulate=False))
        self.source_level = True
        return tile.whole()

    def affine_range(self, count):
        var = f"i{next(self.counter)}"
        loop = Loop(var, self.trips.get(var, count), len(self.stack) - 1)
        loop.full = count
        self.stack[-1].body.append(loop)
        self.stack.append(loop)
        yield Lin(loops={var: 1})
        self.stack.pop()

    def tensor(self, shape, dtype, buffer, value=None, name=None):
        loops = self.stack[1:] if buffer != "hbm" else []
        if loops:
            # Allocated inside loops: fresh storage per iteration, a block
            # dimension per enclosing loop.
            pars = [d for d in shape if isinstance(d, ParDim)]
            if not pars:
                shape = (ParDim(shape[0]),) + tuple(shape[1:])
            shape = tuple(loop.count for loop in loops) + tuple(shape)
        tensor = Tensor(self, name or f"t{len(self.tensors)}", shape, np.dtype(dtype), buffer, value)
        tensor.prefix = [loop.var for loop in loops]
        self.tensors.append(tensor)
        return tensor

    def zeros(self, shape, dtype, buffer):
        """A tile of zeros: PSUM's are a matmul group's start (no
        instruction), SBUF's a memset."""
        tile = self.tensor(shape, dtype, buffer)
        if buffer != "psum":
            # All of its memory location: an access pattern walks no block
            # dimension (its first dimension is the partitions).
            self.record(dict(kind="memset_all", dst=tile.whole(), value=0.0, mask=None))
        return tile

    def python_range(self, start, stop=None, step=1):
        """A Python range over indices: a loop, like affine_range."""
        if stop is None:
            start, stop = 0, start
        for var in self.affine_range(-(-(stop - start) // step)):
            yield start + var * step

    def value(self, operand):
        """An operand as an access: a pending instruction gets a fresh tile
        (its result), an array is accessed whole."""
        if isinstance(operand, Pending):
            return operand.materialize(self)
        if isinstance(operand, Tensor):
            return operand.whole()
        return operand

    # --- the stand-in modules
    def modules(self):
        tracer = self
        nl = types.SimpleNamespace()
        nl.shared_hbm, nl.hbm, nl.sbuf, nl.psum = "hbm", "hbm", "sbuf", "psum"
        nl.par_dim = ParDim
        nl.float32, nl.bfloat16, nl.float16 = np.float32, "bfloat16", np.float16
        nl.tile_size = types.SimpleNamespace(pmax=128, gemm_stationary_fmax=128,
                                             gemm_moving_fmax=512)
        nl.arange = Arange
        nl.affine_range = nl.sequential_range = tracer.affine_range
        nl.ndarray = lambda shape, dtype, buffer, name=None: tracer.tensor(shape, dtype, buffer)
        nl.full = lambda shape, fill_value, dtype, buffer, name=None: tracer.tensor(shape, dtype, buffer)
        nl.zeros = lambda shape, dtype, buffer="sbuf", name=None, lazy_initialization=False: \
            tracer.zeros(shape, dtype, buffer)
        nl.shared_constant = lambda array: tracer.tensor(array.shape, array.dtype, "hbm", value=array)
        v = tracer.value
        nl.load = lambda src, dtype=None, mask=None: Pending("dma", src=v(src), mask=mask)
        nl.store = lambda dst, value, mask=None: tracer.record(
            dict(kind="dma", dst=v(dst), src=v(value), mask=mask, accumulate=False))
        nl.copy = lambda src, dtype=None, mask=None: Pending("copy", src=v(src), mask=mask)

        AluOp.tracer = Pending.tracer = tracer
        nl.add, nl.subtract, nl.multiply = AluOp("add"), AluOp("subtract"), AluOp("multiply")
        nl.divide, nl.maximum, nl.minimum = AluOp("divide"), AluOp("max"), AluOp("min")
        nl.max, nl.min = AluOp("max"), AluOp("min")

        def loop_reduce(x, op, loop_indices, mask=None, dtype=None):
            names = [next(iter(loop.loops)) for loop in loop_indices]
            return Pending("loop_reduce", src=v(x), op=_alu(op), over=names, mask=mask)
        nl.loop_reduce = loop_reduce
        for name in ("exp", "square", "rsqrt", "sqrt", "tanh", "sigmoid", "log", "gelu", "silu"):
            setattr(nl, name, Function(name))

        def matmul(x, y, transpose_x=False, mask=None):
            # Without transpose_x the compiler transposes x on the tensor
            # engine (an identity matmul into PSUM, copied back), at each
            # call: NKIBench's transpose_flops count one per call.
            x = v(x)
            if not transpose_x:
                transposed = Pending("transpose", src=x, mask=None).materialize(tracer)
                x = Pending("copy", src=transposed, mask=None).materialize(tracer)
            tracer.source_level = True
            return Pending("matmul", stationary=x, moving=v(y), mask=mask)
        nl.matmul = matmul

        def total(x, axis, dtype=None, mask=None, keepdims=False):
            tracer.source_level = True
            return Pending("reduce", src=v(x), op="add", negate=False, mask=mask)
        nl.sum = total

        nisa = types.SimpleNamespace()
        def activation(op, data, bias=None, scale=1.0, mask=None, dtype=None):
            # A tile as `scale` is one factor per partition.
            tile = isinstance(scale, (Access, Pending, Tensor))
            return Pending("activation", func=op, src=v(data), bias=None if bias is None else v(bias),
                           scale=1.0 if tile else scale, scales=v(scale) if tile else None,
                           mask=mask)
        nisa.activation = activation

        def tensor_tensor_scan(data0, data1, initial, op0, op1, reverse0=False, reverse1=False,
                               dtype=None, mask=None):
            return Pending("scan", data0=v(data0), data1=v(data1), initial=float(initial),
                           op0=_alu(op0), op1=_alu(op1), reverse0=reverse0, reverse1=reverse1,
                           mask=mask)
        nisa.tensor_tensor_scan = tensor_tensor_scan

        def tensor_scalar(data, op0, operand0, reverse0=False, op1=None, operand1=None,
                          reverse1=False, dtype=None, mask=None, engine=None):
            if op1 is not None:
                # Two operators: the second applies in place after the first.
                return Pending("scalar2", src=data, op=_alu(op0), scalar=float(operand0),
                               reverse=bool(reverse0), op1=_alu(op1), scalar1=float(operand1),
                               reverse1=bool(reverse1), mask=mask)
            data = v(data)
            if isinstance(operand0, (Access, Pending, Tensor)):
                return Pending("tensor", lhs=data, rhs=v(operand0), op=_alu(op0), mask=mask,
                               reverse=reverse0, per_partition=True)
            return Pending("scalar", src=data, op=_alu(op0), scalar=float(operand0),
                           reverse=bool(reverse0), mask=mask)
        nisa.tensor_scalar = tensor_scalar
        nisa.tensor_tensor = lambda data1, data2, op, dtype=None, mask=None, engine=None: Pending(
            "tensor", lhs=v(data1), rhs=v(data2), op=_alu(op), mask=mask)
        nisa.reciprocal = lambda data, mask=None, dtype=None: Pending(
            "scalar", src=v(data), op="divide", scalar=1.0, reverse=True, mask=mask)
        nisa.tensor_reduce = lambda op, data, axis, mask=None, dtype=None, negate=False, keepdims=False: \
            Pending("reduce", src=v(data), op=_alu(op), negate=negate, mask=mask)
        nisa.memset = lambda shape, value, dtype, mask=None, engine=None: Pending(
            "memset", value=float(value), mask=mask)

        def nc_matmul(stationary, moving, is_stationary_onezero=False, is_moving_onezero=False,
                      mask=None, is_transpose=False):
            if is_transpose:
                return Pending("transpose", src=v(stationary), mask=mask)
            return Pending("matmul", stationary=v(stationary), moving=v(moving), mask=mask)
        nisa.nc_matmul = nc_matmul
        nki = types.SimpleNamespace(isa=types.SimpleNamespace(unknown_engine=None), jit=lambda f: f)
        return nki, nl, nisa


class Function(str):
    """nl.exp and its kin: an activation function's name, and a function
    of one tile (run on the scalar engine)."""

    def __call__(self, x, dtype=None, mask=None):
        return Pending("activation", func=str(self), src=Pending.tracer.value(x), bias=None,
                       scale=1.0, mask=mask)


def free_size(access):
    """Elements `access` walks in each partition."""
    return math.prod(n for lin in access.index for pos, (n, _) in lin.iters.items() if pos)


class AluOp:
    """nl.add and its kin: an ALU operator, and a function of two tiles."""

    def __init__(self, name):
        self.name = name

    tracer = None

    def __call__(self, a, b, mask=None, dtype=None):
        v = AluOp.tracer.value
        if isinstance(b, (int, float, np.floating)):
            return Pending("scalar", src=v(a), op=self.name, scalar=float(b), reverse=False, mask=mask)
        a, b = v(a), v(b)
        # A tile by one value per partition is the tensor_scalar form.
        per_partition = free_size(b) == 1 < free_size(a)
        return Pending("tensor", lhs=a, rhs=b, op=self.name, mask=mask, per_partition=per_partition)


def _alu(op):
    if isinstance(op, AluOp):
        return op.name
    if isinstance(op, str):
        return op
    name = getattr(op, "__name__", str(op))
    return {"add": "add", "subtract": "subtract", "multiply": "multiply", "maximum": "max",
            "amax": "max", "amin": "min",
            "max": "max", "minimum": "min", "divide": "divide", "true_divide": "divide"}[name]


def run_kernel(source, inputs, trips=None):
    """Traces the kernel in `source` (its text) on input tensors of the
    shapes `inputs` gives (name -> array). Returns the tracer and the
    output tensor(s)."""
    import sys
    tracer = Tracer(trips)
    nki, nl, nisa = tracer.modules()
    language = types.ModuleType("neuronxcc.nki.language")
    language.__dict__.update(vars(nl))
    isa = types.ModuleType("neuronxcc.nki.isa")
    isa.__dict__.update(vars(nisa))
    package = types.ModuleType("neuronxcc.nki")
    package.language, package.isa, package.jit = language, isa, (lambda f: f)
    package.typing = types.ModuleType("neuronxcc.nki.typing")
    package.trace = None
    isa.unknown_engine = None
    root = types.ModuleType("neuronxcc")
    root.nki = package
    saved = {k: sys.modules.get(k) for k in ("neuronxcc", "neuronxcc.nki", "neuronxcc.nki.language",
                                             "neuronxcc.nki.isa", "neuronxcc.nki.typing")}
    sys.modules.update({"neuronxcc": root, "neuronxcc.nki": package,
                        "neuronxcc.nki.language": language, "neuronxcc.nki.isa": isa,
                        "neuronxcc.nki.typing": package.typing})
    try:
        scope = {"range": tracer.python_range}
        exec(compile(source, "<nki kernel>", "exec"), scope)
        # A scalar argument (an epsilon) stays a number.
        args = [tracer.tensor(array.shape, array.dtype, "hbm", name=name) if np.ndim(array)
                else float(array) for name, array in inputs.items()]
        for arg in args:
            if isinstance(arg, Tensor):
                arg.kind = "input"
        result = scope["kernel"](*args)
    finally:
        for key, module in saved.items():
            if module is None:
                sys.modules.pop(key, None)
            else:
                sys.modules[key] = module
    if tracer.source_level:
        hoist_invariant_loads(tracer)
    outputs = result if isinstance(result, tuple) else (result,)
    for index, output in enumerate(outputs):
        output.kind, output.name = "output", f"out{index}" if len(outputs) > 1 else "out"
    for tensor in tracer.tensors:
        if tensor.buffer == "hbm" and not hasattr(tensor, "kind"):
            tensor.kind = "input" if tensor.value is not None else "internal"
    return tracer, outputs


def instructions(loop, chain=()):
    """Each instruction under `loop` with the loops around it."""
    chain = chain + (loop,)
    for item in loop.body:
        if isinstance(item, Loop):
            yield from instructions(item, chain)
        else:
            yield item, chain


def accesses_of(tracer, tensor):
    """The accesses of `tensor` by instructions, each once (an instruction's
    result is the next one's operand)."""
    found = {id(a): a for ins, _ in instructions(tracer.root) for a in ins.values()
             if isinstance(a, Access) and a.tensor is tensor}
    return list(found.values())


def peak_sbuf_bytes(tracer, leaving):
    """Bytes per partition of SBUF in use at the busiest instruction, each
    array but `leaving` from its first access to its last in program order,
    in one copy: the compiler's allocator reuses an array's space past its
    last use."""
    order = list(instructions(tracer.root))
    spans = {}
    for position, (ins, _) in enumerate(order):
        for access in ins.values():
            if isinstance(access, Access) and access.tensor.buffer == "sbuf" \
                    and access.tensor is not leaving:
                first, _ = spans.get(access.tensor, (position, position))
                spans[access.tensor] = (first, position)
    sizes = {tensor: Storage(tensor, 1).bytes_per_partition() for tensor in spans}
    return max((sum(sizes[t] for t, (first, last) in spans.items() if first <= position <= last)
                for position in range(len(order))), default=0)


def hoist_invariant_loads(tracer):
    """Moves a load out of a loop whose iterations all load the same data,
    where the tile then fits in SBUF (whole, beside the arrays live at
    once, see peak_sbuf_bytes), as the compiler does to a kernel written
    with the whole-tile API: NKIBench's add_rmsnorm_matmul loads its
    weight in every row block as written, but reads 42.0 MB of HBM, the
    inputs once (41.9 MB)."""
    for ins, chain in list(instructions(tracer.root)):
        dst, src = ins.get("dst"), ins.get("src")
        if ins["kind"] != "dma" or dst.tensor.buffer != "sbuf":
            continue
        tensor = dst.tensor
        if sum(1 for i, _ in instructions(tracer.root)
               if i.get("dst") is not None and i["dst"].tensor is tensor) > 1:
            continue
        used = {name for lin in src.index for name in lin.loops}
        for depth, loop in enumerate(chain[1:], 1):
            if loop.var in used or loop.var not in tensor.prefix:
                continue
            position = tensor.prefix.index(loop.var)
            kept = math.prod(tensor.shape[:position] + tensor.shape[position + 1:tensor.par]) * \
                math.prod(tensor.shape[tensor.par + 1:]) * tensor.dtype.itemsize
            if peak_sbuf_bytes(tracer, tensor) + kept <= CAPACITY["sbuf"]:
                move_before(ins, chain, depth)
                drop_block_dimension(tracer, tensor, position)
                ins["loops"].remove(loop.var)
            break


def move_before(ins, chain, depth):
    """Moves `ins` before chain[depth], inside clones of the loops between."""
    chain[-1].body.remove(ins)
    parent = target = Loop(None, 1, 0)
    for inside in chain[depth + 1:]:
        clone = Loop(inside.var, inside.count, inside.depth)
        clone.full = inside.full
        target.body.append(clone)
        target = clone
    target.body.append(ins)
    outer = chain[depth - 1].body
    outer[outer.index(chain[depth]):0] = parent.body


def drop_block_dimension(tracer, tensor, position):
    """`tensor` loses its block dimension `position` and keeps every block
    of the others (no rotation): it lives across the loop it left."""
    for access in accesses_of(tracer, tensor):
        access.index = access.index[:position] + access.index[position + 1:]
    tensor.accesses = [a.index for a in accesses_of(tracer, tensor)]
    tensor.shape = tensor.shape[:position] + tensor.shape[position + 1:]
    tensor.prefix = tensor.prefix[:position] + tensor.prefix[position + 1:]
    tensor.par -= 1
    tensor.kept = True


# What the scalar engine computes besides its functions: data * scale + bias.
SCALAR_ENGINE_OPS = ("multiply", "add")

ELEMENT = {"float32": "f32", "float16": "f16", "bfloat16": "bf16", "int32": "i32"}


class Storage:
    """Where an array's elements live in its bir memory location."""

    def __init__(self, tensor, buffers):
        self.tensor = tensor
        shape = tensor.shape
        if tensor.buffer == "hbm":
            self.rows = shape[0] if len(shape) > 1 else 1
            self.columns = math.prod(shape) // self.rows
            self.strides = [math.prod(shape[i + 1:]) for i in range(len(shape))]
            return
        par = tensor.par
        self.blocks, self.free = shape[:par], shape[par + 1:]
        self.partitions, self.free_size = shape[par], math.prod(self.free)
        self.free_strides = [math.prod(self.free[i + 1:]) for i in range(len(self.free))]
        # A block dimension every access indexes by one and the same loop
        # variable is private to that loop's iteration: it rotates.
        self.private = []
        for j in range(par):
            seen = {(tuple(sorted(a[j].loops.items())), a[j].const, bool(a[j].iters))
                    for a in tensor.accesses}
            self.private.append(not getattr(tensor, "kept", False)
                                and len(seen) == 1 and next(iter(seen))[1] == 0
                                and not next(iter(seen))[2]
                                and [c for _, c in next(iter(seen))[0]] == [1])
        self.full_count = math.prod(b for b, p in zip(self.blocks, self.private) if not p)
        self.private_count = math.prod(b for b, p in zip(self.blocks, self.private) if p)
        self.rows = max(self.partitions, getattr(tensor, "rows", 0))
        self.rotate(buffers)

    def rotate(self, buffers):
        """Rotates the private blocks through `buffers` copies."""
        self.copies = min(buffers, self.private_count) if any(self.private) else 1
        self.columns = self.copies * self.full_count * self.free_size

    def bytes_per_partition(self):
        return self.columns * self.tensor.dtype.itemsize

    def type(self):
        element = ELEMENT[self.tensor.dtype.name]
        space = {"hbm": "dram", "sbuf": "sbuf", "psum": "psum"}[self.tensor.buffer]
        return f"!bir.{space}<{self.rows}x{self.columns}x{element}>"


def literal(number):
    """`number` as an MLIR float literal (which needs a dot: 1.0e-05)."""
    text = repr(float(number))
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa and mantissa.lstrip("-").isdigit():
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


def affine(lin, dims, scale=1):
    """`lin`'s loop part times `scale` as an affine expression in d0, d1..."""
    terms = [f"d{dims.index(name)} * {coef * scale}" for name, coef in lin.loops.items() if coef]
    return terms


# Bytes per partition of each on-chip memory (trn1: the architecture
# guide's 24 MiB SBUF and 2 MiB PSUM over 128 partitions).
CAPACITY = {"sbuf": 192 * 1024, "psum": 16 * 1024}


class Emitter:
    def __init__(self, tracer, buffers=None):
        self.tracer = tracer
        self.storage = {id(t): Storage(t, buffers or 1) for t in tracer.tensors
                        if t.accesses or t.buffer == "hbm"}
        if buffers is None:
            for memory, capacity in CAPACITY.items():
                self.fill(memory, capacity)
        self.lines, self.depth = [], 0

    def fill(self, memory, capacity):
        """The most copies every rotating array of `memory` can have with
        all of them fitting in `capacity`, and at least two: where two do
        not fit, the compiler spills, which the model does not see."""
        arrays = [s for s in self.storage.values() if s.tensor.buffer == memory]
        most = max([s.private_count for s in arrays if any(s.private)], default=1)
        best = 2
        for copies in range(2, most + 1):
            for s in arrays:
                s.rotate(copies)
            if sum(s.bytes_per_partition() for s in arrays) > capacity:
                break
            best = copies
        for s in arrays:
            s.rotate(best)

    def emit(self, line):
        self.lines.append("    " + "  " * self.depth + line)

    # --- access patterns
    def pattern(self, access, dims, broadcast_to=None, limit=None):
        """(start terms, const, [(step, num)...]) of `access`."""
        store = self.storage[id(access.tensor)]
        index, tensor = access.index, access.tensor
        terms, const, iters = [], 0, {}
        if tensor.buffer == "hbm":
            for lin, stride in zip(index, store.strides):
                terms += affine(lin, dims, stride)
                const += lin.const * stride
                for pos, (n, coef) in lin.iters.items():
                    iters[pos] = (coef * stride, n)
        else:
            par = tensor.par
            block_terms, private_terms = [], []
            # Full blocks: row-major over the full block dimensions.
            full = [(lin, b) for lin, b, p in zip(index[:par], store.blocks, store.private) if not p]
            stride = 1
            for lin, extent in reversed(full):
                block_terms += affine(lin, dims, stride * store.free_size)
                const += lin.const * stride * store.free_size
                stride *= extent
            if store.copies > 1:
                private = [(lin, b) for lin, b, p in zip(index[:par], store.blocks, store.private) if p]
                stride, linear = 1, []
                for lin, extent in reversed(private):
                    linear += affine(lin, dims, stride)
                    stride *= extent
                span = store.full_count * store.free_size
                private_terms = [f"(({' + '.join(linear)}) mod {store.copies}) * {span}"]
            terms += block_terms + private_terms
            plin = index[par]
            terms += affine(plin, dims, store.columns)
            const += plin.const * store.columns
            for pos, (n, coef) in plin.iters.items():
                iters[pos] = (coef * store.columns, n)
            for lin, stride in zip(index[par + 1:], store.free_strides):
                terms += affine(lin, dims, stride)
                const += lin.const * stride
                for pos, (n, coef) in lin.iters.items():
                    iters[pos] = (coef * stride, n)
        # A mask limits the operands that walk its index grid's dimension.
        if limit is not None and limit[0] in iters and iters[limit[0]][1] == limit[1]:
            iters[limit[0]] = (iters[limit[0]][0], limit[2])
        pairs = [iters[pos] for pos in sorted(iters)]
        if 0 not in iters:
            pairs.insert(0, (store.columns, 1))
        if len(pairs) == 1:
            pairs.append((1, 1))
        if getattr(access, "partitions", None):
            pairs[0] = (0, access.partitions)  # one partition read by all
        if broadcast_to is not None and math.prod(n for _, n in pairs[1:]) == 1:
            pairs = [pairs[0]] + [(0, n) for _, n in broadcast_to[1:]]
        return terms, const, pairs

    def ap(self, access, dims, **kw):
        terms, const, pairs = self.pattern(access, dims, **kw)
        text = ", ".join(f"[{s}, {n}]" for s, n in pairs)
        if not terms:
            return f"#bir.ap<{const}, [{text}]>", pairs
        names = ", ".join(f"d{i}" for i in range(len(dims)))
        expr = " + ".join(terms + ([str(const)] if const else []))
        return f"#bir.sap<({names})[s0] -> ({expr}), [{text}]>", pairs

    def operand(self, access, dims, **kw):
        text, pairs = self.ap(access, dims, **kw)
        return f"%{access.tensor.name}[{text}]", self.storage[id(access.tensor)].type(), pairs

    # --- instructions
    def instruction(self, ins, ctx):
        """Emits `ins`. A partition mask `c + loops - p >= 0` keeps the
        partitions it holds for, at the loop values `ctx` fixes (the loops
        it mentions are split where the count changes)."""
        limit = None
        if ins.get("mask") is not None:
            _, lin = ins["mask"]
            [(position, (n, coef))] = lin.iters.items()
            assert coef == -1, "only masks of the form c + loops - index >= 0"
            count = lin.const + sum(c * ctx["values"][v] for v, c in lin.loops.items()) + 1
            if count <= 0:
                return
            limit = (position, n, count) if count < n else None
        self.one(ins, ins["loops"], limit, "", ctx)

    def one(self, ins, dims, limit, attrs, ctx):
        kind = ins["kind"]
        if kind == "memset_all":
            dst = dst_type = dst_pairs = None
        else:
            dst, dst_type, dst_pairs = self.operand(ins["dst"], dims, limit=limit)
        def read(access, **kw):
            return self.operand(access, dims, limit=limit, **kw)
        if kind == "dma":
            src, src_type, _ = read(ins["src"])
            self.emit(f"bir.dma {dst}, {src}{attrs} : {dst_type}, {src_type}")
        elif kind == "copy":
            src, src_type, _ = read(ins["src"])
            self.emit(f"bir.tensor_copy {dst}, {src} on scalar{attrs} : {dst_type}, {src_type}")
        elif kind == "scalar":
            src, src_type, _ = read(ins["src"])
            reverse = " reverse" if ins["reverse"] else ""
            engine = " on scalar" if ins["op"] in SCALAR_ENGINE_OPS and not ins.get("vector") else ""
            self.emit(f"bir.tensor_scalar {ins['op']} {dst}, {src}, {literal(ins['scalar'])}{reverse}{engine}{attrs}"
                      f" : {dst_type}, {src_type}")
        elif kind == "tensor" and ins.get("per_partition") and ins["op"] in SCALAR_ENGINE_OPS:
            # data * vector or data + vector: the scalar engine's scale or
            # bias, one value per partition.
            src, src_type, _ = read(ins["lhs"])
            vector, vector_type, _ = read(ins["rhs"], broadcast_to=dst_pairs)
            role = "scales" if ins["op"] == "multiply" else "bias"
            self.emit(f"bir.activation identity {dst}, {src} {role} {vector}{attrs}"
                      f" : {dst_type}, {src_type}, {vector_type}")
        elif kind == "tensor":
            lhs, lhs_type, _ = read(ins["lhs"], broadcast_to=dst_pairs)
            rhs, rhs_type, _ = read(ins["rhs"], broadcast_to=dst_pairs)
            if ins.get("reverse"):
                (lhs, lhs_type), (rhs, rhs_type) = (rhs, rhs_type), (lhs, lhs_type)
            self.emit(f"bir.tensor_tensor {ins['op']} {dst}, {lhs}, {rhs}{attrs}"
                      f" : {dst_type}, {lhs_type}, {rhs_type}")
        elif kind == "activation":
            src, src_type, _ = read(ins["src"])
            bias, types_ = "", f"{dst_type}, {src_type}"
            if ins["bias"] is not None:
                text, btype, _ = read(ins["bias"], broadcast_to=dst_pairs)
                bias, types_ = f" bias {text}", types_ + f", {btype}"
            if ins.get("scales") is not None:
                text, stype, _ = read(ins["scales"], broadcast_to=dst_pairs)
                bias, types_ = bias + f" scales {text}", types_ + f", {stype}"
            scale = f" scale {literal(ins['scale'])}" if float(ins["scale"]) != 1.0 else ""
            self.emit(f"bir.activation {ins['func']} {dst}, {src}{bias}{scale}{attrs} : {types_}")
        elif kind == "scan":
            data0, type0, _ = read(ins["data0"])
            data1, type1, _ = read(ins["data1"])
            flags = "".join(f" {flag}" for flag in ("reverse0", "reverse1") if ins[flag])
            self.emit(f"bir.tensor_tensor_scan {ins['op0']}, {ins['op1']} {dst}, {data0}, {data1}, "
                      f"{literal(ins['initial'])}{flags}{attrs} : {dst_type}, {type0}, {type1}")
        elif kind == "scalar2":
            src, src_type, _ = read(ins["src"])
            for op, scalar, reverse, source, source_type in (
                    (ins["op"], ins["scalar"], ins["reverse"], src, src_type),
                    (ins["op1"], ins["scalar1"], ins["reverse1"], dst, dst_type)):
                flag = " reverse" if reverse else ""
                self.emit(f"bir.tensor_scalar {op} {dst}, {source}, {literal(scalar)}{flag}{attrs}"
                          f" : {dst_type}, {source_type}")
        elif kind == "reduce":
            src, src_type, _ = read(ins["src"])
            self.emit(f"bir.tensor_reduce {ins['op']} {dst}, {src}{attrs} : {dst_type}, {src_type}")
        elif kind == "loop_reduce":
            src, src_type, _ = read(ins["src"])
            self.emit(f"bir.tensor_tensor {ins['op']} {dst}, {dst}, {src}{attrs}"
                      f" : {dst_type}, {dst_type}, {src_type}")
        elif kind == "memset":
            self.emit(f"bir.memset {dst}, {literal(ins['value'])}{attrs} : {dst_type}")
        elif kind == "memset_all":
            store = self.storage[id(ins["dst"].tensor)]
            self.emit(f"bir.memset %{ins['dst'].tensor.name}[#bir.ap<0, [[{store.columns}, "
                      f"{store.rows}], [1, {store.columns}]]>], {literal(ins['value'])} : {store.type()}")
        elif kind == "transpose":
            src, src_type, _ = read(ins["src"])
            self.emit(f"bir.transpose {dst}, {src}{attrs} : {dst_type}, {src_type}")
        elif kind == "matmul":
            stationary, s_type, _ = read(ins["stationary"])
            moving, m_type, _ = read(ins["moving"])
            types_ = f"{dst_type}, {s_type}, {m_type}"
            body = f"bir.matmult {dst}, {stationary}, {moving}"
            # Accumulating over the enclosing loops dst does not index: the
            # iteration where all of them are at 0 (block() peels it) starts
            # the group, the others add to it.
            used = {name for lin in ins["dst"].index for name in lin.loops}
            over = [name for name in dims if name not in used] if ins["accumulate"] else []
            start = " start" if all(name in ctx["zero"] for name in over) else ""
            self.emit(f"{body}{start}{attrs} : {types_}")
        else:
            raise NotImplementedError(kind)

    def block(self, loop, ctx):
        for item in loop.body:
            if not isinstance(item, Loop):
                self.instruction(item, ctx)
                continue
            # A loop_reduce starts from its operator's identity, before the
            # outermost loop it reduces over.
            for inner in self.reductions(item):
                identity = {"add": 0.0, "max": -3.4028234663852886e38, "min": 3.4028234663852886e38}
                depth = inner["loops"].index(item.var)
                outer = set(inner["loops"][:depth])
                # Where the destination's index uses loops inside, all of it.
                whole = any(set(lin.loops) - outer for lin in inner["dst"].index)
                self.instruction(dict(kind="memset_all" if whole else "memset", dst=inner["dst"],
                                      value=identity[inner["op"]], mask=None if whole else inner.get("mask"),
                                      loops=inner["loops"][:depth]), ctx)
            for lo, hi, inner in self.pieces(item, ctx):
                self.emit(f"bir.loop {lo} to {hi} step 1 {{")
                self.depth += 1
                self.block(item, inner)
                self.depth -= 1
                self.emit("}")

    @staticmethod
    def reductions(loop):
        """The loop_reduces inside `loop` whose outermost loop it is."""
        found = []
        def visit(node):
            for item in node.body:
                if isinstance(item, Loop):
                    visit(item)
                elif item["kind"] == "loop_reduce" and \
                        min(item["over"], key=item["loops"].index) == loop.var:
                    found.append(item)
        visit(loop)
        return found

    def pieces(self, loop, ctx):
        """The ranges `loop` is emitted in, each with its context: split at
        0 where it is a matmul's first accumulation loop still at 0 (the
        group's start), and where a mask's partition count changes."""
        cuts = {0, loop.count}
        if self.accumulates(loop, ctx):
            cuts.add(1)
        if loop.var in self.masked:
            previous = None
            for value in range(loop.count):
                signature = tuple(self.mask_count(lin, dict(ctx["values"], **{loop.var: value}))
                                  for lin in self.masked[loop.var])
                if signature != previous:
                    cuts.add(value)
                previous = signature
        bounds = sorted(c for c in cuts if c <= loop.count)
        for lo, hi in zip(bounds, bounds[1:]):
            inner = {"zero": set(ctx["zero"]) | ({loop.var} if (lo, hi) == (0, 1) else set()),
                     "values": dict(ctx["values"], **{loop.var: lo})}
            yield lo, hi, inner

    @staticmethod
    def mask_count(lin, values):
        (n, _), = lin.iters.values()
        return max(0, min(n, lin.const + sum(c * values.get(v, 0) for v, c in lin.loops.items()) + 1))

    def accumulates(self, loop, ctx):
        """Whether `loop` is an accumulation loop of a matmul inside it whose
        outer accumulation loops are all at their first iteration."""
        def visit(node, enclosing):
            for item in node.body:
                if isinstance(item, Loop):
                    if visit(item, enclosing + [item.var]):
                        return True
                elif item["kind"] == "matmul" and item["accumulate"]:
                    used = {name for lin in item["dst"].index for name in lin.loops}
                    over = [name for name in item["loops"] if name not in used]
                    outer = over[:over.index(loop.var)] if loop.var in over else None
                    if outer is not None and all(name in ctx["zero"] for name in outer):
                        return True
            return False
        return visit(loop, [loop.var])

    def program(self, target="trn1"):
        self.trips = {}
        def collect(loop):
            for item in loop.body:
                if isinstance(item, Loop):
                    self.trips[item.var] = item.count
                    collect(item)
        collect(self.tracer.root)
        # The loops each partition mask mentions, and the masks.
        self.masked = {}
        def masks(loop):
            for item in loop.body:
                if isinstance(item, Loop):
                    masks(item)
                elif item.get("mask") is not None:
                    for var in item["mask"][1].loops:
                        self.masked.setdefault(var, []).append(item["mask"][1])
        masks(self.tracer.root)
        self.block(self.tracer.root, {"zero": set(), "values": {}})
        memlocs = []
        for tensor in self.tracer.tensors:
            if id(tensor) not in self.storage:
                continue
            kind = getattr(tensor, "kind", "internal")
            memlocs.append(f'    %{tensor.name} = bir.memloc "{tensor.name}" {kind} : '
                           f"{self.storage[id(tensor)].type()}")
        return "\n".join([
            f'module @nc_symbolic attributes {{bir.lnc_size = 1 : i64, bir.target = #bir.target<"{target}">}} {{',
            "  bir.func @main {"] + memlocs + self.lines + ["  }", "}", ""])
