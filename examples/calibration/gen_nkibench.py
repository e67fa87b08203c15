#!/usr/bin/env python3
"""NKIBench's baseline kernels, written in bir.

NKIBench (the public AccelOpt repository, zhang677/AccelOpt, `NKIBench/`)
holds NKI kernels as the Neuron compiler prints them (`kernels/*_0.py`)
and a numpy reference of each (`reference/`). This script reads them from
a clone of that repository and writes the kernel in bir with
nki_trace.py: its loops, tile shapes, the engine of each instruction, its
identity-matmul transposes.

  gen_nkibench.py silu --accelopt DIR -o silu.mlir
  gen_nkibench.py silu --accelopt DIR --check [--trips i0=1,i1=2]

`--check` runs the bir in walrus-run on the reference's inputs and
compares every output element the run writes with the reference's
result. So that the interpreter's run stays short, it runs at most two
iterations of each loop whose variable indexes a store into an output
(each of those writes its own output tiles), or what `--trips` says (the
loops are i0, i1, ... in the order the source opens them).
"""
import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nki_trace  # noqa: E402


def locate(accelopt, problem):
    """The kernel source and the reference module of `problem`."""
    bench = os.path.join(accelopt, "NKIBench")
    summary = json.load(open(os.path.join(bench, "summary.json")))
    [case] = summary[problem]["cases"].values()
    [impl] = case["impls"]
    kernel = open(os.path.join(bench, impl["kernel"])).read()
    spec = importlib.util.spec_from_file_location("reference", os.path.join(bench, impl["task"]))
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    return kernel, reference


def build(kernel, reference, trips, buffers, seed=0):
    np.random.seed(seed)
    inputs = reference.get_inputs()
    nki_inputs = reference.transform_to_nki_inputs(inputs)
    named = {f"in{i}": np.ascontiguousarray(array) if np.ndim(array) else array
             for i, array in enumerate(nki_inputs)}
    tracer, outputs = nki_trace.run_kernel(kernel, named, trips)
    emitter = nki_trace.Emitter(tracer, buffers)
    return emitter, inputs, named, outputs


def store_loops(emitter, outputs):
    """The loops whose variables index a store into an output: each of
    their iterations writes its own part of the output."""
    found = set()

    def visit(loop):
        for item in loop.body:
            if isinstance(item, nki_trace.Loop):
                visit(item)
            elif item["kind"] == "dma" and any(item["dst"].tensor is o for o in outputs):
                for lin in item["dst"].index:
                    found.update(lin.loops)
    visit(emitter.tracer.root)
    return found


def written(emitter, output):
    """Which elements of `output` the program's stores write."""
    mask = np.zeros(math.prod(output.shape), dtype=bool)
    strides = [math.prod(output.shape[i + 1:]) for i in range(len(output.shape))]

    def visit(loop):
        for item in loop.body:
            if isinstance(item, nki_trace.Loop):
                visit(item)
            elif item["kind"] == "dma" and item["dst"].tensor is output:
                names = item["loops"]
                for values in np.ndindex(*[emitter.trips[n] for n in names]):
                    env = dict(zip(names, values))
                    base, ranges = 0, {}
                    for lin, stride in zip(item["dst"].index, strides):
                        base += (lin.const + sum(c * env[n] for n, c in lin.loops.items())) * stride
                        for pos, (n, coef) in lin.iters.items():
                            ranges[pos] = (n, coef * stride)
                    if item.get("mask") is not None:
                        # A mask c + loops - index >= 0 keeps c + loops + 1.
                        lin = item["mask"][1]
                        [(pos, (n, _))] = lin.iters.items()
                        kept = lin.const + sum(c * env[v] for v, c in lin.loops.items()) + 1
                        if pos in ranges and ranges[pos][0] == n:
                            ranges[pos] = (max(0, min(n, kept)), ranges[pos][1])
                    offsets = np.array([base])
                    for pos in sorted(ranges):
                        n, step = ranges[pos]
                        offsets = (offsets[:, None] + step * np.arange(n)[None, :]).ravel()
                    mask[offsets] = True
    visit(emitter.tracer.root)
    return mask.reshape(output.shape)


