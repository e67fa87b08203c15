"""pin-tensors.py IN ALLOCATED COUNT SEED: prints IN with COUNT of its SBUF
tensors (drawn with SEED) given the addresses ALLOCATED (an -sb-alloc
output of IN) placed them at, as a compiler that pins tensors would."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "utils"))
from random_minimalloc_check import pin_tensors  # noqa: E402

source = open(sys.argv[1]).read()
allocated = open(sys.argv[2]).read()
count, seed = int(sys.argv[3]), int(sys.argv[4])
sys.stdout.write(pin_tensors(source, allocated, count, random.Random(seed)))
