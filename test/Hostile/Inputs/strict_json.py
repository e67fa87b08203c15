"""Loads each JSON file named on the command line as strict JSON (no NaN
or Infinity, which Python accepts and JSON does not) and says how many
numbers each holds, all finite."""
import json
import math
import sys


def refuse(constant):
    raise ValueError(f"not JSON: {constant}")


def numbers(value):
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return sum(numbers(v) for v in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        assert math.isfinite(value), value
        return 1
    return 0


for path in sys.argv[1:]:
    with open(path) as file:
        document = json.load(file, parse_constant=refuse)
    print(f"{path.rsplit('/', 1)[-1]}: strict JSON, {numbers(document)} finite number(s)")
