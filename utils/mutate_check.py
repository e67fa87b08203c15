#!/usr/bin/env python3
"""Mutates valid programs and checks the tools on them.

Half the mutations (all with --only bir) are of bir programs (the examples
and the test inputs that hold bir): one to three integer literals are
replaced by hostile values (0, -1, 2^31, 2^32, 2^62, 2^63 - 1, -2^63, ...);
walrus-opt then parses, verifies and runs the whole pipeline on it, and
walrus-run runs it.

The other half (all with --only linalg) are of linalg seeds (the lowering's
tests and the small model layers, each `// -----` part alone): shapes,
element types, affine maps, iterator types or constants (NaN, Inf,
denormals, 65504, integer extremes) are rewritten, and walrus-opt runs
-walrus-from-linalg at a random lnc-size and column-tile. One in
--oracle-every of those that lower is also checked against MLIR's CPU
execution by utils/linalg_oracle.py: a mismatch is a finding.

A tool may accept the program or reject it with an error; a signal (crash,
abort, sanitizer report), a timeout, an exit status other than 0 and 1, or
an oracle mismatch is a finding: the input is saved in --failures with the
reason and the command. A crash whose stack holds no Walrus frame (MLIR's
own verifier of a mutated linalg op) is saved and reported apart, not
counted: it is upstream's to fix.

    python3 utils/mutate_check.py --seconds 600      # about 10 minutes
    python3 utils/mutate_check.py --count 200 --seed 7 --only linalg
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
EXTREMES = [0, -1, 1, 2, 127, 128, 129, 255, 256, 2**31 - 1, 2**31, 2**32, 2**32 + 1,
            2**48, 2**62, 2**63 - 1, -2**31, -2**62, -2**63]
NUMBER = re.compile(r"(?<![\w.#%@])-?\d+(?![\w.])")


LINALG_SEEDS = "test/Conversion/*.mlir,examples/models/*.mlir"
CONSTANTS = ["0x7FC00000", "0xFFC00001", "0x7F800000", "0xFF800000", "0x00000001",
             "0x80000000", "65504.0", "-65504.0", "1.0e-45", "3.4e38", "-0.0"]
INTEGERS = ["127", "-128", "255", "32767", "-32768", "2147483647", "-2147483648",
            "9223372036854775807", "-9223372036854775808", "9007199254740993", "0", "-1"]
ELEMENT_TYPES = ["f32", "f16", "bf16", "f64", "i8", "i16", "i32", "i64"]


def seeds(paths):
    """Seed files: .mlir inputs that hold bir and parse as they are."""
    files = []
    for pattern in paths:
        files += glob.glob(os.path.join(ROOT, pattern), recursive=True)
    return sorted(f for f in files if "bir." in open(f, errors="ignore").read())


def linalg_seeds(paths):
    """Every `// -----` part of the given files that holds linalg (the real-
    size layers left out: they take seconds each)."""
    parts = []
    for pattern in paths:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            if "-real" in path:
                continue
            for part in open(path, errors="ignore").read().split("// -----"):
                if "linalg." in part and "expected-error" not in part:
                    parts.append((path, part))
    return parts


def mutate_linalg(text, generator):
    """`text` with one rewrite of a shape, element type, map, iterator or
    constant; None when the chosen kind has nothing to rewrite."""
    kind = generator.choice(["shape", "type", "map", "iterator", "constant"])
    if kind == "shape":
        # One dimension of one shaped type, everywhere it is spelled alike.
        dims = re.findall(r"(?:memref|tensor)<((?:\d+x)+)", text)
        if not dims:
            return None
        shape = generator.choice(dims)
        sizes = shape.rstrip("x").split("x")
        sizes[generator.randrange(len(sizes))] = str(generator.choice(
            [0, 1, 2, 127, 128, 129, 255, 511, 512, 513, 1000]))
        return text.replace(f"<{shape}", "<" + "x".join(sizes) + "x")
    if kind == "type":
        # An element type, all of it: the body's arith then mismatches
        # for some ops, which the verifier names.
        present = [t for t in ELEMENT_TYPES if re.search(rf"\b{t}\b", text)]
        if not present:
            return None
        old, new = generator.choice(present), generator.choice(ELEMENT_TYPES)
        return re.sub(rf"\b{old}\b", new, text)
    if kind == "map":
        maps = list(re.finditer(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>", text))
        if not maps:
            return None
        match = generator.choice(maps)
        dims = [d.strip() for d in match.group(1).split(",") if d.strip()]
        results = [r.strip() for r in match.group(2).split(",") if r.strip()]
        choice = generator.randrange(3)
        if choice == 0 and len(results) > 1:
            generator.shuffle(results)
        elif choice == 1 and results:
            results[generator.randrange(len(results))] = "0"
        elif dims:
            results = generator.sample(dims, generator.randint(0, len(dims)))
        new = f"affine_map<({', '.join(dims)}) -> ({', '.join(results)})>"
        return text[:match.start()] + new + text[match.end():]
    if kind == "iterator":
        iterators = list(re.finditer(r'"(parallel|reduction)"', text))
        if not iterators:
            return None
        match = generator.choice(iterators)
        flipped = '"reduction"' if match.group(1) == "parallel" else '"parallel"'
        return text[:match.start()] + flipped + text[match.end():]
    floats = list(re.finditer(r"arith\.constant (-?[\d.e+-]+|0x[0-9A-Fa-f]+) : (f\w+)", text))
    ints = list(re.finditer(r"arith\.constant (-?\d+) : (i\d+)", text))
    if not floats and not ints:
        return None
    match = generator.choice(floats + ints)
    value = generator.choice(CONSTANTS if match in floats else INTEGERS)
    if value.startswith("0x") and match.group(2) != "f32":
        value = "0.0"
    return text[:match.start(1)] + value + text[match.end(1):]


def mutate(text, generator):
    """`text` with one to three integer literals outside comments replaced."""
    lines = text.split("\n")
    candidates = [(i, m) for i, line in enumerate(lines) if not line.lstrip().startswith("//")
                  for m in NUMBER.finditer(line)]
    if not candidates:
        return None
    for index, match in generator.sample(candidates, min(len(candidates),
                                                         generator.randint(1, 3))):
        line = lines[index]
        # Later matches on the same line keep their offsets when edited
        # right to left; sample order is arbitrary, so re-find by position.
        value = str(generator.choice(EXTREMES))
        if line[match.start():match.end()] == match.group(0):
            lines[index] = line[:match.start()] + value + line[match.end():]
    return "\n".join(lines)


def check(command, timeout):
    """None when the tool accepted or rejected the input cleanly, else why."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timeout after {timeout} s"
    if result.returncode < 0:
        return f"signal {-result.returncode}\n" + result.stderr[-6000:]
    if result.returncode not in (0, 1):
        return f"exit status {result.returncode}"
    if "Sanitizer" in result.stderr or "PLEASE submit a bug report" in result.stderr:
        return "crash report:\n" + result.stderr[-3000:]
    return None


