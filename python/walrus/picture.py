"""SBUF occupancy pictures of an allocation.

    python3 -m walrus.picture alloc.json -o alloc.png

reads the JSON of `walrus-opt ... -sb-alloc=report-file=alloc.json` and
draws, for every function, one time x bytes panel per 32-partition quarter
of SBUF: each tensor is a rectangle from its first to its last live point
and over its bytes, in every quarter its partitions cover.
"""
import argparse
import json

QUARTERS = 4


def draw(report, output, partitions=128):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    functions = [f for f in report["functions"] if f["nodes"]]
    figure, axes = plt.subplots(len(functions), QUARTERS, squeeze=False,
                                figsize=(3.2 * QUARTERS, 2.8 * len(functions)))
    quarter = partitions // QUARTERS
    colors = plt.get_cmap("tab20")
    for row, function in enumerate(functions):
        end = max((n.get("end", 0) for n in function["nodes"]), default=0) + 1
        for q in range(QUARTERS):
            axis = axes[row][q]
            low, high = q * quarter, (q + 1) * quarter
            for index, node in enumerate(function["nodes"]):
                first = node["base_partition"]
                if "start" not in node or first >= high or first + node["partitions"] <= low:
                    continue
                axis.add_patch(Rectangle((node["start"], node["address"]),
                                         node["end"] - node["start"] + 1, node["bytes"],
                                         facecolor=colors(index % 20), edgecolor="black",
                                         linewidth=0.4))
            axis.axhline(function["peak_bytes"], color="red", linewidth=0.8)
            axis.axhline(function["lower_bound_bytes"], color="green", linewidth=0.8,
                         linestyle="--")
            axis.set_xlim(0, end)
            axis.set_ylim(0, max(function["peak_bytes"], 1) * 1.1)
            axis.set_title(f"{function['function']} partitions {low}-{high - 1}", fontsize=7)
            axis.set_xlabel("program point", fontsize=7)
            axis.set_ylabel("bytes per partition", fontsize=7)
            axis.tick_params(labelsize=6)
    figure.suptitle("SBUF occupancy (red: peak, green dashed: lower bound)", fontsize=9)
    figure.tight_layout()
    figure.savefig(output, dpi=120)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report", help="JSON written by -sb-alloc=report-file=...")
    parser.add_argument("-o", "--output", default="sbuf.png", help="PNG or SVG file")
    args = parser.parse_args()
    with open(args.report) as source:
        draw(json.load(source), args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
