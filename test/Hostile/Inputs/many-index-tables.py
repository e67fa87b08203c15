"""A generic whose body computes N values of its two indices and adds each
to its input: N tables of 256 x 256 for -normalize-linalg to build."""
import sys

count = int(sys.argv[1])
print("func.func @many_tables(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {")
print("  %e = tensor.empty() : tensor<256x256xf32>")
print('  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, '
      'affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} '
      'ins(%x : tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {')
print("  ^bb0(%in: f32, %out: f32):")
print("    %i = linalg.index 0 : index")
print("    %j = linalg.index 1 : index")
total = "%in"
for k in range(count):
    print(f"    %c{k} = arith.constant {k + 1} : index")
    print(f"    %m{k} = arith.muli %i, %c{k} : index")
    print(f"    %a{k} = arith.addi %m{k}, %j : index")
    print(f"    %n{k} = arith.index_cast %a{k} : index to i64")
    print(f"    %f{k} = arith.sitofp %n{k} : i64 to f32")
    print(f"    %s{k} = arith.addf {total}, %f{k} : f32")
    total = f"%s{k}"
print(f"    linalg.yield {total} : f32")
print("  } -> tensor<256x256xf32>")
print("  return %r : tensor<256x256xf32>")
print("}")
