#!/usr/bin/env python3
"""The timing model against published kernel timings.

Writes each published kernel in bir as its source structures it and
estimates it with -print-bir-timeline:

- the NKI matrix multiplication tutorial's four kernels (bf16, trn1) and
  two neuron-kernel-autotuner timings (examples/calibration/
  gen_nki_matmul.py);
- the tutorial's first kernel in fp32 on trn2 (measured 39.89 ms with
  neuron-profile: DMA active 39.87 ms, TensorE 34.82 ms, 10.87 GB moved);
- NKIBench's baseline kernels (fp32, trn1, one core; the public AccelOpt
  repository, NKIBench/kernels/*_0.py, traced into bir by
  examples/calibration/gen_nkibench.py), whose profiles give the total
  time and the scalar (ACT), vector (DVE) and GpSimd (Pool) engines'
  active times (experiments/full_complete_local/profile_results.csv).

Which rows fit the model's fitted constants was declared before fitting
(docs/TimingModel.md, "Calibration"); every other row is held out. `--fit`
prints what the fit gives for the constants lib/Analysis/Timeline.cpp
holds. The NKIBench rows need a clone of AccelOpt (`--accelopt DIR` or
$ACCELOPT_DIR); without one they are skipped.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CALIBRATION = os.path.join(HERE, "..", "examples", "calibration")
TUTORIAL = "NKI matrix multiplication tutorial, [4096, 8192] x [8192, 8192] bf16, trn1"
AUTOTUNER = ("neuron-kernel-autotuner README (neuron-bench, SDK 2.25), "
             "[4096, 1024] x [1024, 2048] bf16, trn1")
TRN2 = ("NKI kernel-optimization tutorial's first kernel, [4096, 8192] x [8192, 8192] fp32, "
        "trn2 (neuron-profile)")

# (kernel, M, K, N, dtype, target, published us, role, source)
MATMULS = [
    ("tiled", 4096, 8192, 8192, "bf16", "trn1", 51800, "fit", TUTORIAL),
    ("hoist_load", 4096, 8192, 8192, "bf16", "trn1", 42960, "held out", TUTORIAL),
    ("block_free", 4096, 8192, 8192, "bf16", "trn1", 22070, "held out", TUTORIAL),
    ("fully_optimized", 4096, 8192, 8192, "bf16", "trn1", 6970, "held out", TUTORIAL),
    ("tiled", 4096, 1024, 2048, "bf16", "trn1", 463, "held out", AUTOTUNER),
    ("fully_optimized", 4096, 1024, 2048, "bf16", "trn1", 273, "held out", AUTOTUNER),
    ("tiled", 4096, 8192, 8192, "f32", "trn2", 39890, "fit trn2", TRN2),
]
# Copies of each reloaded tile the tutorial kernels rotate through: the
# trn2 profile shows the DMA engines active for the whole run, so the
# compiler hid the transfers' fixed latency, which two copies cannot at
# these tiles' compute times.
MATMUL_BUFFERS = 8
# The error a check allows, over the output's largest magnitude: 1e-4
# everywhere (gen_nkibench.py --check).
TOLERANCE = {}
# Kernels whose measured vector-engine time is below what the printed
# kernel's vector instructions take at the documented cost (adamw: six
# two-input instructions per 128 x 512 tile, 344 tiles, at least 2.0 ms
# against 1.80 ms measured): the compiler's backend fused them, a
# structure the printed kernel does not show. They stay in the table but
# fit no engine cost.
FUSED = ["adamw"]
# Declared before fitting: half of NKIBench fits, half is held out.
NKIBENCH_FIT = ["silu", "adamw", "matmul", "bmm", "rmsnorm_matmul", "gqa_full", "mamba"]
NKIBENCH_HELD_OUT = ["rope_single_freq_apply", "transpose_matmul", "bmm_softmax", "swiglu",
                     "lora", "add_rmsnorm_matmul", "matmul_add_rmsnorm"]
ENGINES = {"ACT": "scalar_engine_active_time_percent",
           "DVE": "vector_engine_active_time_percent",
           "Pool": "gpsimd_engine_active_time_percent"}
# An engine's time is compared where it is at least this share of the
# published total: smaller shares are a few microseconds of noise.
ENGINE_SHARE = 0.05


def estimate(opt, path, options=""):
    """The estimate of the program at `path`: finish, busy per engine, roofline (us)."""
    report = path + ".json"
    result = subprocess.run([opt, path, f"-print-bir-timeline=report-file={report} {options}",
                             "-o", "/dev/null"], capture_output=True, text=True)
    if result.returncode:
        sys.exit(result.stderr[-2000:])
    core = max((c for k in json.load(open(report))["kernels"] for c in k["cores"]),
               key=lambda c: c["finish_ns"])
    return {"total": core["finish_ns"] / 1000, "roofline": core["roofline_ns"] / 1000,
            "bound": core["bound"], **{e: v / 1000 for e, v in core["busy_ns"].items()}}


def matmul_program(row, work):
    kernel, m, k, n, dtype, target = row[:6]
    path = os.path.join(work, f"{kernel}-{m}-{k}-{n}-{dtype}-{target}.mlir")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(CALIBRATION, "gen_nki_matmul.py"), kernel,
                        "--m", str(m), "--k", str(k), "--n", str(n), "--dtype", dtype,
                        "--target", target, "--buffers", str(MATMUL_BUFFERS), "-o", path],
                       check=True)
    return path


def nkibench_profiles(accelopt):
    """Each problem's published latency (us) and engine active times (us)."""
    path = os.path.join(accelopt, "experiments", "full_complete_local", "profile_results.csv")
    profiles = {}
    for record in csv.DictReader(open(path)):
        if not record["kernel"].endswith("_0.py"):
            continue
        profile = json.loads(record["profile"])
        total = profile["latency"] * 1000
        profiles[record["problem"]] = {"total": total,
                                       **{e: profile[f] * total for e, f in ENGINES.items()}}
    return profiles


