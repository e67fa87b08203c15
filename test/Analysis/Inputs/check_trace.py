"""Checks a -print-bir-timeline trace against the rules of the Chrome
trace-event format that viewers rely on, and sums up its report (when
given one).

- every event has the format's fields for its phase;
- no two complete ("X") events of one thread overlap: viewers draw a
  thread's events as a stack, so overlapping ones are drawn wrongly;
- process names are unique, and thread names unique within a process;
- each instruction's event names the instruction, its location, its bytes
  and its accesses; every flow start has its end.
"""
import argparse
import collections
import json

parser = argparse.ArgumentParser()
parser.add_argument("trace")
parser.add_argument("report", nargs="?")
parser.add_argument("--events", type=int, metavar="PID",
                    help="also print each event of process PID, one a line, in time order")
options = parser.parse_args()
trace = json.load(open(options.trace))
events = trace["traceEvents"]
by_phase = collections.defaultdict(list)
for event in events:
    assert isinstance(event["name"], str) and isinstance(event["pid"], int), event
    assert event["ph"] in ("M", "X", "s", "f", "C"), event
    by_phase[event["ph"]].append(event)

tracks = collections.defaultdict(list)
for event in by_phase["X"]:
    assert isinstance(event["tid"], int) and event["ts"] >= 0 and event["dur"] >= 0, event
    tracks[(event["pid"], event["tid"])].append((event["ts"], event["dur"], event))
    args = event["args"]
    if "instruction" in args:
        for field in ("loc", "bytes_read", "bytes_written", "accesses"):
            assert field in args, event
# As viewers compute it: a slice ends at ts + dur in binary floating point.
overlaps = 0
for events_of_track in tracks.values():
    events_of_track.sort(key=lambda e: (e[2]["ts"], e[2]["dur"]))
    for (_, _, first), (_, _, second) in zip(events_of_track, events_of_track[1:]):
        if second["ts"] < first["ts"] + first["dur"]:
            overlaps += 1
            if overlaps <= 3:
                print("overlap:", first, second)

process_names = [e["args"]["name"] for e in by_phase["M"] if e["name"] == "process_name"]
thread_names = collections.Counter(
    (e["pid"], e["args"]["name"]) for e in by_phase["M"] if e["name"] == "thread_name")
duplicates = len(process_names) - len(set(process_names)) + sum(
    count - 1 for count in thread_names.values())
flows = collections.Counter(e["id"] for e in by_phase["s"])
ends = collections.Counter(e["id"] for e in by_phase["f"])
assert flows == ends, "a flow without its end"
counters = {e["name"] for e in by_phase["C"]}
print(f"trace: {len(process_names)} process(es), {len(thread_names)} thread name(s), "
      f"{len(by_phase['X'])} complete event(s), {len(flows)} flow(s), "
      f"counters {sorted(counters)}, every field present")
print(f"trace: {overlaps} overlapping event(s), {duplicates} duplicate name(s)")
print("processes: " + "; ".join(process_names))
if options.events is not None:
    threads = {e["tid"]: e["args"]["name"] for e in by_phase["M"]
               if e["name"] == "thread_name" and e["pid"] == options.events}
    order = {"C": 0, "X": 1, "s": 2, "f": 3}
    shown = sorted((e for e in events if e["pid"] == options.events and e["ph"] != "M"),
                   key=lambda e: (e["ts"], order[e["ph"]], e.get("tid", -1)))
    for e in shown:
        if e["ph"] == "C":
            print(f"counter {e['ts']:.3f} {e['name']} {e['args']['bytes']}")
        elif e["ph"] == "X":
            details = {k: v for k, v in e["args"].items() if k not in ("loc", "instruction")}
            print(f"slice {e['ts']:.3f} +{e['dur']:.3f} [{threads[e['tid']]}] {e['name']} {json.dumps(details)}")
        else:
            print(f"flow {e['ph']} {e['id']} {e['ts']:.3f} [{threads[e['tid']]}]")
if options.report:
    report = json.load(open(options.report))
    kernels = report["kernels"]
    cores = sum(len(k["cores"]) for k in kernels)
    print(f"report: {len(kernels)} kernel(s), {cores} core(s), "
          f"finish {max(k['finish_ns'] for k in kernels) / 1000:.3f} us")
