"""Pictures of a -print-bir-timeline trace.

    python3 -m walrus.timeline_picture trace.json -o timeline.png

reads the Chrome trace of `walrus-opt ... -print-bir-timeline=trace-file=
trace.json` and draws, per core, one row per engine (PE, ACT, DVE, Pool)
and per DMA engine and DMA fixed-latency track that ran something: each
executed instruction a bar from its start to its end, coloured by engine;
time in microseconds on the horizontal axis.

Needs matplotlib (Debian: apt-get install python3-matplotlib, then run
with /usr/bin/python3).
"""
from walrus.picture import _pyplot, run_command

COLOURS = {"PE": "tab:red", "ACT": "tab:green", "DVE": "tab:blue", "Pool": "tab:purple"}


def _tracks(trace):
    """{(core process, thread): (core name, track name, [(start, duration)])}."""
    processes, threads, tracks = {}, {}, {}
    for event in trace["traceEvents"]:
        if event["ph"] == "M" and event["name"] == "process_name":
            processes[event["pid"]] = event["args"]["name"]
        elif event["ph"] == "M" and event["name"] == "thread_name":
            threads[(event["pid"], event["tid"])] = event["args"]["name"]
    for event in trace["traceEvents"]:
        if event["ph"] != "X":
            continue
        key = (event["pid"], event["tid"])
        tracks.setdefault(key, []).append((event["ts"], event["dur"]))
    return [(processes.get(pid, str(pid)), threads.get((pid, tid), str(tid)), bars)
            for (pid, tid), bars in sorted(tracks.items())]


def draw(trace, output):
    """Draws `trace` (the parsed JSON) into `output` (PNG or SVG)."""
    tracks = _tracks(trace)
    if not tracks:
        raise ValueError("the trace has no events")
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(10, 0.35 * len(tracks) + 1.2))
    for row, (core, track, bars) in enumerate(tracks):
        colour = COLOURS.get(track, "tab:orange")
        axis.broken_barh(bars, (row - 0.4, 0.8), facecolors=colour)
    axis.set_yticks(range(len(tracks)))
    axis.set_yticklabels([f"{core}: {track}" for core, track, _ in tracks], fontsize=7)
    axis.invert_yaxis()
    axis.set_xlabel("time (us)")
    axis.set_ylabel("engine")
    axis.set_title("estimated timeline (-print-bir-timeline)")
    figure.tight_layout()
    figure.savefig(output)
    plt.close(figure)


def main():
    run_command(__doc__, "walrus.timeline_picture",
                "JSON written by -print-bir-timeline=trace-file=...", "timeline.png", draw)


if __name__ == "__main__":
    main()
