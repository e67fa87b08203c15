"""Writes a kernel of N instructions, each with an immediate: scalar
products by float immediates and memsets of integer ones, alternating.
Usage: gen_immediates.py N > kernel.mlir"""
import sys

count = int(sys.argv[1])
print('module @nc_symbolic attributes {bir.lnc_size = 1 : i64, bir.target = #bir.target<"trn2">} {')
print("  bir.func @main {")
print('    %f = bir.memloc "f" internal : !bir.sbuf<128x4xf32>')
print('    %i = bir.memloc "i" internal : !bir.sbuf<128x4xi32>')
for n in range(count):
    if n % 2:
        print(f"    bir.memset %i[#bir.ap<0, [[4, 128], [1, 4]]>], {n - count} : !bir.sbuf<128x4xi32>")
    else:
        print(f"    bir.tensor_scalar multiply %f[#bir.ap<0, [[4, 128], [1, 4]]>], %f[#bir.ap<0, [[4, 128], [1, 4]]>], {n}.5e-3 : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>")
print("  }")
print("}")
