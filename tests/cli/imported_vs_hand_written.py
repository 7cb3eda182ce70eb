#!/usr/bin/env python3
"""Topologies imported from the corpus logs against the hand-written ones of the same node type.

Usage: imported_vs_hand_written.py RINGSIM ROOT [--table]

For each corpus log with NCCL INFO lines whose node type topologies/ describes by hand, `ringsim import`
writes a topology from the log (with the committed prints of that node type); one scenario (the
log's placement, nccl_ring, 64 KiB, 8 MiB and 256 MiB, one iteration) runs on both topologies. A log
passes when every size's simulated time is within 1% of the hand-written topology's, or when it is a
row of the table "Against the hand-written topologies" in validate/prints/README.md, whose last column
names the fact that decides the difference; a listed log that comes within 1% fails too (its row is
stale). --table prints the table of differences (log, topology, max difference) for the docs."""
import json
import os
import re
import subprocess
import sys
import tempfile

CORPUS = "validate/traces/nccl-corpus"
PRINTS = "validate/prints"
SIZES = ["64KiB", "8MiB", "256MiB"]
TOLERANCE = 0.01

# log, further prints of its node type, hand-written topology, placement (the log's ranks per node;
# a 16-node log on the 8-node topology of its cluster runs on 8 nodes of each).
CASES = [
    ("a100pcie-1x2-info-midrow.txt", [], "a100pcie-nvlink-1x2.json", "2"),
    ("aws-p4d-efa-2x8-info-prefixed.txt", ["aws-p4d-24xl-topo.xml"], "aws-p4d-efa-2x8.json", "8-8"),
    ("aws-p4d-efa-2x8-info-prefixed-nccl2.8.txt", ["aws-p4d-24xl-topo.xml"], "aws-p4d-efa-2x8.json", "8-8"),
    ("aws-p5-efa-2x8-info-tagged.txt", [], "aws-p5-efa-2x8.json", "8-8"),
    ("aws-p5-efa-2x8-info-tagged-nccl2.20.txt", [], "aws-p5-efa-2x8.json", "8-8"),
    ("moc-h100-roce-2x1-ring-25gib.txt", [], "moc-h100-roce-2x1.json", "1-1"),
    ("superbench-dgxa100-1x8-allreduce.txt", [], "dgx-a100-pair.json", "8"),
    ("hkbu-100gib-8x4-info.txt", [], "hkbu-100GbIB-8x4.json", "4-4-4-4-4-4-4-4"),
    ("hkbu-100gib-16x1-info.txt", [], "hkbu-100GbIB-8x4.json", "1-1-1-1-1-1-1-1"),
]


def run(ringsim, args, cwd):
    result = subprocess.run([ringsim] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"ringsim {' '.join(args)}: exit {result.returncode}: {result.stderr.strip()}")
    return result


def simulated_times(ringsim, topology, placement, scratch, name):
    scenario = {"name": name, "topology": topology, "placements": [placement], "algorithms": ["nccl_ring"],
                "sizes": SIZES, "iterations": 1, "warmup": 0}
    path = os.path.join(scratch, name + "-scenario.json")
    with open(path, "w") as out:
        json.dump(scenario, out)
    results = os.path.join(scratch, name + "-results.json")
    run(ringsim, ["run", path, "--quiet", "--jobs", "2", "--json", results], scratch)
    with open(results) as f:
        return {row["bytes"]: row["time_s"] for row in json.load(f)["results"]}


def listed_logs(root):
    """The logs named in the first column of the README's table against the hand-written topologies,
    with the explanation (the row's last column)."""
    with open(os.path.join(root, PRINTS, "README.md")) as f:
        text = f.read()
    section = text.split("## Against the hand-written topologies", 1)[1]
    listed = {}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        for log in re.findall(r"`([^`]+\.txt)`", cells[0]):
            listed[log] = cells[-1]
    return listed


def compare(ringsim, root, scratch, case):
    log, prints, hand_written, placement = case
    stem = log[:-4]
    imported = os.path.join(scratch, stem + ".json")
    inputs = [os.path.join(root, CORPUS, log)] + [os.path.join(root, PRINTS, p) for p in prints]
    run(ringsim, ["import"] + inputs + ["-o", imported], scratch)
    hand = simulated_times(ringsim, os.path.join(root, "topologies", hand_written), placement, scratch, stem + "-hand")
    mine = simulated_times(ringsim, imported, placement, scratch, stem + "-imported")
    return max(abs(mine[size] / hand[size] - 1) for size in hand), hand, mine


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--table"):
        sys.exit(__doc__)
    ringsim, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    listed = listed_logs(root)
    failures = []
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for case in CASES:
            log, _, hand_written, placement = case
            worst, hand, mine = compare(ringsim, root, scratch, case)
            times = ", ".join(f"{size} B {hand[size] * 1e6:.1f} -> {mine[size] * 1e6:.1f} us" for size in sorted(hand))
            print(f"{log} on {hand_written} ({placement}): max difference {worst * 100:.1f}% ({times})")
            rows.append((log, hand_written, placement, worst, hand, mine))
            if worst > TOLERANCE and not listed.get(log):
                failures.append(f"{log}: imported differs by {worst * 100:.1f}% from {hand_written}, and "
                                f"{PRINTS}/README.md lists no explanation")
            if worst <= TOLERANCE and log in listed:
                failures.append(f"{log}: within {TOLERANCE * 100:g}% ({worst * 100:.2f}%), but {PRINTS}/README.md lists it")
    if len(sys.argv) == 4:
        print("\n| log | hand-written topology | placement | " + " | ".join(f"{s}: hand -> imported (us)" for s in SIZES) +
              " | max difference |")
        print("|---|---|---|" + "---:|" * (len(SIZES) + 1))
        for log, hand_written, placement, worst, hand, mine in rows:
            cells = " | ".join(f"{hand[s] * 1e6:,.1f} -> {mine[s] * 1e6:,.1f}" for s in sorted(hand))
            print(f"| `{log}` | `{hand_written}` | {placement} | {cells} | {worst * 100:.1f}% |")
    for failure in failures:
        print("FAIL: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
