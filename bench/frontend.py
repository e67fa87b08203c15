#!/usr/bin/env python3
"""From linalg to allocated per-core programs, on the real-size layers.

For each layer of examples/models/*-real.mlir and each core count, runs
`walrus-opt -walrus-from-linalg="lnc-size=N report"` once with MLIR's pass
timing and prints one row:
  - seconds: the whole run (parse to print) and the lowering alone;
  - instructions after the split, in all and on the busiest core;
  - SBUF peak over the lower bound (worst function) and spills (all);
  - DMA bytes: every bir.dma to or from DRAM, its elements times its
    element size, times the trip counts of the loops around it, over every
    core (DMAs within SBUF, from --dram-to-sb-bytes, are not DRAM traffic); against the
    minimum: each core loading once every input byte it reads (the span of
    each of its DMAs, united per core and input) and the output written
    once;
  - the timing model's estimate (-print-bir-timeline, docs/TimingModel.md):
    the kernels' slowest cores summed, the slowest core's bound, the
    estimate over the roofline (each kernel's largest core roofline,
    summed), and the spread of the cores (the time a kernel's busiest
    core works, less its waits at barriers, over the mean of its cores,
    the largest of any kernel).
With --matmul-buffers 1,2,3 a row per count of the lowering's rotating
matmul buffers; with --schedule off,on a row without and with
-bir-schedule before the allocation (docs/Schedule.md).
Then the time of each pass, per layer, as a second table.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pipeline import top_level_wall  # noqa: E402

PASSES = ["OneShotBufferizePass", "ConvertLinalgToBir", "ExpandReplication", "LncSplit",
          "LncVerify", "VnSplit", "ShrinkDn", "BirSchedule", "SbAlloc", "SbAllocVerify"]
BYTES = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "i64": 8, "i32": 4, "i16": 2, "i8": 1}


def element_bytes(type_text):
    return BYTES[re.search(r"x([a-z]\w*)>", type_text).group(1)]


def loop_points(loops):
    """Every combination of the induction variables of `loops`."""
    points = [()]
    for lower, upper, step in loops:
        points = [point + (iv,) for point in points for iv in range(lower, upper, step)]
    return points


def pattern_start(pattern):
    """(start function of the loop ivs, extent) of a printed access pattern."""
    physical = re.match(r"#bir\.ap<(-?\d+), \[(.*)\]>", pattern)
    if physical:
        offset = int(physical.group(1))
        start, pairs = (lambda ivs: offset), physical.group(2)
    else:
        # A kernel of one core is not split: its shard id is 0.
        symbolic = re.match(r"#bir\.sap<\((.*?)\)(?:\[(.*?)\])? -> \((.*?)\), \[(.*)\]>",
                            pattern)
        names = [n.strip() for n in symbolic.group(1).split(",") if n.strip()]
        expression = symbolic.group(3).replace("floordiv", "//").replace("mod", "%")
        code = compile(expression, "<pattern>", "eval")
        start = (lambda ivs: eval(code, {"s0": 0}, dict(zip(names, ivs))))
        pairs = symbolic.group(4)
    extent, count = 0, 1
    for step, num in re.findall(r"\[(-?\d+), (\d+)\]", pairs):
        extent += int(step) * (int(num) - 1)
        count *= int(num)
    return start, extent, count


def dma_traffic(program, by_pair=None):
    """Bytes every bir.dma moves (loops unrolled), and per core the input
    elements some DMA of the core reads: {(core, input): [(first, last)]}.
    With `by_pair` (a dict), also the bytes per (source, destination)
    memory location, the pieces -vn-split made counted as their tensor."""
    total, loops, stack, core = 0, [], [], None
    inputs, needed = {}, {}
    for line in program.splitlines():
        stripped = line.strip()
        module = re.match(r"module @\S*nc(\d+)", stripped)
        if module:
            core = int(module.group(1))
        memloc = re.match(r'(%\S+) = bir\.memloc "[^"]*" input : !bir\.dram<.*x(\w+)>', stripped)
        if memloc:
            inputs[memloc.group(1)] = BYTES[memloc.group(2)]
        if stripped.endswith("{"):
            loop = re.match(r"bir\.loop (-?\d+) to (-?\d+) step (\d+)", stripped)
            stack.append(bool(loop))
            if loop:
                loops.append(tuple(map(int, loop.groups())))
        elif stripped == "}":
            if stack.pop():
                loops.pop()
        elif stripped.startswith("bir.dma_gather "):
            # One table row per partition of the destination.
            destination = re.match(r"bir\.dma_gather %[\w$.-]+\[(.*?\]>)\]", stripped)
            _, _, count = pattern_start(destination.group(1))
            total += count * element_bytes(stripped.rsplit(":", 1)[1].split(",")[0]) * \
                len(loop_points(loops))
        elif stripped.startswith("bir.dma "):
            operands = re.match(r"bir\.dma (%[\w$.-]+)\[(.*?\]>)\], (%[\w$.-]+)\[(.*?\]>)\]",
                                stripped)
            points = loop_points(loops)
            start, extent, count = pattern_start(operands.group(4))
            types = stripped.rsplit(":", 1)[1]
            if "!bir.dram" not in types:
                continue
            moved = count * element_bytes(types.split(",")[0]) * len(points)
            total += moved
            if by_pair is not None:
                pair = tuple(re.sub(r"_VN_\d+$", "", operands.group(i)) for i in (3, 1))
                by_pair[pair] = by_pair.get(pair, 0) + moved
            source = operands.group(3)
            if source in inputs:
                spans = needed.setdefault((core, source), [])
                spans.extend((start(point), start(point) + extent) for point in points)
    return total, needed, inputs


def needed_bytes(needed, inputs):
    """The bytes of the union of each core's spans of each input."""
    total = 0
    for (core, source), spans in needed.items():
        spans.sort()
        covered, end = 0, None
        for first, last in spans:
            if end is None or first > end:
                covered += last - first + 1
                end = last
            elif last > end:
                covered += last - end
                end = last
        total += covered * inputs[source]
    return total


