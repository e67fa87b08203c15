#!/usr/bin/env python3
"""Functions (and methods) in lib/ longer than a limit, as clang sees them.

    python3 utils/function_sizes.py [--limit 80] [--max-parameters 6]
        [--build build] [FILE...]

Runs clang-query-22 on each translation unit with the build's
compile_commands.json and prints `lines file:line name` for every function
definition spanning more than --limit lines (first to last line, inclusive),
longest first, then every one taking more than --max-parameters parameters.
Exits 1 when there is one.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

MATCHER = ("m functionDecl(isDefinition(), isExpansionInMainFile(), "
           "unless(isImplicit()))")
# FunctionDecl 0x... [parent 0x... prev 0x...] </path/f.cpp:47:3, line:110:3>
#   line:47:3 used name 'type'
HEADER = re.compile(r"^(?:\w+Decl) 0x[0-9a-f]+ (?:\w+ 0x[0-9a-f]+ )*"
                    r"<([^:>]+):(\d+):\d+, "
                    r"(?:line:(\d+):\d+|col:\d+)> \S+ (?:[a-z ]+ )*?(~?[\w:]+|operator\S+) "
                    r"'[^(']*\((.*)\)[^)']*'")


def count_parameters(signature):
    """Top-level commas of a parameter list, plus one (none when empty)."""
    depth, count = 0, 1 if signature.strip() else 0
    for char in signature:
        depth += char in "<([{"
        depth -= char in ">)]}"
        count += char == "," and depth == 0
    return count


def measure(build, path):
    out = subprocess.run(
        ["clang-query-22", "-p", build, path, "-c", "set output dump", "-c",
         MATCHER], capture_output=True, text=True).stdout
    sizes = []
    lines = out.splitlines()
    for previous, line in zip(lines, lines[1:]):
        if not previous.startswith('Binding for "root"'):
            continue
        match = HEADER.match(line)
        if not match:
            continue
        first = int(match.group(2))
        last = int(match.group(3) or first)
        sizes.append((last - first + 1, count_parameters(match.group(5)),
                      f"{path}:{first}", match.group(4)))
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=80)
    parser.add_argument("--max-parameters", type=int, default=6)
    parser.add_argument("--build", default="build")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = args.files or sorted(glob.glob("lib/**/*.cpp", recursive=True))
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        sizes = [s for found in pool.map(lambda f: measure(args.build, f), files)
                 for s in found]
    long = sorted((s for s in sizes if s[0] > args.limit), reverse=True)
    for lines, _, where, name in long:
        print(f"{lines:5d} lines {where} {name}")
    wide = sorted((s for s in sizes if s[1] > args.max_parameters),
                  key=lambda s: -s[1])
    for _, parameters, where, name in wide:
        print(f"{parameters:5d} parameters {where} {name}")
    print(f"{len(long)} of {len(sizes)} functions over {args.limit} lines, "
          f"{len(wide)} over {args.max_parameters} parameters")
    return 1 if long or wide else 0


if __name__ == "__main__":
    sys.exit(main())
