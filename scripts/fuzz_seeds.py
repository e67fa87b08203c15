#!/usr/bin/env python3
"""Seed corpora for scripts/fuzz.sh, one directory per target under the
given one: bir/ (every example and test .mlir, and kernels nested deeper
than the verifier allows), csv/ (small MiniMalloc problems), npy/ (a
header per element type and a raw file; the target's first two bytes pick
the tensor's element type and size), linalg/ (the lowering's tests and the
small model layers, split at `// -----`), lsp/ (LSP sessions in the
-lit-test form)."""
import glob
import os
import shutil
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def npy(descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * (63 - len(header) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload


def main():
    out = sys.argv[1]
    for sub in ("bir", "csv", "npy", "linalg", "lsp"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    sources = glob.glob(os.path.join(ROOT, "examples", "*.mlir"))
    sources += glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)
    for index, path in enumerate(sorted(sources)):
        shutil.copy(path, os.path.join(out, "bir", f"{index:04d}-{os.path.basename(path)}"))
    for depth in (3, 65, 200):
        loops = "bir.loop 0 to 2 step 1 {\n" * depth + "}\n" * depth
        with open(os.path.join(out, "bir", f"nest-{depth}.mlir"), "w") as seed:
            seed.write('bir.kernel @k {\nmodule @nc_symbolic attributes {bir.lnc_size = 2 : i64} '
                       '{\nbir.func @main {\n' + loops + "}\n}\n}\n")
    # The timeline's options on the first line (walrus-fuzz reads them).
    with open(os.path.join(ROOT, "examples", "rmsnorm.mlir")) as source:
        kernel = source.read()
    for name, options in (("timeline-tiny-clock", "pe-ghz=1e-308 dma-fixed-ns=inf"),
                          ("timeline-negative", "act-ghz=-2.4 dma-bytes-per-ns=nan"),
                          ("timeline-valid", "pe-ghz=0.001 dma-engines=1024 max-instructions=5")):
        with open(os.path.join(out, "bir", name + ".mlir"), "w") as seed:
            seed.write(f"// timeline: {options}\n" + kernel)
    with open(os.path.join(out, "bir", "kernel-deeper.mlir"), "w") as seed:
        seed.write("module {\nmodule {\nbir.kernel @k {\nmodule @nc_symbolic attributes "
                   "{bir.lnc_size = 2 : i64} {\nbir.func @main {\n}\n}\n}\n}\n}\n")
    problems = {
        "three": "id,lower,upper,size\nx,0,3,4\ny,1,2,8\nz,2,5,4\n",
        "partitions": "id,lower,upper,size,partitions\na,0,2,16,64\nb,1,3,16,128\n",
        "header-less": "0,0,1,1\n1,1,2,1\n",
        "bom": "\ufeffid,lower,upper,size\na,0,1,1\n",
    }
    for name, text in problems.items():
        with open(os.path.join(out, "csv", name + ".csv"), "w", encoding="utf-8") as seed:
            seed.write(text)
    # First byte: element type (0 f32, 1 bf16, 2 f16, 3 f64, 4 i32, 5 i8);
    # second: element count - 1.
    seeds = {
        "f32": bytes([0, 3]) + npy("<f4", "(4,)", struct.pack("<4f", 1, 2, 3, 4)),
        "bf16-from-f32": bytes([1, 1]) + npy("<f4", "(2,)", struct.pack("<2f", 1, 2)),
        "f64": bytes([3, 0]) + npy("<f8", "(1,)", struct.pack("<d", 1)),
        "i8-matrix": bytes([5, 5]) + npy("|i1", "(2, 3)", bytes(6)),
        "raw-i32": bytes([4, 1]) + bytes(8),
    }
    for name, data in seeds.items():
        with open(os.path.join(out, "npy", name), "wb") as seed:
            seed.write(data)
    linalg = glob.glob(os.path.join(ROOT, "test", "Conversion", "*.mlir"))
    linalg += [p for p in glob.glob(os.path.join(ROOT, "examples", "models", "*.mlir"))
               if "-real" not in p]
    index = 0
    for path in sorted(linalg):
        with open(path) as source:
            for part in source.read().split("// -----"):
                if "linalg." in part:
                    with open(os.path.join(out, "linalg", f"{index:04d}.mlir"), "w") as seed:
                        seed.write(part)
                    index += 1
    for path in glob.glob(os.path.join(ROOT, "test", "Tools", "walrus-lsp-server.test")):
        shutil.copy(path, os.path.join(out, "lsp", "session.lsp"))
    # A document opened, then edited by range as an editor does while the
    # user types: a loop opened, its body added, the brace closed.
    edit = ('{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":'
            '{{"uri":"test:///a.mlir","version":{0}}},"contentChanges":[{{"range":{{"start":'
            '{{"line":{1},"character":0}},"end":{{"line":{1},"character":0}}}},"text":"{2}"}}]}}}}')
    with open(os.path.join(out, "lsp", "edits.lsp"), "w") as seed:
        seed.write('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":'
                   '{"uri":"test:///a.mlir","languageId":"mlir","version":1,"text":'
                   '"bir.kernel @k {\\nmodule @nc_symbolic attributes {bir.lnc_size = 2 : i64} {\\n'
                   'bir.func @main {\\n}\\n}\\n}\\n"}}}\n// -----\n'
                   + edit.format(2, 3, "bir.loop 0 to 2 step 1 {\\n") + "\n// -----\n"
                   + edit.format(3, 4, "}\\n") + "\n")
    deep = "[" * 300 + "]" * 300
    with open(os.path.join(out, "lsp", "deep.lsp"), "w") as seed:
        seed.write('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n// -----\n'
                   + deep + '\n// -----\n{"jsonrpc":"2.0","method":"textDocument/didOpen",'
                   '"params":{"textDocument":{"uri":"test:///a.mlir","version":1,"text":'
                   '"bir.func @f {\\n bir.loop 0 to 2 step 1 {\\n }\\n}"}}}\n')


if __name__ == "__main__":
    main()
