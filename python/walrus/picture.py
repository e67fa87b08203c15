"""SBUF occupancy pictures of an allocation.

    python3 -m walrus.picture alloc.json -o alloc.png

reads the JSON of `walrus-opt ... -sb-alloc=report-file=alloc.json`; from
Python, `walrus.picture.draw(allocation, "alloc.png")` takes an
`Allocation` (walrus.programs(...)[i].functions[j].allocation), a list of
them, or the parsed JSON. For every function it draws one time x bytes
panel per 32-partition quarter of SBUF: each tensor is a labelled
rectangle from its first to its last live point and over its bytes, in
every quarter its partitions cover; the peak and the lower bound are
marked, and stay visible when they are equal.

Needs matplotlib (Debian: apt-get install python3-matplotlib, then run
with /usr/bin/python3).
"""
import argparse
import json
import sys

QUARTERS = 4


class MissingMatplotlib(RuntimeError):
    pass


def _pyplot():
    try:
        import matplotlib
    except ImportError as error:
        raise MissingMatplotlib(
            "walrus.picture needs matplotlib: on Debian, apt-get install "
            "python3-matplotlib and run /usr/bin/python3") from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _functions(source):
    """Functions as dicts of the report's JSON form, from an Allocation, a
    list of them, or the parsed report."""
    if isinstance(source, dict):
        return source["functions"]
    allocations = source if isinstance(source, (list, tuple)) else [source]
    functions = []
    for allocation in allocations:
        functions.append({
            "function": allocation.function,
            "peak_bytes": allocation.peak,
            "lower_bound_bytes": allocation.lower_bound,
            "nodes": [{"tensors": [node.tensor],
                       **{key: value for key, value in vars(node).items() if value is not None}}
                      for node in allocation.nodes],
        })
    return functions


def _label(axis, node, width, height, span, top):
    """The tensor's name inside its rectangle, where it fits."""
    if width < span * 0.06 or height < top * 0.05:
        return
    axis.text(node["start"] + width / 2, node["address"] + height / 2, "+".join(node["tensors"]),
              ha="center", va="center", fontsize=5, clip_on=True)


def draw(source, output, partitions=128):
    """Writes the picture of `source` (see the module's doc) to `output`."""
    plt = _pyplot()
    from matplotlib.patches import Rectangle

    functions = [f for f in _functions(source) if f["nodes"]]
    if not functions:
        raise ValueError("no function with SBUF tensors to draw")
    figure, axes = plt.subplots(len(functions), QUARTERS, squeeze=False,
                                figsize=(3.2 * QUARTERS, 2.8 * len(functions)))
    quarter = partitions // QUARTERS
    colors = plt.get_cmap("tab20")
    for row, function in enumerate(functions):
        live = [n for n in function["nodes"] if "start" in n and "address" in n]
        end = max((n["end"] for n in live), default=0) + 1
        peak = function["peak_bytes"] or 0
        bound = function["lower_bound_bytes"]
        top = max(peak, bound, 1) * 1.15
        for q in range(QUARTERS):
            axis = axes[row][q]
            low, high = q * quarter, (q + 1) * quarter
            for index, node in enumerate(live):
                first = node["base_partition"]
                if first >= high or first + node["partitions"] <= low:
                    continue
                width = node["end"] - node["start"] + 1
                axis.add_patch(Rectangle((node["start"], node["address"]), width, node["bytes"],
                                         facecolor=colors(index % 20), edgecolor="black",
                                         linewidth=0.4))
                _label(axis, node, width, node["bytes"], end, top)
            # The lower bound under the peak, dashed, so that a peak at the
            # bound still shows.
            axis.axhline(bound, color="green", linewidth=2.2, zorder=3,
                         label=f"lower bound {bound} B")
            axis.axhline(peak, color="red", linewidth=0.9, linestyle="--", zorder=4,
                         label=f"peak {peak} B")
            axis.set_xlim(0, end)
            axis.set_ylim(0, top)
            axis.set_title(f"{function['function']} partitions {low}-{high - 1}", fontsize=7)
            axis.set_xlabel("program point", fontsize=7)
            axis.set_ylabel("bytes per partition", fontsize=7)
            axis.tick_params(labelsize=6)
        axes[row][0].legend(fontsize=5, loc="upper left")
    figure.suptitle("SBUF occupancy (red dashed: peak, green: lower bound)", fontsize=9)
    figure.tight_layout()
    figure.savefig(output, dpi=120)
    plt.close(figure)


def run_command(doc, name, input_help, default_output, draw_json):
    """The command line of a picture module: a JSON file in, a picture out;
    a missing matplotlib or an empty input is an error message."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", help=input_help)
    parser.add_argument("-o", "--output", default=default_output, help="PNG or SVG file")
    args = parser.parse_args()
    with open(args.input) as source:
        parsed = json.load(source)
    try:
        draw_json(parsed, args.output)
    except (MissingMatplotlib, ValueError) as error:
        sys.exit(f"{name}: {error}")
    print(f"wrote {args.output}")


def main():
    run_command(__doc__, "walrus.picture", "JSON written by -sb-alloc=report-file=...",
                "sbuf.png", draw)


if __name__ == "__main__":
    main()
