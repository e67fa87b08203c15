// The 1-D search around fixed buffers (lib/Analysis/SbSearch.cpp): random
// placements, a share of their buffers fixed where they are, placed again
// at that capacity. Every problem has a solution, and the search finds
// each. Small ones (scale 1) catch a section at a fixed buffer's offset
// taken for a valley that cannot be tiled; larger ones (scale 2, longer
// lived) catch dead space raised past where a buffer waits above a fixed
// one, and a valley branched at while one of its buffers waits for a fixed
// one below it (each of those mutations leaves some unplaced here).
// RUN: walrus-opt %s -test-walrus-search-fixed="fixed-percent=20" -o /dev/null | FileCheck %s --check-prefix=SMALL20
// RUN: walrus-opt %s -test-walrus-search-fixed="fixed-percent=50" -o /dev/null | FileCheck %s --check-prefix=SMALL50
// RUN: walrus-opt %s -test-walrus-search-fixed="fixed-percent=90" -o /dev/null | FileCheck %s --check-prefix=SMALL90
// RUN: walrus-opt %s -test-walrus-search-fixed="fixed-percent=20 scale=2 max-work=1000000000" -o /dev/null | FileCheck %s --check-prefix=LARGE20
// RUN: walrus-opt %s -test-walrus-search-fixed="fixed-percent=50 scale=2 max-work=1000000000" -o /dev/null | FileCheck %s --check-prefix=LARGE50
// RUN: walrus-opt %s -test-walrus-search-fixed="fixed-percent=90 scale=2 max-work=1000000000" -o /dev/null | FileCheck %s --check-prefix=LARGE90
// Nothing fixed: the search as before.
// RUN: walrus-opt %s -test-walrus-search-fixed="fixed-percent=0" -o /dev/null | FileCheck %s --check-prefix=NONE

// SMALL20: search with fixed buffers: 300 instances, 2367 buffers, 459 fixed, 300 placed, 0 invalid
// SMALL50: search with fixed buffers: 300 instances, 2367 buffers, 1201 fixed, 300 placed, 0 invalid
// SMALL90: search with fixed buffers: 300 instances, 2367 buffers, 2134 fixed, 300 placed, 0 invalid
// LARGE20: search with fixed buffers: 300 instances, 5910 buffers, 1198 fixed, 300 placed, 0 invalid
// LARGE50: search with fixed buffers: 300 instances, 5910 buffers, 2996 fixed, 300 placed, 0 invalid
// LARGE90: search with fixed buffers: 300 instances, 5910 buffers, 5316 fixed, 300 placed, 0 invalid
// Two fixed buffers on a common byte, or one past the capacity: none.
// NONE: search with fixed buffers: 2 of 2 impossible declined
// NONE: search with fixed buffers: 300 instances, 2367 buffers, 0 fixed, 300 placed, 0 invalid
module {}