def nkibench_program(problem, accelopt, work):
    """The bir of `problem`, or None where the tracer cannot write it."""
    path = os.path.join(work, f"nkibench-{problem}.mlir")
    if not os.path.exists(path):
        result = subprocess.run([sys.executable, os.path.join(CALIBRATION, "gen_nkibench.py"),
                                 problem, "--accelopt", accelopt, "-o", path],
                                capture_output=True, text=True)
        if result.returncode:
            return None, result.stderr.strip().splitlines()[-1]
    return path, None


class Rows:
    """Every row: its program, published numbers and role."""

    def __init__(self, args, work):
        self.rows = []
        for row in MATMULS:
            self.rows.append(dict(name=row[0], shape=f"{row[1]}x{row[2]}x{row[3]} {row[4]}",
                                  target=row[5], path=matmul_program(row, work),
                                  published={"total": row[6]}, role=row[7], source=row[8]))
        if trn2 := [r for r in self.rows if r["target"] == "trn2"]:
            trn2[0]["published"].update(DMA=39870, PE=34820)
        if not args.accelopt:
            self.skipped = "NKIBench rows skipped: give --accelopt DIR (a clone of AccelOpt)"
            return
        self.skipped = None
        profiles = nkibench_profiles(args.accelopt)
        for problem in NKIBENCH_FIT + NKIBENCH_HELD_OUT:
            path, error = nkibench_program(problem, args.accelopt, work)
            self.rows.append(dict(name=problem, shape="NKIBench fp32", target="trn1", path=path,
                                  error=error, published=profiles[problem],
                                  role="fit" if problem in NKIBENCH_FIT else "held out",
                                  source="NKIBench baseline (AccelOpt profile_results.csv)"))

    def select(self, role, target="trn1"):
        return [r for r in self.rows if r["role"] == role and r["target"] == target and r["path"]]


def fit_dve(args, rows):
    """Least squares of the vector engine's cycles per element of a
    division on the fit half's DVE active times (two-input operations keep
    the documented 2 cycles per element)."""
    fitted = [r for r in rows.select("fit")
              if r["published"].get("DVE", 0) >= ENGINE_SHARE * r["published"]["total"]
              and r["name"] not in FUSED]
    if not fitted:
        sys.exit("no fit row with vector-engine time")
    slopes, targets = [], []
    for row in fitted:
        low, high = (estimate(args.opt, row["path"], f"divide-cycles={b}")["DVE"] for b in (1.0, 2.0))
        published = row["published"]["DVE"]
        slopes.append((high - low) / published)
        targets.append(1 - (low - (high - low)) / published)
    slopes, targets = np.array(slopes), np.array(targets)
    divide = float(slopes @ targets / (slopes @ slopes))
    print(f"divide-cycles {divide:.3f}: least squares of the relative error of DVE active time "
          f"over {', '.join(r['name'] for r in fitted)}")


def fit_dma(args, rows, target):
    """The DMA packet cost minimising the squared log ratio of the totals
    of `rows` on `target` (golden-section search)."""
    fitted = rows

    def loss(packet):
        return sum(math.log(estimate(args.opt, r["path"], f"dma-packet-bytes={packet}")["total"]
                            / r["published"]["total"]) ** 2 for r in fitted)
    lo, hi = 1.0, 4096.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(20):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if loss(a) < loss(b):
            hi = b
        else:
            lo = a
    packet = (lo + hi) / 2
    print(f"dma-packet-bytes {packet:.0f} on {target}: least squares of the log ratio of the "
          f"totals of {', '.join(r['name'] for r in fitted)} (loss {loss(packet):.4f})")


