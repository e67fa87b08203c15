#!/usr/bin/env python3
"""NKIBench as torch-mlir emits it: Walrus's estimate against the best
published NKI kernels.

Each of NKIBench's problems (the public AccelOpt repository,
zhang677/AccelOpt, `NKIBench/`; fp32) is written at its published sizes
in the linalg forms torch-mlir emits (bench/nkibench_kernels.py) and
compiled with

    walrus-opt FILE -walrus-from-linalg="target=trn1 lnc-size=1 auto-cast=none report"

One row per problem: whether it lowers (else its first error), the timing
model's estimate (the kernels' slowest cores summed; an estimate, not a
measurement), the slowest core's bound, the bytes its DMAs move over the
minimum (each input read once, the output written once), and the
published times on trn1 (one core, fp32): NKIBench's baseline kernel
(`experiments/full_complete_local/profile_results.csv`) and the best
kernel AccelOpt found (`results/11110904_best_plan_id.csv`), with the
estimate over the best. The last line is the geometric mean of that ratio
over the problems that lower.

--check writes each problem at small sizes (SMALL), runs the compiled
program in walrus-run on the inputs of NKIBench's numpy reference
(get_inputs() at those sizes) and compares its output with the
reference's forward(): `agrees` where every element is within --tolerance
of the output's largest magnitude.

  nkibench.py --accelopt DIR [--problems silu,adamw] [--check]
"""
import argparse
import csv
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nkibench_kernels  # noqa: E402

OPTIONS = "target=trn1 lnc-size=1 auto-cast=none"
# Sizes the interpreter runs in seconds, each a multiple of the tiles.
SMALL = {
    "silu": {"M": 256, "N": 512},
    "adamw": {"M": 256, "N": 512},
    "rope_single_freq_apply": {"B": 1, "H": 1, "N": 512, "D": 128},
    "matmul": {"M": 256, "K": 256, "N": 512},
    "transpose_matmul": {"M": 256, "K": 256, "N": 512},
    "bmm": {"B": 2, "M": 256, "K": 64, "N": 256},
    "bmm_softmax": {"B": 2, "M": 256, "K": 64, "N": 256},
    "rmsnorm_matmul": {"M": 256, "K": 256, "N": 512},
    "add_rmsnorm_matmul": {"M": 256, "K": 256, "N": 512},
    "matmul_add_rmsnorm": {"M": 256, "K": 256, "N": 512},
    "swiglu": {"M": 256, "K": 256, "N": 512},
    "lora": {"M": 256, "K": 256, "N": 512, "R": 128},
    "gqa_full": {"B": 1, "N": 256, "QH": 4, "KH": 2, "D": 128},
}


def problem_case(accelopt, problem):
    """(sizes, reference module path) of `problem`'s one case."""
    bench = os.path.join(accelopt, "NKIBench")
    summary = json.load(open(os.path.join(bench, "summary.json")))
    [case] = summary[problem]["cases"].values()
    [impl] = case["impls"]
    return case["values"], os.path.join(bench, impl["task"])


def published(accelopt):
    """problem -> (baseline ms, best ms)."""
    base = os.path.join(accelopt, "experiments", "full_complete_local")
    baseline = {}
    for record in csv.DictReader(open(os.path.join(base, "profile_results.csv"))):
        if record["kernel"].endswith("_0.py"):
            baseline[record["problem"]] = json.loads(record["profile"])["latency"]
    best = {}
    for record in csv.DictReader(open(os.path.join(base, "results", "11110904_best_plan_id.csv"))):
        best[record["case_name"]] = json.loads(record["kernel_metadata"])["latency"]
    return baseline, best


def case_name(problem, sizes):
    return problem + "".join(f"_{k}{sizes[k]}" for k in sorted(sizes))


def compile_kernel(opt, path, output=os.devnull):
    """(error or None, estimate us, bound, DMA bytes) of the lowering."""
    run = subprocess.run([opt, path, f"-walrus-from-linalg={OPTIONS} report",
                          "--mlir-diagnostic-verbosity-level=remarks", "-o", output],
                         capture_output=True, text=True)
    if run.returncode:
        errors = [l for l in run.stderr.splitlines() if "error:" in l]
        return (errors[0].split("error:", 1)[1].strip() if errors else run.stderr.strip()[-200:]), \
            None, None, None
    kernels = re.findall(r"print-bir-timeline: kernel of \d+ core\(s\): ([0-9.]+) us", run.stderr)
    cores = re.findall(r"print-bir-timeline: @\S+ \(core \d+\): ([0-9.]+) us.*?bound by (\w+);"
                       r".*?DMA (\d+) B at", run.stderr)
    slowest = max(cores, key=lambda c: float(c[0]))
    return None, sum(float(k) for k in kernels), slowest[1], sum(int(c[2]) for c in cores)


