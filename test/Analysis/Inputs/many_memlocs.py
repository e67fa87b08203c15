"""Writes a kernel whose every instruction touches memory locations the
timing model has not seen yet: 2 per DMA, 3 per tensor_tensor, in an order
that makes some instruction's later operand the one whose first access
grows the model's table of spaces (timeline-many-memlocs.test)."""

import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 60
tile = "!bir.sbuf<128x64xf32>"
ap = "#bir.ap<0, [[64, 128], [1, 64]]>"
lines = ['module @nc_symbolic attributes {bir.lnc_size = 1 : i64, '
         'bir.target = #bir.target<"trn2">} {', "  bir.func @main {"]
body = []
for i in range(count):
    lines.append(f'    %x{i} = bir.memloc "x{i}" input : !bir.dram<128x64xf32>')
    for name in ("a", "b", "c"):
        lines.append(f'    %{name}{i} = bir.memloc "{name}{i}" internal : {tile}')
    if i % 2:
        body.append(f"    bir.dma %a{i}[{ap}], %x{i}[{ap}] : {tile}, !bir.dram<128x64xf32>")
    else:
        body.append(f"    bir.tensor_tensor add %a{i}[{ap}], %b{i}[{ap}], %c{i}[{ap}] : "
                    f"{tile}, {tile}, {tile}")
print("\n".join(lines + body + ["  }", "}"]))
