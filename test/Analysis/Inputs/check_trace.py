"""Checks a -print-bir-timeline trace against the Chrome trace-event
format's fields, and sums up its report."""
import json
import sys

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
processes = {e["pid"] for e in events}
names = [e for e in events if e["ph"] == "M" and e["name"] == "thread_name"]
complete = [e for e in events if e["ph"] == "X"]
for event in events:
    assert isinstance(event["name"], str) and isinstance(event["pid"], int), event
    assert event["ph"] in ("M", "X"), event
for event in complete:
    assert isinstance(event["tid"], int) and event["ts"] >= 0 and event["dur"] >= 0, event
    assert "loc" in event["args"], event
for event in names:
    assert isinstance(event["args"]["name"], str), event
print(f"trace: {len(processes)} process(es), {len(names)} thread name(s), "
      f"{len(complete)} complete event(s), every field present")
report = json.load(open(sys.argv[2]))
kernels = report["kernels"]
cores = sum(len(k["cores"]) for k in kernels)
print(f"report: {len(kernels)} kernel(s), {cores} core(s), "
      f"finish {max(k['finish_ns'] for k in kernels) / 1000:.3f} us")
