"""pin-tensors.py IN ALLOCATED COUNT SEED: prints IN with COUNT of its SBUF
tensors (drawn with SEED) given the addresses ALLOCATED (an -sb-alloc
output of IN) placed them at, as a compiler that pins tensors would."""
import random
import re
import sys

source = open(sys.argv[1]).read()
allocated = open(sys.argv[2]).read()
count, seed = int(sys.argv[3]), int(sys.argv[4])
addresses = dict(re.findall(
    r'bir\.memloc "([^"]+)" internal address (\d+) base_partition 0',
    allocated))
# In numeric order where the names are numbers (MiniMalloc ids).
names = sorted(addresses, key=lambda name: (not name.isdigit(),
                                            int(name) if name.isdigit() else 0,
                                            name))
pinned = set(random.Random(seed).sample(names, min(count, len(names))))


def pin(match):
    name = match.group(1)
    if name not in pinned:
        return match.group(0)
    return (f'bir.memloc "{name}" internal address {addresses[name]} '
            'base_partition 0 :')


sys.stdout.write(re.sub(r'bir\.memloc "([^"]+)" internal :', pin, source))
