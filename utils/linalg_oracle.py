#!/usr/bin/env python3
"""Checks -convert-linalg-to-bir against MLIR's own CPU execution.

For one func.func over static memrefs or tensors (f32, f64, f16, bf16,
i8-i64) in FILE (tensors are bufferized first, as -walrus-from-linalg does):
  1. seeded inputs (floats uniform in [-1, 1) as the type holds them,
     integers in [-8, 8), from --seed and the argument's name), outputs
     zero;
  2. MLIR runs the original function: a harness module calls it on the
     inputs and prints every output's bits, lowered to LLVM with Debian's
     mlir-opt and run by mlir-runner (docs/LinalgToBir.md, "The oracle");
  3. walrus-opt lowers the file with -convert-linalg-to-bir (tensors
     after what -walrus-from-linalg runs first (-import-tosa, inlining, -normalize-linalg,
     -fold-into-matmul, -fuse-elementwise), which MLIR's run does not see; and, with --pipeline, the whole Walrus pipeline after it),
     walrus-run runs the kernel on the same inputs and writes its outputs;
  4. every output is compared: bit for bit by default, or within
     |walrus - mlir| <= atol + rtol * |mlir| + scale_tol * max |mlir|.

Prints one line per output and `oracle: identical` / `oracle: within
tolerance` / `oracle: mismatch ...`; exits 1 on a mismatch.
"""
import argparse
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "..", "build", "bin")
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
LOWER_TO_LLVM = [
    "-convert-linalg-to-loops", "-convert-scf-to-cf", "-expand-strided-metadata",
    "-lower-affine", "-finalize-memref-to-llvm", "-convert-math-to-llvm",
    "-convert-math-to-libm", "-convert-arith-to-llvm", "-convert-cf-to-llvm",
    "-convert-func-to-llvm", "-reconcile-unrealized-casts",
]
# What -walrus-from-linalg runs before bufferizing (lib/Pipelines).
WALRUS_PRELUDE = ["-import-tosa", "-inline=default-pipeline=", "-symbol-dce",
                  "-widen-accumulators", "-normalize-linalg",
                  "-fold-into-matmul", "-fuse-elementwise", "-raise-softmax"]
# Loops that yield a new tensor (scf.for around linalg, which
# -normalize-linalg unrolls for Walrus) get a buffer per iteration on the CPU.
BUFFERIZE = ["-eliminate-empty-tensors",
             "-one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map "
             "allow-return-allocs-from-loops"]
# What -walrus-from-linalg runs after bufferizing, before lowering.
WALRUS_BUFFERS = ["-fuse-siblings"]
WALRUS_PIPELINE = ["-expand-replication", "-lnc-split", "-vn-split", "-shrink-dn", "-sb-alloc",
                   "-sb-alloc-verify"]


