"""A body whose value doubles itself `n` times (each sum reads the last
twice), then fptosi: a walk that follows both operands of every sum visits
2^n paths."""
import sys

n = int(sys.argv[1])
lines = [f"    %v{i + 1} = arith.addf %v{i}, %v{i} : f32" for i in range(n)]
print(f"""func.func @chain(%x: tensor<8x8xf32>) -> tensor<8x8xi32> {{
  %e = tensor.empty() : tensor<8x8xi32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xi32>) {{
  ^bb0(%in: f32, %out: i32):
    %v0 = math.roundeven %in : f32
{chr(10).join(lines)}
    %i = arith.fptosi %v{n} : f32 to i32
    linalg.yield %i : i32
  }} -> tensor<8x8xi32>
  return %r : tensor<8x8xi32>
}}""")
