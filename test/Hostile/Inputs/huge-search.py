"""Writes a function with N one-partition tensors of up to 2^48 bytes each,
random sizes and lifetimes from SEED, each set once and read once: a banded
problem whose search areas (bytes x lanes x time) pass 2^63."""

import random
import sys

from huge_target import MODULE_HEADER

n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
sizes = [rng.randint(1, 256) << 40 for _ in range(n)]
events = []
for i in range(n):
    first = rng.randint(0, 4 * n)
    events += [(first, i), (first + rng.randint(n, 3 * n), i)]
events.sort()

out = sys.stdout
out.write(MODULE_HEADER)
out.write('%sink = bir.memloc "sink" internal : !bir.sbuf<1x1xi8>\n')
for i in range(n):
    out.write(f'%t{i} = bir.memloc "t{i}" internal : !bir.sbuf<1x{sizes[i]}xi8>\n')
ap = "#bir.ap<0, [[1, 1], [1, 1]]>"
written = set()
for _, i in events:
    sbuf = f"!bir.sbuf<1x{sizes[i]}xi8>"
    if i in written:
        out.write(f"bir.tensor_copy %sink[{ap}], %t{i}[{ap}] : "
                  f"!bir.sbuf<1x1xi8>, {sbuf}\n")
    else:
        written.add(i)
        out.write(f"bir.memset %t{i}[{ap}], 1.0 : {sbuf}\n")
out.write("}\n}\n")
