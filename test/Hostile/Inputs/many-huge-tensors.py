"""Writes a function with N tensors of 2^48 bytes each (2^41 per partition),
all live at once: each is set once, then each again, in the same order."""

import sys

from huge_target import MODULE_HEADER

n = int(sys.argv[1])
sbuf = "!bir.sbuf<128x549755813888xf32>"
out = sys.stdout
out.write(MODULE_HEADER)
for i in range(n):
    out.write(f'%t{i} = bir.memloc "t{i}" internal : {sbuf}\n')
for i in list(range(n)) * 2:
    out.write(f"bir.memset %t{i}[#bir.ap<0, [[128, 128], [1, 1]]>], 1.0 : {sbuf}\n")
out.write("}\n}\n")