def memref_bytes(signature):
    total = 0
    for dims, element in re.findall(r"tensor<((?:\d+x)+)(\w+)>", signature):
        count = 1
        for dim in dims.rstrip("x").split("x"):
            count *= int(dim)
        total += count * BYTES[element]
    return total


def timeline(report):
    """The timing model's estimate (docs/TimingModel.md), from the remarks of
    -print-bir-timeline: per kernel the slowest core and the largest core
    roofline, summed over kernels; the bound of the slowest core; and the
    largest spread of a kernel's cores (the one that works longest over
    their mean, a core's work being its time less its waits at barriers)."""
    estimate = roofline = 0.0
    spread, bound, slowest, cores = 1.0, "-", -1.0, []
    for line in report.splitlines():
        core = re.search(r"print-bir-timeline: @\S+ \(core \d+\): ([0-9.]+) us.*?"
                         r"bound by (\w+);.*?roofline ([0-9.]+) us.*?"
                         r"waits ([0-9.]+) us at barriers", line)
        if core:
            cores.append((float(core.group(1)), core.group(2), float(core.group(3)),
                          float(core.group(1)) - float(core.group(4))))
            continue
        kernel = re.search(r"print-bir-timeline: kernel of \d+ core\(s\): ([0-9.]+) us", line)
        if not kernel or not cores:
            continue
        estimate += float(kernel.group(1))
        roofline += max(c[2] for c in cores)
        # A core waiting at a barrier for another is idle, not busy: the
        # spread compares the time each core works.
        mean = sum(c[3] for c in cores) / len(cores)
        spread = max(spread, max(c[3] for c in cores) / mean if mean else 1.0)
        worst = max(cores)
        if worst[0] > slowest:
            slowest, bound = worst[0], worst[1]
        cores = []
    return estimate, roofline, bound, spread


