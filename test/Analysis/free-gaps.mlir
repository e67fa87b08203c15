// The dense sweep's free gaps (lib/Placement/Dense/FreeGaps.h) against a std::map
// searched gap by gap: the same lowest fit after every take and release,
// with hundreds of gaps free at once (so that the blocks split, skip and
// merge across their edges).
// RUN: walrus-opt %s -test-walrus-free-gaps -o /dev/null | FileCheck %s

// CHECK: free gaps: 50 sequences, 200000 operations, at most 645 gaps, 0 mismatches
module {}
