#!/usr/bin/env python3
"""The public corpus as a benchmark: linalg other people wrote.

Every .mlir file of a folder (default ../shared/corpus, which holds files
from torch-mlir, IREE, LLVM's tests and triton-shared; its README gives
each source) goes through

    walrus-opt FILE -walrus-from-linalg="lnc-size=N report" -sb-alloc-verify

at each core count (default 1 and 2), and, when it lowers, through the
oracle (utils/linalg_oracle.py: MLIR's own CPU execution against
walrus-run, outputs within 1e-5 + 1e-4 |x| + 1% of the largest magnitude,
the bound docs/LinalgToBir.md states for auto-cast through whole layers;
integer inputs in [0, 16), as the models' token ids are).
Prints one row per file and core count: whether it lowers (else its first
error, on one line), compile seconds, peak RSS, spills, the oracle's
verdict (identical / within tolerance / mismatch / undefined: an output
accumulated into tensor.empty() / could not run: why),
the estimate (-print-bir-timeline, the kernels' slowest cores summed) and
the estimate over the roofline.

--expected FILE (default bench/corpus-expected.txt) holds one outcome per
file and core count: `agrees` (lowers, and the oracle agrees), `lowers`
(lowers; the oracle disagrees or cannot run) or `refused`. With --check
the run fails when a file did worse than expected (an `agrees` that no
longer agrees, a `lowers` that no longer lowers), and says which; with
--update the outcomes of this run are written there (replacing the lines of
the files it measured), with the seconds each oracle run took. A check runs the oracle only where it agreed before and
took at most --check-oracle-seconds (default 60) then, so that it stays
within minutes on a 2-core machine; a longer one (whole models through the
interpreter) it checks to lower, and says so on its row. Its last line says
`corpus check: N passed, N failed` (scripts/check.sh adds them to the
suite's count). Runs go one per core at once (--jobs).
"""
import argparse
import concurrent.futures
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
RANK = {"refused": 0, "lowers": 1, "agrees": 2}


def run_measured(command, timeout):
    """(returncode, or None when it ran out of time; its output; seconds;
    peak RSS in MiB) of one process and what it starts: its own rusage
    (os.wait4), its process group killed at the timeout."""
    with tempfile.TemporaryFile() as output:
        begin = time.perf_counter()
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        timer = threading.Timer(timeout, os.killpg, (process.pid, signal.SIGKILL))
        timer.start()
        _, status, usage = os.wait4(process.pid, 0)
        timer.cancel()
        seconds = time.perf_counter() - begin
        process.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read().decode(errors="replace")
    timed_out = process.returncode == -signal.SIGKILL and seconds >= timeout
    return (None if timed_out else process.returncode), text, seconds, usage.ru_maxrss / 1024


def first_error(text):
    for line in text.splitlines():
        if "error:" in line:
            return line[line.index("error:") + 7:].strip()
    return text.strip().splitlines()[-1] if text.strip() else "no output"


def lower(args, path, lnc):
    """The lowering's row: lowers?, first error, seconds, RSS, spills,
    estimate us, estimate / roofline."""
    command = [os.path.join(args.bin, "walrus-opt"), path,
               f"-walrus-from-linalg=lnc-size={lnc} report", "-sb-alloc-verify",
               "--mlir-diagnostic-verbosity-level=remarks", "-o", os.devnull]
    code, text, seconds, rss = run_measured(command, args.timeout)
    row = {"seconds": seconds, "rss": rss, "spills": None, "estimate": None, "ratio": None}
    if code is None:
        row.update(lowers=False, error=f"timed out after {args.timeout} s")
        return row
    if code:
        row.update(lowers=False, error=first_error(text))
        return row
    row.update(lowers=True, error="")
    row["spills"] = sum(int(m) for m in re.findall(r"sb-alloc: .*?(\d+) spill\(s\)", text))
    kernels = [float(m) for m in
               re.findall(r"print-bir-timeline: kernel of \d+ core\(s\): ([0-9.]+) us", text)]
    ratios = [float(m) for m in re.findall(r"\(estimate ([0-9.]+)x\)", text)]
    if kernels:
        row["estimate"] = sum(kernels)
    if ratios:
        row["ratio"] = max(ratios)
    return row


