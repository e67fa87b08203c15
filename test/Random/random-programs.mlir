// Random valid programs (fixed seeds) keep every output byte through the
// pipeline: utils/random_check.py generates, verifies, runs before and
// after, and compares. `python3 utils/random_check.py --count 10000` runs
// many more (README).
//
// RUN: rm -rf %t && %python %utils/random_check.py --count 40 --seed 1 --failures %t --walrus-opt %walrus_opt --walrus-run %walrus_run | FileCheck %s

// CHECK: 40 random programs through 'walrus-pipeline': 40 identical, 0 failed

// -bir-schedule on its own, before the pipeline and after it (where the
// allocation makes tensors share bytes), with each heuristic, every new
// order kept even where the estimate finds it slower: the interpreter's
// outputs stay identical, so no op moved across a dependence.
// RUN: rm -rf %t.schedule && %python %utils/random_check.py --count 40 --seed 1 --pipeline "bir-schedule{keep-slower}" --failures %t.schedule --walrus-opt %walrus_opt --walrus-run %walrus_run | FileCheck %s --check-prefix=SCHEDULE
// RUN: rm -rf %t.prefetch && %python %utils/random_check.py --count 40 --seed 41 --pipeline "bir-schedule{keep-slower heuristic=dma-prefetch},walrus-pipeline" --failures %t.prefetch --walrus-opt %walrus_opt --walrus-run %walrus_run | FileCheck %s --check-prefix=PREFETCH
// RUN: rm -rf %t.placed && %python %utils/random_check.py --count 40 --seed 81 --pipeline "walrus-pipeline,bir-schedule{keep-slower heuristic=asap}" --failures %t.placed --walrus-opt %walrus_opt --walrus-run %walrus_run | FileCheck %s --check-prefix=PLACED

// SCHEDULE: 40 random programs through 'bir-schedule{keep-slower}': 40 identical, 0 failed
// PREFETCH: 40 random programs through 'bir-schedule{keep-slower heuristic=dma-prefetch},walrus-pipeline': 40 identical, 0 failed
// PLACED: 40 random programs through 'walrus-pipeline,bir-schedule{keep-slower heuristic=asap}': 40 identical, 0 failed