def minimum_bytes(arguments, result_shape):
    return 4 * (sum(math.prod(a) for a in arguments) + math.prod(result_shape))


def reference_at(path, sizes, seed=0):
    """NKIBench's reference module with its size globals set to `sizes`,
    and its inputs at those sizes."""
    spec = importlib.util.spec_from_file_location("reference", path)
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    vars(reference).update(sizes)
    np.random.seed(seed)
    return reference, reference.get_inputs()


def check(args, problem, reference_path):
    sizes = SMALL[problem]
    text, _, result_shape = nkibench_kernels.write(problem, sizes)
    reference, inputs = reference_at(reference_path, sizes)
    with tempfile.TemporaryDirectory() as work:
        source, program = os.path.join(work, "kernel.mlir"), os.path.join(work, "out.mlir")
        open(source, "w").write(text)
        error, *_ = compile_kernel(args.opt, source, program)
        if error:
            return f"does not lower: {error}"
        command = [args.run, program, "--output-dir", work]
        tensors = [x for x in inputs if np.ndim(x)]
        for index, array in enumerate(tensors):
            path = os.path.join(work, f"arg{index}.npy")
            np.save(path, np.ascontiguousarray(array, dtype=np.float32))
            command += ["--input", f"forward_arg{index}={path}"]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode:
            return f"walrus-run failed: {run.stderr.strip().splitlines()[-1]}"
        got = np.load(os.path.join(work, "forward_result0.npy")).reshape(result_shape)
    want = np.asarray(reference.forward(*inputs), dtype=np.float64).reshape(result_shape)
    error = float(np.abs(got - want).max() / max(1.0, np.abs(want).max()))
    verdict = "agrees" if error <= args.tolerance else "DIFFERS"
    return f"{verdict} on {want.size} elements (max error {error:.2e} of the largest output)"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--accelopt", default=os.environ.get("ACCELOPT_DIR"),
                        help="a clone of github.com/zhang677/AccelOpt (default: $ACCELOPT_DIR)")
    parser.add_argument("--problems", default=",".join(list(nkibench_kernels.KERNELS) +
                                                        list(nkibench_kernels.NOT_WRITTEN)))
    parser.add_argument("--check", action="store_true",
                        help="run each at small sizes in walrus-run against the numpy reference")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--run", default=os.path.join(HERE, "..", "build", "bin", "walrus-run"))
    args = parser.parse_args()
    if not args.accelopt:
        sys.exit("nkibench.py: give --accelopt DIR (a clone of AccelOpt) or set ACCELOPT_DIR")
    problems = [p for p in args.problems.split(",") if p]
    if args.check:
        failed = 0
        for problem in problems:
            if problem in nkibench_kernels.NOT_WRITTEN:
                print(f"{problem}: not written: {nkibench_kernels.NOT_WRITTEN[problem]}")
                continue
            verdict = check(args, problem, problem_case(args.accelopt, problem)[1])
            failed += not verdict.startswith("agrees")
            print(f"{problem}: {verdict}", flush=True)
        sys.exit(1 if failed else 0)

    baseline, best = published(args.accelopt)
    print(f"{'problem':>24} {'lowers':>6} {'estimate ms':>11} {'bound':>5} {'bytes/min':>9} "
          f"{'baseline ms':>11} {'best ms':>8} {'est/best':>8}   (estimates: the timing model, "
          f"{OPTIONS})")
    ratios = []
    with tempfile.TemporaryDirectory() as work:
        for problem in problems:
            sizes, _ = problem_case(args.accelopt, problem)
            times = f"{baseline.get(problem, float('nan')):>11.3f} " \
                    f"{best.get(case_name(problem, sizes), float('nan')):>8.3f}"
            if problem in nkibench_kernels.NOT_WRITTEN:
                print(f"{problem:>24} {'-':>6} {'-':>11} {'-':>5} {'-':>9} {times}        -   "
                      f"not written: {nkibench_kernels.NOT_WRITTEN[problem]}")
                continue
            text, arguments, result_shape = nkibench_kernels.write(problem, sizes)
            path = os.path.join(work, problem + ".mlir")
            open(path, "w").write(text)
            error, estimate, bound, moved = compile_kernel(args.opt, path)
            if error:
                print(f"{problem:>24} {'no':>6} {'-':>11} {'-':>5} {'-':>9} {times}        -   {error}")
                continue
            ratio = estimate / 1000 / best[case_name(problem, sizes)]
            ratios.append(ratio)
            print(f"{problem:>24} {'yes':>6} {estimate / 1000:>11.3f} {bound:>5} "
                  f"{moved / minimum_bytes(arguments, result_shape):>9.2f} {times} {ratio:>8.2f}",
                  flush=True)
    if ratios:
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean of estimate / best over {len(ratios)} problem(s): {mean:.2f}")


if __name__ == "__main__":
    main()