# mlir-runner cannot run linalg.softmax: MLIR's own decomposition (its
# AggregatedOpInterface, through the transform dialect) rewrites it into
# generics first.
DECOMPOSE_SOFTMAX = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %softmax = transform.structured.match ops{["linalg.softmax"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %parts = transform.structured.decompose_interface %softmax
      : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""


def prepare_for_cpu(path, work):
    """`path`, or a copy MLIR can run: its TOSA ops lowered by upstream's
    pipelines (what -import-tosa runs), its linalg.softmax ops on tensors
    decomposed, its arith and math on whole tensors written as linalg
    (upstream's -convert-elementwise-to-linalg), each where the file holds
    one."""
    with open(path) as source:
        text = source.read()
    passes = []
    if re.search(r"\btosa\.", text):
        passes.append("--pass-pipeline=builtin.module(tosa-to-linalg-pipeline,"
                      "func.func(tosa-to-arith{include-apply-rescale=true},"
                      "tosa-to-tensor))")
    if re.search(r"linalg\.softmax[^\n]*ins\([^)]*:\s*tensor<", text):
        library = os.path.join(work, "decompose.mlir")
        with open(library, "w") as out:
            out.write(DECOMPOSE_SOFTMAX)
        passes += [f"-transform-preload-library=transform-library-paths={library}",
                   "-transform-interpreter"]
    if re.search(r"=\s*(?:arith|math)\.\w+\s[^\n]*:\s*tensor<", text):
        passes.append("-convert-elementwise-to-linalg")
    if not passes:
        return path
    prepared = os.path.join(work, "cpu-source.mlir")
    run([os.path.join(LLVM_BIN, "mlir-opt"), path, "--allow-unregistered-dialect",
         *passes, "-o", prepared])
    return prepared


def widen_for_cpu(path, work, bin_dir):
    """`path`, or a copy whose bf16 and f16 contractions accumulate in f32
    and round once (walrus-opt -widen-accumulators, what the lowering
    computes), and whether it widened any."""
    with open(path) as source:
        text = source.read()
    if not re.search(r"x(?:bf16|f16)>", text):
        return path, False
    widened = os.path.join(work, "cpu-widened.mlir")
    run([os.path.join(bin_dir, "walrus-opt"), path, "-widen-accumulators",
         "-o", widened])
    with open(widened) as source:
        # Each widened op gains one truncf.
        if source.read().count("arith.truncf") == text.count("arith.truncf"):
            return path, False
    # Its extf and truncf on whole tensors, as linalg the CPU run bufferizes.
    elementwise = os.path.join(work, "cpu-widened-linalg.mlir")
    run([os.path.join(LLVM_BIN, "mlir-opt"), widened, "-convert-elementwise-to-linalg",
         "-o", elementwise])
    return elementwise, True


RESOURCE = re.compile(r"dense_resource<([\w.$-]+)>\s*:\s*tensor<((?:\d+x)*)(\w+)>")


def weight_values(seed, name, shape, element, ints_below=8):
    """Seeded weights for an elided resource, scaled as a model's are so
    that whole layers keep their magnitudes: a vector (BatchNorm's scales,
    variances, biases) in [0.5, 1.5), so a variance is positive; a matrix
    or kernel uniform within 1 / sqrt(its fan-in, the elements per
    output). Integers (index lists) in [0, `ints_below`)."""
    generator = random.Random(f"{seed}:weight:{name}")
    size = count(shape)
    if not element.is_float:
        return [generator.randrange(0, ints_below) for _ in range(size)]
    if len(shape) <= 1:
        return [element.round(generator.uniform(0.5, 1.5)) for _ in range(size)]
    bound = 1.0 / max(1, size // shape[0]) ** 0.5
    return [element.round(generator.uniform(-bound, bound)) for _ in range(size)]


def weight_bytes(seed, name, shape, element, ints_below=8):
    """weight_values' distribution as the element type's raw bytes. With
    numpy (Debian's python3-numpy, scripts/setup.sh) a float weight comes
    from numpy's generator seeded by the name's CRC-32: GPT-2's 124M
    seeded weights take seconds, not the minutes Python's own generator
    does. Both runs read the same bytes either way."""
    if element.is_float and element.name != "bf16":
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is not None:
            rng = numpy.random.default_rng(zlib.crc32(f"{seed}:weight:{name}".encode()))
            size = count(shape)
            if len(shape) <= 1:
                values = rng.uniform(0.5, 1.5, size)
            else:
                bound = 1.0 / max(1, size // shape[0]) ** 0.5
                values = rng.uniform(-bound, bound, size)
            return values.astype(element.descr).tobytes()
    return element.to_bytes(weight_values(seed, name, shape, element, ints_below))


SPLAT = re.compile(r"dense<(-?[\d.]+(?:[eE][-+]?\d+)?|0x[0-9A-Fa-f]+)>\s*:\s*"
                   r"tensor<((?:\d+x)+)(f32|f64|f16)>")


def fill_elided(path, work, seed, seed_splats=False):
    """`path`, or a copy whose weights without data (a model printed
    without it: dense_resource<__elided__>, or a named resource the file
    holds no blob for) hold seeded values, so MLIR's run and walrus-run
    read the same weights."""
    with open(path) as source:
        text = source.read()
    # The resource section, not a comment that names one.
    opening = re.search(r"^\{-#", text, re.MULTILINE)
    section = text[opening.start():] if opening else ""
    held = set(re.findall(r'^\s*"?([\w.$-]+)"?\s*:\s*"0x', section, re.M))
    blobs, literals = {}, []

    def replace(match):
        name, dims, type_name = match.groups()
        if name not in held and type_name == "i1":
            # MLIR's CPU lowering has no i1 resources: the bits go in a
            # dense literal (packed, the first element in the lowest bit).
            shape = [int(d) for d in dims.split("x") if d]
            generator = random.Random(f"{seed}:weight:{name}:{len(literals)}")
            bits = [generator.randrange(2) for _ in range(count(shape))]
            packed = bytes(sum(bit << i for i, bit in enumerate(bits[k:k + 8]))
                           for k in range(0, len(bits), 8))
            literals.append(name)
            return f'dense<"0x{packed.hex().upper()}"> : tensor<{dims}i1>'
        element = ELEMENTS.get(type_name)
        if name in held or element is None or element.name == "bf16":
            return match.group(0)
        if name == "__elided__":
            name = f"walrus_oracle_weight_{len(blobs)}"
        if name not in blobs:
            shape = [int(d) for d in dims.split("x") if d]
            data = weight_bytes(seed, name, shape, element,
                                min(8, fewest_table_rows(text)))
            alignment = struct.pack("<I", max(1, element.width // 8))
            blobs[name] = (alignment + data).hex().upper()
        return f"dense_resource<{name}> : tensor<{dims}{type_name}>"

    text = RESOURCE.sub(replace, text)

    def reseed(match):
        # A model whose parameters are all one splat overflows to NaN
        # (every product sums its whole fan-in): seeded values as above.
        name = f"walrus_oracle_splat_{len(blobs)}"
        shape = [int(d) for d in match.group(2).split("x") if d]
        element = ELEMENTS[match.group(3)]
        data = weight_bytes(seed, name, shape, element)
        alignment = struct.pack("<I", max(1, element.width // 8))
        blobs[name] = (alignment + data).hex().upper()
        return f"dense_resource<{name}> : tensor<{match.group(2)}{match.group(3)}>"

    if seed_splats:
        text = SPLAT.sub(reseed, text)
    if not blobs and not literals:
        return path
    entries = "".join(f'\n      "{name}": "0x{blob}",' for name, blob in blobs.items())
    if not entries:
        pass
    elif "builtin: {" in section:
        text = text.replace("builtin: {", "builtin: {" + entries, 1)
    elif section:
        sys.exit("oracle: weights without data beside a resource section without "
                 "builtin blobs are not supported")
    else:
        text += "\n{-#\n  dialect_resources: {\n    builtin: {" + entries.rstrip(",") + \
                "\n    }\n  }\n#-}\n"
    filled = os.path.join(work, "weights.mlir")
    with open(filled, "w") as out:
        out.write(text)
    return filled


def bufferize(bin_dir, path, passes, output):
    """Writes `path` after `passes` to `output` and returns its text, with
    its dense_resource blobs (weights), which --mlir-print-local-scope leaves
    out, taken from a second print."""
    opt = os.path.join(bin_dir, "walrus-opt")
    run([opt, path, *passes, "--mlir-print-local-scope", "-o", output])
    with open(output) as source:
        text = source.read()
    scoped = run([opt, path, *passes])
    if "{-#" in scoped:
        text += scoped[scoped.index("{-#"):]
        with open(output, "w") as out:
            out.write(text)
    return text


# Warnings of -normalize-linalg that an op accumulates into a
# tensor.empty(): its outputs hold no defined values to compare.
UNDEFINED = []


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode:
        sys.exit(f"oracle: {' '.join(command[:2])} failed:\n{result.stderr}")
    UNDEFINED.extend(line.split("warning: ", 1)[1] for line in result.stderr.splitlines()
                     if "warning: accumulates into 'tensor.empty()'" in line)
    return result.stdout


class Element:
    """An element type: how its values are generated, packed and compared."""

    def __init__(self, name, width, pack, descr, is_float):
        self.name, self.width, self.pack, self.descr, self.is_float = \
            name, width, pack, descr, is_float

    def bits_type(self):
        return "i1" if self.name == "i1" else f"i{self.width}"

    def round(self, value):
        """`value` as this type holds it."""
        if self.name == "bf16":
            bits = struct.unpack("<I", struct.pack("<f", value))[0]
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
            return struct.unpack("<f", struct.pack("<I", bits))[0]
        return struct.unpack("<" + self.pack, struct.pack("<" + self.pack, value))[0]

    def to_bytes(self, values):
        """Raw little-endian bytes, as MLIR's dense hex and the CPU hold them."""
        if self.name == "bf16":
            return b"".join(struct.pack("<I", struct.unpack("<I", struct.pack("<f", v))[0])[2:]
                            for v in values)
        return struct.pack(f"<{len(values)}{self.pack}", *values)

    def from_bits(self, bits):
        """The value of an unsigned bit pattern of this type."""
        if self.name == "bf16":
            return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
        raw = struct.pack("<" + {8: "B", 16: "H", 32: "I", 64: "Q"}[self.width], bits)
        return struct.unpack("<" + self.pack, raw)[0]


ELEMENTS = {
    "f32": Element("f32", 32, "f", "<f4", True),
    "f64": Element("f64", 64, "d", "<f8", True),
    "f16": Element("f16", 16, "e", "<f2", True),
    # walrus-run reads and writes bf16 tensors as f32 .npy, exactly.
    "bf16": Element("bf16", 16, "f", "<f4", True),
    "i32": Element("i32", 32, "i", "<i4", False),
    "i64": Element("i64", 64, "q", "<i8", False),
    "i16": Element("i16", 16, "h", "<i2", False),
    "i8": Element("i8", 8, "b", "|i1", False),
    # A boolean is a byte 0 or 1 (how LLVM stores a memref of i1, and the
    # lowering's DRAM tensors of i8).
    "i1": Element("i1", 8, "b", "|i1", False),
}


# Arguments of a strided layout, by the type text find_function reads:
# (the view's shape, strides, offset). Such an argument is the whole buffer
# it spans (what the lowering's DRAM tensor holds), viewed by the harness.
STRIDED = re.compile(r"memref<((?:\d+x)+)(\w+),\s*strided<\[([\d, ]+)\]"
                     r"(?:,\s*offset:\s*(\d+))?>>")


def strided_view(text):
    """(shape, strides, offset) of a strided memref type, else None."""
    match = STRIDED.fullmatch(text.strip())
    if not match:
        return None
    shape = [int(d) for d in match.group(1).split("x") if d]
    strides = [int(d) for d in match.group(3).split(",")]
    return shape, strides, int(match.group(4) or 0)


def memref_shape(text, dynamic=False):
    """([dims], Element) of 'memref<2x3xf32>'; with `dynamic`, a '?' dim
    is None (a result whose sizes the kernel's output gives)."""
    view = strided_view(text)
    if view and view[0] and len(view[1]) == len(view[0]):
        shape, strides, offset = view
        element = STRIDED.fullmatch(text.strip()).group(2)
        if element in ELEMENTS:
            extent = offset + sum((d - 1) * t for d, t in zip(shape, strides)) + 1
            return [extent], ELEMENTS[element]
    dim = r"(?:\d+|\?)x" if dynamic else r"\d+x"
    match = re.fullmatch(r"memref<((?:" + dim + r")*)(\w+)>", text.strip())
    if not match or match.group(2) not in ELEMENTS:
        sys.exit(f"oracle: only static memrefs of {', '.join(ELEMENTS)} are supported, "
                 f"got {text.strip()}")
    return ([None if d == "?" else int(d) for d in match.group(1).split("x") if d],
            ELEMENTS[match.group(2)])


def find_function(text, name):
    """(name, argument types, result types, the arguments' declared types)
    of the function to check: `name`, else the first that launches a kernel
    (holds a linalg op or a copy; a function returning a constant, as an
    LLVM integration test's helper, launches none)."""
    # A bare symbol name may hold '.', '$' and '-' (torch-mlir's test
    # names: @torch.aten.mm$basic).
    pattern = (r"func\.func\s+(?:public\s+)?@([\w.$-]+)\s*\((.*?)\)\s*"
               r"(?:->\s*\(?(.*?)\)?)?\s*(?:attributes\s*\{[^}]*\}\s*)?\{")
    matches = [m for m in re.finditer(pattern, text, re.DOTALL)
               if not name or m.group(1) == name]

    def launches(match):
        end = text.find("\n  }", match.end())
        body = text[match.end():end if end >= 0 else len(text)]
        return re.search(r"\blinalg\.|\bmemref\.copy\b", body)
    for match in [m for m in matches if launches(m)] + matches:
        arguments = re.findall(r"memref<[^>]*>>?", match.group(2))
        results = re.findall(r"memref<[^>]*>", match.group(3) or "")
        return match.group(1), [memref_shape(a) for a in arguments], \
            [memref_shape(r, dynamic=True) + (r,) for r in results], arguments
    sys.exit(f"oracle: no func.func{' @' + name if name else ''} in the file")


def printed_labels(text, name):
    """The memory locations of the buffers @name prints (an LLVM
    integration test's `call @printMemrefF32`), in the order it prints
    them: `name_resultJ`, J the buffer's place among the allocations the
    host reads after the kernel (returned or printed), in allocation
    order."""
    start = re.search(r"func\.func\s+(?:public\s+)?@" + re.escape(name) + r"\s*\(", text).start()
    end = text.find("\n  }", start)
    body = text[start:end if end >= 0 else len(text)]
    viewed = dict(re.findall(r"^\s*(%[\w.]+) = memref\.(?:collapse_shape|expand_shape|cast|"
                             r"subview|reinterpret_cast)\s+(%[\w.]+)", body, re.MULTILINE))
    roots = []
    for value in re.findall(r"call @printMemref\w*\((%[\w.]+)\)", body):
        while value in viewed:
            value = viewed[value]
        roots.append(value)
    allocs = re.findall(r"^\s*(%[\w.]+) = memref\.alloc", body, re.MULTILINE)
    read = [a for a in allocs if a in roots]
    for value in roots:
        if value not in read:
            sys.exit(f"oracle: @{name} prints {value}, which the kernel does not write")
    return [f"{name}_result{read.index(value)}" for value in roots]


def printed_values(text, name, work):
    """What @name prints when MLIR runs it (printMemref's decimal values,
    six significant digits), one list per call."""
    source = os.path.join(work, "cpu-printing.mlir")
    with open(source, "w") as out:
        out.write(text)
    lowered = run([os.path.join(LLVM_BIN, "mlir-opt"), source, *LOWER_TO_LLVM])
    printed = run([os.path.join(LLVM_BIN, "mlir-runner"), "-e", name,
                   "-entry-point-result=void",
                   f"-shared-libs={LLVM_LIB}/libmlir_runner_utils.so,"
                   f"{LLVM_LIB}/libmlir_c_runner_utils.so"], input=lowered)
    number = r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)"
    return [[float(v) for v in re.findall(number, chunk[chunk.index("data =") + 6:])]
            for chunk in printed.split("Unranked Memref")[1:]]


def returned_labels(text, name):
    """The memory location each result of @name is read back from: an
    argument's own (`name_argK`) when the function returns an argument,
    else `name_resultJ`, J the place of the returned allocation among the
    returned ones in allocation order (the lowering's naming). A buffer
    returned twice has one label; a view returned (a reshape, a cast) is
    read back from the buffer it views."""
    start = re.search(r"func\.func\s+(?:public\s+)?@" + re.escape(name) + r"\s*\(", text).start()
    end = text.find("\n  }", start)
    body = text[start:end if end >= 0 else len(text)]
    ret = re.search(r"^\s*return\s+([^:\n]*?)\s*:", body, re.MULTILINE)
    viewed = dict(re.findall(r"^\s*(%[\w.]+) = memref\.(?:collapse_shape|expand_shape|cast|"
                             r"subview|reinterpret_cast)\s+(%[\w.]+)", body, re.MULTILINE))
    values = [v.strip() for v in ret.group(1).split(",")] if ret else []
    for index, value in enumerate(values):
        while value in viewed:
            value = viewed[value]
        values[index] = value
    allocs = re.findall(r"^\s*(%[\w.]+) = memref\.alloc", body, re.MULTILINE)
    returned_allocs = [a for a in allocs if a in values]
    labels = []
    for value in values:
        argument = re.fullmatch(r"%arg(\d+)", value)
        if argument:
            labels.append(f"{name}_arg{argument.group(1)}")
        elif value in returned_allocs:
            labels.append(f"{name}_result{returned_allocs.index(value)}")
        else:
            sys.exit(f"oracle: @{name} returns {value}, which no kernel writes "
                     "(a constant the host holds): nothing to compare")
    return labels


def static_results(results, labels, kernel_path):
    """`results` with the sizes a dynamic result type leaves open taken
    from the kernel's output memory location the result is read from."""
    with open(kernel_path) as kernel:
        text = kernel.read()
    static = []
    for (shape, element, declared), label in zip(results, labels):
        if None in shape:
            found = re.search(r'bir\.memloc "' + re.escape(label) +
                              r'" \w+ : !bir\.dram<((?:\d+x)*)\w+>', text)
            if not found:
                sys.exit(f"oracle: no output memory location '{label}' for a result of "
                         f"dynamic sizes")
            shape = [int(d) for d in found.group(1).split("x") if d]
        static.append((shape, element, declared))
    return static


def count(shape):
    total = 1
    for dim in shape:
        total *= dim
    return total


def fewest_table_rows(text):
    """The fewest rows of any table a `tensor.extract` reads (leading
    extents of 1 aside: a batch of one), or a bound no input reaches: ids
    below it are in range for every table."""
    rows = [int(extent) for extent in re.findall(
        r"tensor\.extract %[^\s\[]+\[[^\]]+\] : tensor<(\d+)x", text)]
    return min([extent for extent in rows if extent > 1], default=1 << 62)


def seeded_values(seed, name, shape, element, int_range=(-8, 8), bf16_exact=False):
    """Floats in [-1, 1), integers in [-8, 8) (or `int_range`: token ids),
    the same for a name and seed on every run, as the element type holds
    them; with `bf16_exact`, floats bf16 holds exactly (auto-cast then
    changes no matmul operand that is an input)."""
    generator = random.Random(f"{seed}:{name}")
    if element.name == "i1":
        return [generator.randrange(0, 2) for _ in range(count(shape))]
    if not element.is_float:
        return [generator.randrange(*int_range) for _ in range(count(shape))]
    values = [generator.uniform(-1.0, 1.0) for _ in range(count(shape))]
    if bf16_exact:
        values = [ELEMENTS["bf16"].round(value) for value in values]
    return [element.round(value) for value in values]


def write_npy(path, shape, values, element):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        element.descr, "".join(f"{d}, " for d in shape))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    pack = "f" if element.name == "bf16" else element.pack
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        out.write(struct.pack(f"<{len(values)}{pack}", *values))


def read_npy_values(path):
    with open(path, "rb") as data:
        raw = data.read()
    length = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + length].decode()
    descr = re.search(r"'descr': '([^']*)'", header).group(1)
    body = raw[10 + length:]
    pack = {"<f4": "f", "<f8": "d", "<f2": "e", "<i4": "i", "<i8": "q", "<i2": "h",
            "|i1": "b"}.get(descr)
    if not pack:
        sys.exit(f"oracle: {path} has dtype {descr}")
    size = struct.calcsize(pack)
    return list(struct.unpack(f"<{len(body) // size}{pack}", body))


# The harness's entry point.
ENTRY = "walrus_oracle_main"


def memref_type(shape, element):
    return "memref<" + "".join(f"{d}x" for d in shape) + element + ">"


def harness(name, arguments, results, inputs, declared_arguments=()):
    """A @walrus_oracle_main (a name the file does not use: LLVM's
    integration tests have their own @main) that calls @name on the inputs
    (outputs zeroed) and prints the bits of every output, arguments first,
    as i64."""
    lines, calls, printed = [], [], []
    for index, (shape, element) in enumerate(arguments):
        kind = memref_type(shape, element.name)
        if index in inputs and element.name == "i1":
            # Booleans as bytes, truncated to i1 (dense hex of i1 packs bits).
            hex_bytes = element.to_bytes(inputs[index]).hex()
            bytes_kind = memref_type(shape, "i8")
            dims = ", ".join(f"d{i}" for i in range(len(shape)))
            identity = f"affine_map<({dims}) -> ({dims})>"
            iterators = ", ".join(['"parallel"'] * len(shape))
            lines.insert(0, f'memref.global "private" constant @arg{index} : {bytes_kind} = '
                            f'dense<"0x{hex_bytes.upper()}">')
            calls.append(f"    %g{index} = memref.get_global @arg{index} : {bytes_kind}\n"
                         f"    %a{index} = memref.alloc() : {kind}\n"
                         f"    linalg.generic {{indexing_maps = [{identity}, {identity}], "
                         f"iterator_types = [{iterators}]}} ins(%g{index} : {bytes_kind}) "
                         f"outs(%a{index} : {kind}) {{\n"
                         f"    ^bb0(%x: i8, %o: i1):\n"
                         f"      %t = arith.trunci %x : i8 to i1\n"
                         f"      linalg.yield %t : i1\n"
                         f"    }}")
        elif index in inputs:
            hex_bytes = element.to_bytes(inputs[index]).hex()
            lines.insert(0, f'memref.global "private" constant @arg{index} : {kind} = '
                            f'dense<"0x{hex_bytes.upper()}">')
            calls.append(f"    %g{index} = memref.get_global @arg{index} : {kind}\n"
                         f"    %a{index} = memref.alloc() : {kind}\n"
                         f"    memref.copy %g{index}, %a{index} : {kind} to {kind}")
            view = strided_view(declared_arguments[index]) if declared_arguments else None
            if view:
                # The buffer the argument spans, viewed as the function reads it.
                shape_v, strides, offset = view
                calls.append(f"    %v{index} = memref.reinterpret_cast %a{index} to offset: "
                             f"[{offset}], sizes: {shape_v}, strides: {strides} : {kind} to "
                             f"{declared_arguments[index]}")
        else:
            zero = "0.0" if element.is_float else "0"
            calls.append(f"    %z{index} = arith.constant {zero} : {element.name}\n"
                         f"    %a{index} = memref.alloc() : {kind}\n"
                         f"    linalg.fill ins(%z{index} : {element.name}) "
                         f"outs(%a{index} : {kind})")
            printed.append((f"%a{index}", shape, element))
    views = [bool(declared_arguments and strided_view(declared_arguments[i]))
             for i in range(len(arguments))]
    if any(view and i not in inputs for i, view in enumerate(views)):
        sys.exit("oracle: an output argument of a strided layout is not supported")
    operands = ", ".join(f"%v{i}" if views[i] else f"%a{i}" for i in range(len(arguments)))
    types = ", ".join(declared_arguments[i] if views[i] else memref_type(s, e.name)
                      for i, (s, e) in enumerate(arguments))
    result_types = ", ".join(declared for _, _, declared in results)
    call = f"func.call @{name}({operands}) : ({types}) -> ({result_types})"
    body = [*calls]
    if results:
        call = f"%r:{len(results)} = " + call
    body.append("    " + call)
    for i, (shape, element, declared) in enumerate(results):
        # A result of dynamic sizes is read as the static buffer it is.
        kind = memref_type(shape, element.name)
        value = f"%r#{i}"
        if kind != declared:
            body.append(f"    %s{i} = memref.cast %r#{i} : {declared} to {kind}")
            value = f"%s{i}"
        printed.append((value, shape, element))
    for index, (value, shape, element) in enumerate(printed):
        rank = len(shape)
        dims = ", ".join(f"d{i}" for i in range(rank))
        identity = f"affine_map<({dims}) -> ({dims})>"
        iterators = ", ".join(['"parallel"'] * rank)
        bits = memref_type(shape, "i64")
        integer = element.bits_type()
        cast = (f"      %c = arith.bitcast %x : {element.name} to {integer}\n"
                if element.is_float else "")
        source = "%c" if element.is_float else "%x"
        extend = (f"      %b = arith.extui {source} : {integer} to i64\n" if element.width < 64
                  else f"      %b = arith.addi {source}, %zero64 : i64\n")
        body.append(
            f"    %zero64 = arith.constant 0 : i64\n" if index == 0 else "")
        body.append(
            f"    %bits{index} = memref.alloc() : {bits}\n"
            f"    linalg.generic {{indexing_maps = [{identity}, {identity}], "
            f"iterator_types = [{iterators}]}} ins({value} : {memref_type(shape, element.name)}) "
            f"outs(%bits{index} : {bits}) {{\n"
            f"    ^bb0(%x: {element.name}, %o: i64):\n"
            f"{cast}{extend}"
            f"      linalg.yield %b : i64\n"
            f"    }}\n"
            f"    %u{index} = memref.cast %bits{index} : {bits} to memref<*xi64>\n"
            f"    func.call @printMemrefI64(%u{index}) : (memref<*xi64>) -> ()")
    main = (f"  func.func @{ENTRY}() {{\n" + "\n".join(line for line in body if line) +
            "\n    return\n  }\n"
            "  func.func private @printMemrefI64(memref<*xi64>)\n")
    return "\n".join("  " + line for line in lines) + "\n" + main


def module_body(text):
    """The ops of a top-level `module [@name] [attributes {...}] {...}`
    (torch-mlir's carry `torch.debug_module_name`, which the CPU run has no
    dialect for), or `text` when it is not one."""
    header = re.match(r"module\b\s*(@[\w$.\"-]+\s*)?(attributes\b)?", text)
    if not header:
        return text
    at = header.end()
    if header.group(2):
        depth = 0
        for index in range(at, len(text)):
            depth += {"{": 1, "}": -1}.get(text[index], 0)
            if text[index] == "}" and depth == 0:
                at = index + 1
                break
    return text[text.index("{", at) + 1:text.rindex("}")]


def mlir_outputs(text, name, arguments, results, inputs, work, declared_arguments=()):
    """Every output of @name run on the CPU, as values of its element type."""
    source = os.path.join(work, "cpu.mlir")
    # The function itself (without its module braces) plus the harness.
    body, resources = text.strip(), ""
    if "{-#" in body:
        body, resources = body[:body.index("{-#")].strip(), body[body.index("{-#"):]
    # mlir-runner registers no ml_program: torch-mlir's unused seed global
    # goes (the lowering drops it too).
    for match in re.finditer(r"^\s*ml_program\.global private[^@]*@([\w$.]+).*$", body, re.M):
        if body.count("@" + match.group(1)) == 1:
            body = body.replace(match.group(0), "")
    body = module_body(body)
    with open(source, "w") as out:
        out.write("module {\n" + body + "\n" + harness(name, arguments, results, inputs, declared_arguments) + "}\n" + resources)
    lowered = run([os.path.join(LLVM_BIN, "mlir-opt"), source, *LOWER_TO_LLVM])
    printed = run([os.path.join(LLVM_BIN, "mlir-runner"), "-e", ENTRY,
                   "-entry-point-result=void",
                   f"-shared-libs={LLVM_LIB}/libmlir_runner_utils.so,"
                   f"{LLVM_LIB}/libmlir_c_runner_utils.so"], input=lowered)
    elements = [e for i, (_, e) in enumerate(arguments) if i not in inputs]
    elements += [e for _, e, _ in results]
    outputs = []
    for chunk, element in zip(printed.split("Unranked Memref")[1:], elements):
        data = chunk[chunk.index("data =") + len("data ="):]
        mask = (1 << element.width) - 1
        outputs.append([element.from_bits(int(v) & mask) for v in re.findall(r"-?\d+", data)])
    return outputs


# The bound docs/LinalgToBir.md ("Auto-cast") states for bf16 matmul
# operands through whole layers: 1% of the largest magnitude.
AUTO_CAST_SCALE_TOL = 1e-2


def auto_cast_applied(kernel, source):
    """Whether the lowering put matmul operands of an f32 source in bf16."""
    return "bf16" not in source and any(
        "bir.matmult" in line and "bf16" in line for line in kernel.splitlines())


def compare(label, expected, actual, atol, rtol, scale_tol, nan_bits=False):
    if len(expected) != len(actual):
        return f"{label}: {len(actual)} elements, expected {len(expected)}", 0.0
    # Relative to the output's largest magnitude: where a sum cancels, the
    # error of its terms is what matters, not the size of the result.
    atol += scale_tol * max((abs(v) for v in expected), default=0.0)
    worst = 0.0
    bits = lambda value: struct.pack("<d", value)  # noqa: E731
    for index, (want, got) in enumerate(zip(expected, actual)):
        if want != want and got != got:
            # A NaN an operation computes may have any sign and payload
            # (LLVM's floating-point semantics); data movement keeps them,
            # which --nan-bits checks.
            if not nan_bits or bits(want) == bits(got):
                continue
            return (f"{label} differs at element {index}: mlir NaN {bits(want).hex()}, "
                    f"walrus NaN {bits(got).hex()}", 0.0)
        if bits(want) == bits(got):
            continue
        error = abs(want - got)
        if not error <= atol + rtol * abs(want):
            return (f"{label} differs at element {index}: mlir {want!r}, walrus {got!r}",
                    error)
        worst = max(worst, error)
    return None, worst


def check_outputs(name, labels, expected, inputs, work, atol, rtol, scale_tol, nan_bits):
    """Compares what walrus-run wrote for each label with what MLIR
    computed; prints a line per output and the verdict, exits 1 on a
    mismatch."""
    failures, worst, compared = 0, 0.0, 0
    for label, want in zip(labels, expected):
        path = os.path.join(work, "out", label + ".npy")
        argument = re.fullmatch(re.escape(name) + r"_arg(\d+)", label)
        if argument and int(argument.group(1)) in inputs:
            # A returned input the kernel only reads is the input itself.
            got = inputs[int(argument.group(1))]
        elif not os.path.exists(path):
            # An argument the kernel never writes keeps its zeros.
            got = [0] * len(want)
        else:
            got = read_npy_values(path)
        problem, error = compare(label, want, got, atol, rtol, scale_tol, nan_bits)
        worst = max(worst, error)
        nans = sum(1 for value in want if value != value)
        compared += len(want) - nans
        print(f"{label}: {len(want)} elements, "
              f"{'MISMATCH' if problem else 'max error %g' % error}"
              + (f" ({nans} NaN on both sides)" if nans and not problem else ""))
        if problem:
            print("oracle: mismatch: " + problem)
            failures += 1
    if failures:
        sys.exit(1)
    if not compared and any(expected) and not nan_bits:
        # Every value NaN (weights that overflow a whole model): nothing
        # was checked.
        print("oracle: vacuous: every output element is NaN on both sides")
        return
    print("oracle: identical" if worst == 0.0 else
          f"oracle: within tolerance (max error {worst:g})")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--func", help="the function to check (default: the first)")
    parser.add_argument("--lnc-size", type=int, default=1)
    parser.add_argument("--lowering-options", default="",
                        help="more -convert-linalg-to-bir options, e.g. 'matmul-buffers=3'")
    parser.add_argument("--pipeline", action="store_true",
                        help="run the whole Walrus pipeline after the lowering")
    parser.add_argument("--schedule-options", default=None,
                        help="with --pipeline, run -bir-schedule with these "
                             "options before -sb-alloc")
    parser.add_argument("--dram-to-sb-bytes", type=int, default=0,
                        help="with --pipeline: vn-split's dram-to-sb-bytes")
    parser.add_argument("--reference",
                        help="the function MLIR runs instead (same signature): an equivalent "
                             "that upstream lowers to LLVM, for ops it does not (linalg.softmax)")
    parser.add_argument("--reference-file",
                        help="the file holding --reference, when the checked file holds ops "
                             "upstream cannot run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bf16-exact-inputs", action="store_true",
                        help="float inputs that bf16 holds exactly: auto-cast leaves a "
                             "matmul of inputs exact up to the order of its sums")
    parser.add_argument("--ids-below", type=int, default=0,
                        help="seed integer inputs in [0, N) (token ids of an embedding "
                             "table of N rows) instead of [-8, 8); N is at most the rows "
                             "of the smallest table a tensor.extract reads (an embedding "
                             "bag of 2 rows)")
    parser.add_argument("--atol", type=float, default=0.0)
    parser.add_argument("--rtol", type=float, default=0.0)
    parser.add_argument("--nan-bits", action="store_true",
                        help="a NaN matches only a NaN of the same bits (data movement)")
    parser.add_argument("--scale-tol", type=float, default=0.0,
                        help="also allow this times the output's largest magnitude (whole "
                             "layers, whose sums cancel)")
    parser.add_argument("--no-auto-cast-bound", dest="auto_cast_bound", action="store_false",
                        help="keep the stated tolerances where the lowering put f32 matmul "
                        "operands in bf16 (by default the oracle then allows 1%% of the "
                        "largest magnitude, the bound docs/LinalgToBir.md states)")
    parser.add_argument("--accumulate-as-written", dest="widen_accumulators",
                        action="store_false",
                        help="run bf16/f16 contractions on the CPU as written (the running "
                        "sum rounded at every step) instead of as -widen-accumulators "
                        "makes them")
    parser.add_argument("--seed-splat-weights", action="store_true",
                        help="replace splat float constants of rank 1 or more (a model "
                        "initialised to ones, whose outputs are all NaN) by seeded weights")
    parser.add_argument("--max-elements", type=int, default=None,
                        help="walrus-run's limit of operand elements processed (its "
                        "default: 2^28); a whole model needs more")
    parser.add_argument("--bin", default=BIN, help="directory of walrus-opt and walrus-run")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="walrus-oracle-")
    try:
        # Tensors are bufferized as -walrus-from-linalg does (its
        # normalization and operand folds first); MLIR runs the function as written, bufferized.
        bufferized = os.path.join(work, "bufferized.mlir")
        source = fill_elided(args.file, work, args.seed, args.seed_splat_weights)
        text = bufferize(args.bin, source, [*WALRUS_PRELUDE, *BUFFERIZE, *WALRUS_BUFFERS],
                         bufferized)
        name, arguments, results, declared_arguments = find_function(text, args.func)
        with open(source) as written:
            table_rows = fewest_table_rows(written.read())
        reference = args.reference or name
        cpu_source = prepare_for_cpu(source, work)
        if args.widen_accumulators:
            cpu_source, widened = widen_for_cpu(cpu_source, work, args.bin)
            if widened:
                # The f32 sums add in another order: rounded once, they may
                # land one unit in the last place of the 16-bit type apart.
                args.rtol = max(args.rtol, 2.0 ** -7 if "bf16" in text else 2.0 ** -10)
                print("oracle: MLIR runs bf16/f16 contractions accumulating in f32, "
                      f"rounded once, as -widen-accumulators lowers them: outputs "
                      f"within rtol {args.rtol:g} (one unit in the last place; "
                      "docs/LinalgToBir.md, \"16-bit accumulators\")")
        cpu_text = bufferize(args.bin, cpu_source, BUFFERIZE,
                             os.path.join(work, "cpu.mlir"))
        if args.reference_file:
            reference_path = os.path.join(work, "reference.mlir")
            run([os.path.join(args.bin, "walrus-opt"), args.reference_file, *BUFFERIZE,
                 "--mlir-print-local-scope", "-o", reference_path])
            with open(reference_path) as source:
                cpu_text = source.read()
        lowered = os.path.join(work, "kernel.mlir")
        # The function alone: walrus-run runs every kernel of the module,
        # and the others' inputs are not seeded (ids out of their range).
        passes = [f"-symbol-privatize=exclude={name}", "-symbol-dce",
                  f"-convert-linalg-to-bir=lnc-size={args.lnc_size} {args.lowering_options}"]
        if args.pipeline:
            passes += [f"-vn-split=dram-to-sb-bytes={args.dram_to_sb_bytes}"
                       if p == "-vn-split" else p for p in WALRUS_PIPELINE]
            if args.schedule_options is not None:
                passes.insert(passes.index("-sb-alloc"),
                              f"-bir-schedule={args.schedule_options}")
        run([os.path.join(args.bin, "walrus-opt"), bufferized, *passes, "-o", lowered])
        with open(lowered) as kernel:
            kernel_text = kernel.read()
        memlocs = re.findall(r'bir\.memloc "(' + re.escape(name) + r'_(?:arg(\d+)|result(\d+)))" '
                             r'(input|output)', kernel_text)
        scale_tol = args.scale_tol
        if args.auto_cast_bound and not args.bf16_exact_inputs and \
                auto_cast_applied(kernel_text, text):
            # The lowering's default: f32 matmul operands on the tensor
            # engine in bf16 (docs/LinalgToBir.md, "Auto-cast").
            scale_tol = max(scale_tol, AUTO_CAST_SCALE_TOL)
            print(f"oracle: auto-cast put f32 matmul operands in bf16: outputs within "
                  f"{scale_tol:g} of the largest magnitude (docs/LinalgToBir.md, \"Auto-cast\")")
        if UNDEFINED:
            # What MLIR's run computes from them is whatever its allocation
            # held: nothing to compare against.
            print(f"oracle: undefined: {UNDEFINED[0]}")
            return
        results = static_results(results, returned_labels(text, name), lowered)
        inputs, walrus_run = {}, [os.path.join(args.bin, "walrus-run"), lowered,
                                  "--output-dir", os.path.join(work, "out")]
        for label, arg, _, kind in memlocs:
            if kind == "input":
                index = int(arg)
                shape, element = arguments[index]
                ids_below = min(args.ids_below, table_rows)
                inputs[index] = seeded_values(args.seed, label, shape, element,
                                              (0, ids_below) if args.ids_below
                                              else (-8, 8), args.bf16_exact_inputs)
                path = os.path.join(work, label + ".npy")
                write_npy(path, shape, inputs[index], element)
                walrus_run += ["--input", f"{label}={path}"]
        if args.max_elements is not None:
            walrus_run += [f"--max-elements={args.max_elements}"]
        if not arguments and not results and re.search(r"call @printMemref", text):
            # A program that prints its results (LLVM's integration tests):
            # what MLIR's run prints against the buffers walrus-run writes.
            labels = printed_labels(text, name)
            run(walrus_run)
            expected = printed_values(cpu_text, name, work)
            # printMemref's six significant digits: within 5e-6 of the value.
            check_outputs(name, labels, expected, {}, work, args.atol,
                          max(args.rtol, 5e-6), scale_tol, args.nan_bits)
            return
        run(walrus_run)
        expected = mlir_outputs(cpu_text, reference, arguments, results, inputs, work,
                                declared_arguments)
        labels = [f"{name}_arg{i}" for i in range(len(arguments)) if i not in inputs]
        labels += returned_labels(text, name)
        check_outputs(name, labels, expected, inputs, work, args.atol, args.rtol, scale_tol,
                      args.nan_bits)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
