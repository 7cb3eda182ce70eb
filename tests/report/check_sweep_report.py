#!/usr/bin/env python3
"""`ringsim report` on a merged sweep: the ranking and plots a person can read at many cases.

Makes the report of tests/fixtures/report/sweep-4-ranks.results.json (a merged sweep of 144 cases: every
placement of 4 ranks on 4 nodes of 4 GPUs in block and cyclic order, and of 2 ranks, ring and
rabenseifner, 64 KiB and 1 MiB; made by `ringsim sweep run` + `merge` from sweep-4-ranks.json) with
--topology, and checks, from its terminal output and the figures' JSON in the page:
  * the ranking's first and last rows at N = 4 are the known fastest and slowest cases with the
    bottleneck each names (the numbers are recomputed here from the results file);
  * no panel of any plot has more than 10 series;
  * every algorithm has one colour in every plot, and two algorithms never share one;
  * every log axis has explicit ticks, each a power of 2 or of 10, labelled with a unit.
Exit 0 pass, 1 fail.
"""
import argparse
import html
import json
import math
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

TICK_LABEL = re.compile(r"^\d+(\.\d+)? (B|KiB|MiB|GiB|TiB|ns|µs|ms|s)$")
MAX_SERIES = 10


def power_of(value, base):
    exponent = math.log(value) / math.log(base)
    return abs(exponent - round(exponent)) < 1e-9


def expected_ends(results_file, ranks, size):
    """(fastest, slowest) case names at N = RANKS and SIZE, from the results: ties keep the file's order."""
    with open(results_file) as f:
        rows = [r for r in json.load(f)["results"] if r["ranks"] == ranks and r["bytes"] == size]
    ordered = sorted(rows, key=lambda r: r["time_s"])  # stable: equal times keep the results' order
    name = lambda r: f"{r['placement']} {r['order']} {r['algorithm']}"
    return name(ordered[0]), ordered[0]["time_s"], name(ordered[-1]), ordered[-1]["time_s"]


def check_ranking(stdout, results_file, problems):
    fastest, fastest_s, slowest, slowest_s = expected_ends(results_file, 4, 1 << 20)
    lines = stdout.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("# N = 4 ranks: ")), None)
    if start is None:
        problems.append(f"no ranking of N = 4 in the output:\n{stdout}")
        return
    rows = []
    for line in lines[start + 2:]:  # after the group's caption and header, up to the next group
        if line.startswith("#") or line.startswith("ringsim report:"):
            break
        rows.append(line)
    first, last = rows[0], rows[-1]
    def bottleneck(name):  # the ring's names its NIC or link; other algorithms' none
        return r"(NIC|link) \S+ \(.+\), carrying \d+ ring edges? at .+" if name.endswith(" ring") else "-"
    time = lambda seconds: f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} µs"
    want_first = re.compile(rf"^\s+1  {re.escape(fastest)} +{time(fastest_s)} +1\.00x  {bottleneck(fastest)}$")
    want_last = re.compile(rf"^\s+\d+  {re.escape(slowest)} +{time(slowest_s)} +{slowest_s / fastest_s:.2f}x  "
                           rf"{bottleneck(slowest)}$")
    if not want_first.match(first):
        problems.append(f"first row at N = 4: {first!r}, expected {fastest} at {time(fastest_s)}")
    if not want_last.match(last):
        problems.append(f"last row at N = 4: {last!r}, expected {slowest} at {time(slowest_s)}")
    # The slowest is a cyclic ring whose order sends 2 of its 4 edges through one 10 GbE NIC.
    if not re.search(r" cyclic ring .*NIC node\d-nic \(\w+\), carrying 2 ring edges at 10 Gbit/s$", last):
        problems.append(f"last row at N = 4: {last!r}, expected a cyclic ring with 2 ring edges on one NIC")
    if len(rows) != 11:
        problems.append(f"N = 4 lists {len(rows)} rows, expected the 5 fastest, a summary line and the 5 slowest")
    print(f"ranking at N = 4: first {first.strip()!r}; last {last.strip()!r}")


def check_figures(figures, problems):
    colour_of = defaultdict(set)
    for figure in figures:
        per_panel = defaultdict(int)
        for trace in figure["data"]:
            per_panel[trace.get("xaxis", "x")] += 1
            algorithm = trace.get("meta")
            if algorithm:
                colour_of[algorithm].add(trace.get("marker", {}).get("color") or trace["line"]["color"])
        for panel, count in per_panel.items():
            if count > MAX_SERIES:
                problems.append(f"{figure['id']}: panel {panel} has {count} series (at most {MAX_SERIES})")
        for key, axis in figure["layout"].items():
            if not re.match(r"^[xy]axis\d*$", key) or axis.get("type") != "log":
                continue
            values, labels = axis.get("tickvals"), axis.get("ticktext")
            if not values or len(values) != len(labels or []):
                problems.append(f"{figure['id']} {key}: a log axis without explicit tick values and labels")
                continue
            for value, label in zip(values, labels):
                if not (power_of(value, 2) or power_of(value, 10) or power_of(value * 1e-3, 10) or power_of(value * 1e-3, 2)):
                    problems.append(f"{figure['id']} {key}: tick {value} is not a power of 2 or of 10")
                if not TICK_LABEL.match(label):
                    problems.append(f"{figure['id']} {key}: tick label {label!r} is not a number with a unit")
    for algorithm, colours in colour_of.items():
        if len(colours) != 1:
            problems.append(f"{algorithm} is drawn in {len(colours)} colours: {sorted(colours)}")
    first_colours = [sorted(c)[0] for c in colour_of.values()]
    if len(set(first_colours)) != len(first_colours):
        problems.append(f"two algorithms share a colour: {dict(colour_of)}")
    if len(colour_of) < 2:
        problems.append(f"expected traces of 2 algorithms tagged with their name (meta), found {sorted(colour_of)}")
    print(f"{len(figures)} figures; colours {({a: sorted(c) for a, c in colour_of.items()})}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ringsim", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--topology", required=True)
    args = parser.parse_args()
    problems = []
    with tempfile.TemporaryDirectory(prefix="ringsim-sweep-report-") as scratch:
        page = f"{scratch}/report.html"
        made = subprocess.run([args.ringsim, "report", args.results, "--topology", args.topology, "-o", page],
                              capture_output=True, text=True)
        if made.returncode != 0:
            print(f"FAIL: ringsim report exited {made.returncode}: {made.stderr.strip()}")
            return 1
        with open(page) as f:
            text = f.read()
    found = re.search(r'<script type="application/json" id="ringsim-figures">(.*?)</script>', text, re.S)
    figures = json.loads(found.group(1).replace("<\\/", "</"))
    check_ranking(made.stdout, args.results, problems)
    check_figures(figures, problems)
    if 'id="plot-ranking"' not in text or "<table class=\"ranking\">" not in html.unescape(text):
        problems.append("the page has no ranking plot and table")
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        return 1
    print("PASS: ranking ends as expected, at most 10 series per panel, one colour per algorithm, ticks readable")
    return 0


if __name__ == "__main__":
    sys.exit(main())