def check_oracle(args, path, lnc):
    """The oracle's verdict on one line."""
    command = [sys.executable, "-B", os.path.join(ROOT, "utils", "linalg_oracle.py"), path,
               "--lnc-size", str(lnc), "--pipeline", "--bin", args.bin,
               "--atol", "1e-5", "--rtol", "1e-4", "--scale-tol", "1e-2",
               "--max-elements", str(args.max_elements),
               # Integer inputs are token ids in the corpus's models: in
               # range for every vocabulary (a negative one fails the
               # models' own bounds checks on the CPU).
               "--ids-below", "16"]
    started = time.monotonic()
    verdict = oracle_verdict(args, command)
    return verdict, time.monotonic() - started


def oracle_verdict(args, command):
    code, text, _, _ = run_measured(command, args.timeout)
    if code == 0 and "oracle: vacuous" in text:
        # Weights a file sets to one splat overflow whole models to NaN:
        # the same program with seeded weights, and the row says so.
        code, text, _, _ = run_measured(command + ["--seed-splat-weights"], args.timeout)
        text = text.replace("\noracle: identical", "\noracle: identical (splat weights seeded)")
        text = re.sub(r"^oracle: within tolerance (.*)$",
                      r"oracle: within tolerance \1 (splat weights seeded)", text,
                      flags=re.MULTILINE)
    if code is None:
        return f"could not run: timed out after {args.timeout} s"
    # The verdict is the oracle's last line of its own (an earlier one may
    # state the tolerance auto-cast takes).
    verdicts = re.findall(r"^oracle: (.*)$", text, re.MULTILINE)
    verdict = verdicts[-1] if verdicts else None
    if verdict and verdict.startswith(("identical", "within tolerance", "mismatch",
                                       "undefined")):
        return verdict.strip()
    errors = [line[line.index("error:") + 7:] for line in text.splitlines() if "error:" in line]
    why = errors[-1] if errors else verdict if verdict else "no verdict"
    return "could not run: " + " ".join(why.split())[:120]


def outcome(row):
    if not row["lowers"]:
        return "refused"
    agrees = row["oracle"].startswith(("identical", "within tolerance"))
    return "agrees" if agrees else "lowers"


def read_expected(path):
    """(file, lnc) -> (outcome, seconds the oracle took when recorded)."""
    expected = {}
    if os.path.exists(path):
        with open(path) as lines:
            for line in lines:
                fields = line.split()
                if len(fields) in (3, 4) and not line.startswith("#"):
                    seconds = float(fields[3]) if len(fields) == 4 else 0.0
                    expected[(fields[0], int(fields[1]))] = (fields[2], seconds)
    return expected