def ratio_text(published, estimated):
    return f"{published / 1000:>9.3f} {estimated / 1000:>9.3f} {estimated / published:>6.2f}"


def table(args, rows):
    print(f"{'kernel':>22} {'shape':>20} {'target':>6} {'row':>9}  {'published ms':>12} "
          f"{'estimate ms':>11} {'ratio':>6} {'bound':>5}   engines (published ms, estimate ms, ratio)")
    checks = {"held-out totals within 25%": [], "held-out engines within 30%": [],
              "trn1 tutorial within 25%": [], "trn2 within 15%": []}
    for row in rows.rows:
        if not row["path"]:
            print(f"{row['name']:>22} {row['shape']:>20} {row['target']:>6} {row['role']:>9}  "
                  f"not written: {row['error']}")
            if row["role"] == "held out":
                checks["held-out totals within 25%"].append(False)
            continue
        estimated = estimate(args.opt, row["path"])
        published = row["published"]
        total = published["total"]
        engines = []
        for engine in ("PE", "ACT", "DVE", "Pool", "DMA"):
            if engine in published and published[engine] >= ENGINE_SHARE * total:
                ratio = estimated[engine] / published[engine]
                engines.append(f"{engine} {published[engine] / 1000:.3f} {estimated[engine] / 1000:.3f} "
                               f"{ratio:.2f}")
                if row["role"] == "held out":
                    checks["held-out engines within 30%"].append(abs(ratio - 1) <= 0.30)
        ratio = estimated["total"] / total
        role = row["role"]
        if total < estimated["roofline"]:
            role = "below roofline"
        print(f"{row['name']:>22} {row['shape']:>20} {row['target']:>6} {role:>9}  "
              f"{total / 1000:>12.3f} {estimated['total'] / 1000:>11.3f} {ratio:>6.2f} "
              f"{estimated['bound']:>5}   {'; '.join(engines)}", flush=True)
        if role == "held out" and row["shape"].startswith("NKIBench"):
            checks["held-out totals within 25%"].append(abs(ratio - 1) <= 0.25)
        if row["source"] == TUTORIAL:
            checks["trn1 tutorial within 25%"].append(abs(ratio - 1) <= 0.25)
        if row["target"] == "trn2":
            checks["trn2 within 15%"].append(abs(ratio - 1) <= 0.15)
    if rows.skipped:
        print(rows.skipped)
    for name, results in checks.items():
        print(f"{name}: {sum(results)} of {len(results)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--accelopt", default=os.environ.get("ACCELOPT_DIR"),
                        help="a clone of github.com/zhang677/AccelOpt (default: $ACCELOPT_DIR)")
    parser.add_argument("--fit", choices=["dve", "dma", "dma-trn2"],
                        help="print the fitted value of one of the model's fitted constants")
    parser.add_argument("--check", action="store_true",
                        help="run each NKIBench kernel's bir in walrus-run against its numpy "
                             "reference first (gen_nkibench.py --check; minutes)")
    args = parser.parse_args()
    if args.check:
        if not args.accelopt:
            sys.exit("--check needs --accelopt DIR")
        for problem in NKIBENCH_FIT + NKIBENCH_HELD_OUT:
            result = subprocess.run([sys.executable, os.path.join(CALIBRATION, "gen_nkibench.py"),
                                     problem, "--accelopt", args.accelopt, "--check",
                                     "--tolerance", str(TOLERANCE.get(problem, 1e-4)),
                                     "-o", os.devnull], capture_output=True, text=True)
            # The verdict, else why there is none (numpy's warnings go to stderr).
            lines = result.stdout.strip().splitlines() or result.stderr.strip().splitlines()
            print(lines[-1] if lines else f"{problem}: no output", flush=True)
    with tempfile.TemporaryDirectory() as work:
        rows = Rows(args, work)
        if args.fit == "dve":
            fit_dve(args, rows)
        elif args.fit == "dma":
            # The tutorial's tiled kernel: the row the cost was declared
            # fitted to; the whole fit half's fit is printed beside it.
            fit_dma(args, [r for r in rows.select("fit") if r["source"] == TUTORIAL], "trn1")
            fit_dma(args, rows.select("fit"), "trn1")
        elif args.fit == "dma-trn2":
            fit_dma(args, rows.select("fit trn2", "trn2"), "trn2")
        else:
            table(args, rows)


if __name__ == "__main__":
    main()
