// Random valid programs (fixed seeds) keep every output byte through the
// pipeline: utils/random_check.py generates, verifies, runs before and
// after, and compares. `python3 utils/random_check.py --count 10000` runs
// many more (README).
//
// RUN: rm -rf %t && %python %utils/random_check.py --count 40 --seed 1 --failures %t --walrus-opt %walrus_opt --walrus-run %walrus_run | FileCheck %s

// CHECK: 40 random programs through 'walrus-pipeline': 40 identical, 0 failed