def run_layer(opt, path, lnc, by_pair=None, dram_to_sb_bytes=0, matmul_buffers=2,
              schedule=False):
    begin = time.perf_counter()
    # `report` ends with -print-bir-timeline (docs/TimingModel.md).
    result = subprocess.run([opt, path, f"-walrus-from-linalg=lnc-size={lnc} report "
                             f"dram-to-sb-bytes={dram_to_sb_bytes} "
                             f"matmul-buffers={matmul_buffers} "
                             f"schedule={'true' if schedule else 'false'}",
                             "--mlir-timing", "-print-bir-summary"],
                            capture_output=True, text=True)
    seconds = time.perf_counter() - begin
    if result.returncode:
        sys.exit(f"{path}: walrus-opt failed:\n{result.stderr[-2000:]}")
    report = result.stderr
    ratios = [int(peak) / int(bound) for peak, bound in
              re.findall(r"peak (\d+) B/partition, lower bound (\d+) B/partition", report)
              if int(bound)]
    spills = sum(int(s) for s in re.findall(r"(\d+) spill\(s\)", report))
    per_core = [int(n) for n in re.findall(r"func @main: \d+ memlocs, (\d+) instructions",
                                           result.stdout + report)]
    with open(path) as source:
        head = re.search(r"func\.func[^{]*", source.read()).group(0)
    dma, needed, inputs = dma_traffic(result.stdout, by_pair)
    # Each core loads what it reads of each input once; outputs go out once.
    result_type = head.split("->")[-1]
    minimum = needed_bytes(needed, inputs) + memref_bytes(result_type)
    passes = {name: top_level_wall(report, name) or 0.0 for name in PASSES}
    estimate, roofline, bound, spread = timeline(report)
    return {"seconds": seconds, "lowering": passes["ConvertLinalgToBir"],
            "instructions": sum(per_core), "busiest": max(per_core, default=0),
            "ratio": max(ratios, default=1.0), "spills": spills,
            "dma": dma, "minimum": minimum, "passes": passes,
            "estimate_us": estimate, "bound": bound, "roofline_us": roofline,
            "spread": spread}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opt", default=os.path.join(HERE, "..", "build", "bin", "walrus-opt"))
    parser.add_argument("--lnc", default="1,2,4")
    parser.add_argument("--layers", default="decoder,mlp,conv,matmul",
                        help="examples/models/LAYER-real.mlir to run (empty: none)")
    parser.add_argument("--zoo", default="",
                        help="zoo models at real size (examples/zoo/gen_zoo.py), e.g. "
                             "bert-encoder,resnet18,llama-layer,mobilenetv3-block,vit")
    parser.add_argument("--dram-to-sb-bytes", type=int, default=0,
                        help="vn-split's DRAM-to-SB move budget, bytes per partition")
    parser.add_argument("--matmul-buffers", default="2",
                        help="the lowering's rotating matmul buffers, one row each")
    parser.add_argument("--schedule", default="on",
                        help="off, on or off,on: without or with -bir-schedule, one row each")
    parser.add_argument("--breakdown", metavar="LAYER:LNC",
                        help="instead of the tables, where one layer's DMA bytes go: "
                             "per source and destination, largest first")
    args = parser.parse_args()
    if args.breakdown:
        layer, lnc = args.breakdown.split(":")
        pairs = {}
        path = os.path.join(HERE, "..", "examples", "models", f"{layer}-real.mlir")
        row = run_layer(args.opt, path, int(lnc), pairs, args.dram_to_sb_bytes)
        print(f"{'MB':>10}  source -> destination")
        for (source, target), moved in sorted(pairs.items(), key=lambda item: -item[1]):
            print(f"{moved / 1e6:>10.1f}  {source} -> {target}")
        print(f"{row['dma'] / 1e6:>10.1f}  in all; minimum {row['minimum'] / 1e6:.1f}")
        return

    models = os.path.join(HERE, "..", "examples", "models")
    paths = {layer: os.path.join(models, f"{layer}-real.mlir")
             for layer in args.layers.split(",") if layer}
    if args.zoo:
        # The zoo at its real sizes, weights elided (walrus-run would seed
        # them): written by examples/zoo/gen_zoo.py into a scratch directory.
        scratch = tempfile.mkdtemp(prefix="walrus-zoo-")
        generator = os.path.join(HERE, "..", "examples", "zoo", "gen_zoo.py")
        for model in args.zoo.split(","):
            paths[model] = os.path.join(scratch, f"{model}.mlir")
            subprocess.run([sys.executable, generator, model, "--size", "real", "--elide",
                            "-o", paths[model]], check=True)
    rows = []
    schedules = [{"off": False, "on": True}[value] for value in args.schedule.split(",")]
    print(f"{'layer':>17} {'lnc':>4} {'buf':>3} {'sch':>3} {'total s':>8} {'lower s':>8} {'instr':>7}"
          f" {'busiest':>8} {'peak/LB':>8} {'spills':>7} {'DMA GB':>7} {'min GB':>7}"
          f" {'DMA/min':>8} {'est. us':>9} {'bound':>5} {'est/roof':>8} {'spread':>6}")
    for layer, path in paths.items():
        for lnc in map(int, args.lnc.split(",")):
            for buffers, schedule in [(b, s) for b in map(int, args.matmul_buffers.split(","))
                                      for s in schedules]:
                row = run_layer(args.opt, path, lnc, dram_to_sb_bytes=args.dram_to_sb_bytes,
                                matmul_buffers=buffers, schedule=schedule)
                rows.append((layer, lnc, row))
                print(f"{layer:>17} {lnc:>4} {buffers:>3} {'on' if schedule else 'off':>3}"
                      f" {row['seconds']:>8.2f}"
                      f" {row['lowering']:>8.3f} {row['instructions']:>7} {row['busiest']:>8}"
                      f" {row['ratio']:>8.3f} {row['spills']:>7} {row['dma'] / 1e9:>7.2f}"
                      f" {row['minimum'] / 1e9:>7.2f} {row['dma'] / row['minimum']:>8.2f}"
                      f" {row['estimate_us']:>9.1f} {row['bound']:>5}"
                      f" {row['estimate_us'] / row['roofline_us'] if row['roofline_us'] else 0:>8.2f}"
                      f" {row['spread']:>6.2f}", flush=True)
    print()
    print(f"{'layer':>17} {'lnc':>4} " + " ".join(f"{name[:12]:>12}" for name in PASSES))
    for layer, lnc, row in rows:
        print(f"{layer:>17} {lnc:>4} " +
              " ".join(f"{row['passes'][name]:>12.4f}" for name in PASSES))


if __name__ == "__main__":
    main()