def write_expected(path, outcomes):
    with open(path, "w") as out:
        out.write("# bench/corpus.py --update: file, lnc-size, outcome (agrees, lowers or\n"
                  "# refused), seconds the oracle took; --check fails when a file does\n"
                  "# worse than this.\n")
        for (name, lnc), (result, seconds) in sorted(outcomes.items()):
            out.write(f"{name} {lnc} {result} {seconds:.0f}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--lnc", default="1,2")
    parser.add_argument("--files", default="", help="comma-separated names (default: all)")
    parser.add_argument("--timeout", type=float, default=900,
                        help="seconds one lowering or oracle run may take (GPT-2's oracle "
                        "run: about 5 minutes)")
    parser.add_argument("--max-elements", type=int, default=1 << 36,
                        help="walrus-run's limit of operand elements processed in an "
                        "oracle run (walrus-run's own default, 2^28, stops whole models; "
                        "ConvNeXt-tiny passes 2^31)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="files measured at once (default: one per core)")
    parser.add_argument("--check-oracle-seconds", type=float, default=60,
                        help="with --check, rerun the oracle only where it took at most this "
                        "long when recorded (the rest are checked to lower): the check's "
                        "time stays bounded on a 2-core machine")
    parser.add_argument("--no-oracle", action="store_true")
    parser.add_argument("--expected", default=os.path.join(HERE, "corpus-expected.txt"))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--update", action="store_true")
    args = parser.parse_args()
    names = sorted(f for f in os.listdir(args.dir) if f.endswith(".mlir"))
    if args.files:
        wanted = args.files.split(",")
        names = [n for n in names if any(n.startswith(w) for w in wanted)]
    expected = read_expected(args.expected)
    outcomes, worse = {}, []
    print(f"{'file':<52} {'lnc':>3} {'lowers':<6} {'s':>6} {'MiB':>6} {'spills':>6} "
          f"{'est. us':>10} {'est/roof':>8}  oracle / first error")
    def measure(job):
        name, lnc = job
        path = os.path.join(args.dir, name)
        row = lower(args, path, lnc)
        was, seconds = expected.get((name, lnc), (None, 0.0))
        # A check runs the oracle only where it agreed before, in at most
        # --check-oracle-seconds then; a longer run is checked to lower.
        row["skipped"] = args.check and was == "agrees" and seconds > args.check_oracle_seconds
        oracle = not args.no_oracle and not row["skipped"] and not (
            args.check and was in ("lowers", "refused"))
        row["oracle"], row["oracle_seconds"] = (
            check_oracle(args, path, lnc) if row["lowers"] and oracle else ("", 0.0))
        if row["skipped"]:
            row["oracle"] = f"oracle not rerun by --check (took {seconds:.0f} s)"
        row["outcome"] = outcome(row) if oracle or not row["lowers"] else "lowers"
        return row

    jobs = [(name, lnc) for name in names for lnc in map(int, args.lnc.split(","))]
    # One run per core at once (each is one process at a time); rows print
    # in order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for (name, lnc), row in zip(jobs, pool.map(measure, jobs)):
            result = row["outcome"]
            outcomes[(name, lnc)] = (result, row["oracle_seconds"])
            was = expected.get((name, lnc), (None, 0.0))[0]
            if was == "agrees" and row["skipped"]:
                was = "lowers"
            if was and RANK[result] < RANK[was]:
                worse.append(f"{name} at lnc-size={lnc}: {was} before, {result} now")
            estimate = f"{row['estimate']:.1f}" if row["estimate"] is not None else "-"
            ratio = f"{row['ratio']:.2f}" if row["ratio"] is not None else "-"
            spills = str(row["spills"]) if row["spills"] is not None else "-"
            detail = row["oracle"] if row["lowers"] else row["error"][:140]
            print(f"{name[:52]:<52} {lnc:>3} {'yes' if row['lowers'] else 'no':<6} "
                  f"{row['seconds']:>6.2f} {row['rss']:>6.0f} {spills:>6} {estimate:>10} "
                  f"{ratio:>8}  {detail}", flush=True)
    counts = {k: sum(1 for v, _ in outcomes.values() if v == k) for k in RANK}
    print(f"\n{len(outcomes)} runs: {counts['agrees']} agree, {counts['lowers']} lower only, "
          f"{counts['refused']} refused")
    if args.update:
        # The files this run measured replace their lines; others stay.
        merged = dict(expected)
        merged.update(outcomes)
        write_expected(args.expected, merged)
    if args.check:
        for line in worse:
            print("worse than expected: " + line)
        checked = sum(1 for key in outcomes if key in expected)
        print(f"corpus check: {checked - len(worse)} passed, {len(worse)} failed")
        sys.exit(1 if worse else 0)


if __name__ == "__main__":
    main()