def is_upstream(reason):
    """Whether a crash's stack holds no Walrus code: MLIR itself crashed on
    the input (its own verifier or parser), which Walrus cannot guard."""
    return reason.startswith(("signal", "crash report")) and "walrus::" not in reason


def tolerance(text):
    """--atol and --rtol for a mutant: a few units in the last place of its
    narrowest float type. A fused activation (GELU, sigmoid) rounds once
    where the CPU rounds after every op of the body, and a matmul sums in
    another order."""
    if re.search(r"\bbf16\b", text):
        return "2e-2", "2e-2"
    if re.search(r"\bf16\b", text):
        return "4e-3", "4e-3"
    return "1e-4", "1e-5"


def check_oracle(oracle, path, lnc, timeout, bin_dir):
    """None unless MLIR's CPU execution and the lowered kernel disagree (or
    a tool crashes under the oracle); inputs the oracle or MLIR's own
    lowering cannot run are not findings."""
    atol, rtol = tolerance(open(path).read())
    try:
        result = subprocess.run([sys.executable, oracle, path, "--bin", bin_dir,
                                 "--lnc-size", str(lnc), "--pipeline", "--atol", atol,
                                 "--rtol", rtol, "--scale-tol", "1e-5"],
                                capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None  # MLIR's CPU run of a large mutant may be slow
    output = result.stdout + result.stderr
    if "oracle: mismatch" in output:
        return "oracle mismatch: " + output.split("oracle: mismatch: ", 1)[1].splitlines()[0]
    if "PLEASE submit a bug report" in output or "Sanitizer" in output:
        return "crash under the oracle:\n" + output[-3000:]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    parser.add_argument("--inputs", default="examples/*.mlir,test/**/*.mlir")
    parser.add_argument("--count", type=int, default=0, help="mutations (0: until --seconds)")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--failures", default="mutate-failures")
    parser.add_argument("--only", choices=["bir", "linalg"],
                        help="mutate only bir programs or only linalg seeds")
    parser.add_argument("--oracle-every", type=int, default=5,
                        help="check one in N lowered linalg mutants against MLIR (0: none)")
    args = parser.parse_args()

    files = seeds(args.inputs.split(",")) if args.only != "linalg" else []
    parts = linalg_seeds(LINALG_SEEDS.split(",")) if args.only != "bir" else []
    if not files and not parts:
        sys.exit("mutate_check: no seed files")
    generator = random.Random(args.seed)
    opt, run = os.path.join(args.bin, "walrus-opt"), os.path.join(args.bin, "walrus-run")
    oracle = os.path.join(HERE, "linalg_oracle.py")
    begin, tried, findings, oracled, upstream = time.monotonic(), 0, 0, 0, 0
    work = os.path.join(args.failures, ".work")
    os.makedirs(work, exist_ok=True)
    while (args.count and tried < args.count) or \
            (not args.count and time.monotonic() - begin < args.seconds):
        lowering = bool(parts) and (not files or generator.random() < 0.5)
        if lowering:
            source, seed_text = generator.choice(parts)
            text = mutate_linalg(seed_text, generator)
        else:
            source = generator.choice(files)
            text = mutate(open(source, errors="ignore").read(), generator)
        if text is None:
            continue
        tried += 1
        path = os.path.join(work, "input.mlir")
        with open(path, "w") as out:
            out.write(text)
        if lowering:
            lnc, tile = generator.choice([1, 2, 3, 4, 8]), generator.choice([1, 7, 64, 512])
            commands = [[opt, path, f"-walrus-from-linalg=lnc-size={lnc} column-tile={tile}",
                         "-o", os.devnull]]
        else:
            commands = [[opt, path, "-split-input-file", "-o", os.devnull],
                        [opt, path, "-split-input-file", "-walrus-pipeline", "-o", os.devnull],
                        [run, path, "--max-bytes=268435456", "--max-iterations=100000"]]
        reason = None
        for command in commands:
            reason = check(command, args.timeout)
            if reason:
                break
        if not reason and lowering and args.oracle_every and \
                generator.randrange(args.oracle_every) == 0 and \
                subprocess.run(commands[0], capture_output=True).returncode == 0:
            oracled += 1
            reason = check_oracle(oracle, path, lnc, args.timeout * 3, args.bin)
            command = ["linalg_oracle.py", path, "--lnc-size", str(lnc), "--pipeline"]
        if reason and is_upstream(reason):
            upstream += 1
            saved = os.path.join(args.failures, f"upstream-{upstream}.mlir")
            with open(saved, "w") as out:
                out.write(f"// {' '.join(command[1:])}\n// {reason.splitlines()[0]} in MLIR, "
                          f"no Walrus frame\n{text}")
            print(f"upstream crash {upstream} (not counted): {reason.splitlines()[0]} "
                  f"-> {saved}", flush=True)
            reason = None
        if reason:
            findings += 1
            saved = os.path.join(args.failures, f"finding-{findings}.mlir")
            with open(saved, "w") as out:
                out.write(f"// {' '.join(os.path.basename(c) for c in command[:1])} "
                          f"{' '.join(command[2:])}\n// from {os.path.relpath(source, ROOT)}: "
                          f"{reason.splitlines()[0]}\n{text}")
            print(f"finding {findings}: {reason.splitlines()[0]} "
                  f"({os.path.relpath(source, ROOT)}) -> {saved}", flush=True)
    print(f"mutate_check: {tried} mutation(s) of {len(files)} bir seed file(s) and "
          f"{len(parts)} linalg seed(s), {oracled} checked by the oracle, "
          f"{findings} finding(s), {upstream} crash(es) inside MLIR alone, "
          f"{time.monotonic() - begin:.0f} s")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