def check(args, emitter, text, inputs, named, outputs, reference):
    with tempfile.TemporaryDirectory() as work:
        program = os.path.join(work, "kernel.mlir")
        open(program, "w").write(text)
        command = [args.run, program, "--output-dir", work, "--max-iterations", str(1 << 26),
                   "--max-elements", str(1 << 33)]
        for name, array in ((n, a) for n, a in named.items() if np.ndim(a)):
            np.save(os.path.join(work, name + ".npy"), array)
            command += ["--input", f"{name}={os.path.join(work, name + '.npy')}"]
        for tensor in emitter.tracer.tensors:
            if tensor.value is not None:
                path = os.path.join(work, tensor.name + ".npy")
                np.save(path, tensor.value.reshape(emitter.storage[id(tensor)].rows, -1))
                command += ["--input", f"{tensor.name}={path}"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode:
            sys.exit(f"walrus-run failed:\n{result.stderr[-3000:]}")
        got = [np.load(os.path.join(work, output.name + ".npy")).reshape(output.shape)
               for output in outputs]
        masks = [written(emitter, output) for output in outputs]
    expected = reference.forward(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = reference.transform_nki_outputs(tuple(got) if len(got) > 1 else got[0], expected)
    masks = reference.transform_nki_outputs(tuple(masks) if len(masks) > 1 else masks[0], expected)
    # Normwise: each error over the output's largest magnitude. Long fp32
    # sums added in another order than numpy's differ by a rounding of
    # their terms, which is large against an element that cancels.
    worst, count = 0.0, 0
    for value, want, mask in zip(got, expected, masks):
        value, want, mask = np.asarray(value), np.asarray(want), np.asarray(mask, dtype=bool)
        scale = max(1.0, float(np.abs(want[mask]).max(initial=0)))
        error = np.abs(value[mask] - want[mask]) / scale
        worst, count = max(worst, float(error.max(initial=0))), count + int(mask.sum())
    verdict = "agrees" if worst <= args.tolerance else "DIFFERS"
    print(f"{args.problem}: {verdict} with the numpy reference on {count} output element(s) "
          f"(max error {worst:.2e} of the largest output, tolerance {args.tolerance:g})")
    return worst <= args.tolerance


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("problem", help="silu, adamw, matmul, ... (NKIBench/summary.json)")
    parser.add_argument("--accelopt", default=os.environ.get("ACCELOPT_DIR"),
                        help="a clone of github.com/zhang677/AccelOpt (default: $ACCELOPT_DIR)")
    parser.add_argument("--buffers", type=int,
                        help="copies a tile private to a loop iteration rotates through "
                             "(default: as many as the memory holds)")
    parser.add_argument("--trips", default="", help="loop=count,...: run fewer iterations")
    parser.add_argument("--check", action="store_true", help="run it in walrus-run against numpy")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--run", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "build", "bin", "walrus-run"))
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args()
    if not args.accelopt:
        sys.exit("gen_nkibench.py: give --accelopt DIR (a clone of AccelOpt) or set ACCELOPT_DIR")
    trips = {k: int(v) for k, v in (p.split("=") for p in args.trips.split(",") if p)}
    kernel, reference = locate(args.accelopt, args.problem)
    emitter, inputs, named, outputs = build(kernel, reference, trips, args.buffers)
    if args.check and not args.trips:
        # At most two iterations of each loop over output tiles.
        trips = {name: 2 for name in store_loops(emitter, outputs)}
        emitter, inputs, named, outputs = build(kernel, reference, trips, args.buffers)
    text = emitter.program()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        open(args.output, "w").write(text)
    if args.check and not check(args, emitter, text, inputs, named, outputs, reference):
        sys.exit(1)


if __name__ == "__main__":
    main()
