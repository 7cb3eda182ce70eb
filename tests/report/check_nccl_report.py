#!/usr/bin/env python3
"""The report of an NCCL scenario names what NCCL runs and what binds it, and draws its channels over the NICs.

Runs the scenario with `ringsim run --json`, makes its page with `ringsim report`, and checks:
  * every row of the answer's table names its binding resource ("...; binds: NIC node0-nic0 up, ...");
  * each --finding text is in one of the page's findings (e.g. "4-4 block nccl 4MiB-256MiB: Ring/Simple");
  * one channels drawing per case, each with a NIC box per NIC of every node it crosses (the rails:
    --nics per node) and a line per channel and node (--expect-lines CASE=N: N lines), the ones through
    the binding NIC red and counted in the legend;
  * in headless Chromium at 1280 x 1200 (from the DOM's positions): the findings start on the first
    screen, and the first channels drawing is whole on it.
Exit 0 pass, 1 fail, 77 skipped (no chromium, for the Chromium part only).
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_report_renders import find_chromium  # noqa: E402
from check_scenario_answer import FLAGS, SCREEN, answer_table  # noqa: E402


def findings(page):
    """The sentences of the page's findings."""
    return [html.unescape(re.sub(r"<[^>]+>", "", s)) for block in re.findall(r'<div id="lead-findings-\d+">(.*?)</div>', page, re.S)
            for s in re.findall(r"<li>(.*?)</li>", block, re.S)]


def channel_drawings(page):
    """Per channels drawing: (case heading, NIC boxes, binding NIC boxes, lines, red lines, red in legend)."""
    found = []
    for case_html in page.split('<div class="ring-case">')[1:]:
        case = html.unescape(re.search(r"<h3[^>]*>(.*?)</h3>", case_html).group(1))
        for svg in re.findall(r'<svg class="nccl-channels".*?</svg>', case_html, re.S):
            legend = re.search(r"red: the (\d+) crossing", svg)
            found.append((case, len(re.findall(r'<rect class="nic', svg)), svg.count('class="nic binding"'),
                          svg.count('<path class="channel"'), svg.count('-hot)"'), int(legend.group(1)) if legend else 0))
    return found


def check_page(page, args):
    problems = []
    rows = answer_table(page)
    for row in rows:
        if "binds:" not in row[-1]:
            problems.append(f"{row[0]} [{row[1]}]: no binding resource named ({row[-1]!r})")
    sentences = findings(page)
    for text in args.finding:
        if not any(text in s for s in sentences):
            problems.append(f"no finding says {text!r}")
    drawings = channel_drawings(page)
    if len(drawings) != len(rows):
        problems.append(f"{len(drawings)} channel drawings, expected one per case ({len(rows)})")
    expected_lines = dict(e.rsplit("=", 1) for e in args.expect_lines)
    for case, nics, binding, lines, red, legend in drawings:
        if case in expected_lines:
            channels, nodes = (int(v) for v in expected_lines[case].split("x"))
            if lines != channels * nodes:
                problems.append(f"{case}: {lines} channel lines, expected {channels} channels x {nodes} nodes")
            if nics != nodes * args.nics:
                problems.append(f"{case}: {nics} NIC boxes, expected {args.nics} on each of {nodes} nodes")
        if binding and (red == 0 or red != legend):
            problems.append(f"{case}: {red} red lines, the legend says {legend}")
    print(f"{len(rows)} cases named with their binding, {len(sentences)} findings, {len(drawings)} channel drawings")
    return problems


def check_first_screen(page_file, scratch):
    chromium = find_chromium()
    if chromium is None:
        return None
    flags = FLAGS + ([] if os.geteuid() != 0 else ["--no-sandbox"])
    dom = subprocess.run([chromium, *flags, f"--user-data-dir={scratch}/p1", "--dump-dom", "file://" + page_file],
                         capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="ringsim-render-status"[^>]*>(.*?)</pre>', dom, re.S)
    if not found or not found.group(1).strip():
        return ["the page's script never recorded its status"]
    status = json.loads(html.unescape(found.group(1)))
    problems = [f"page error: {e}" for e in status["errors"]]
    boxes = status["boxes"]
    first_findings = boxes.get("lead-findings-0")
    if not first_findings or first_findings["box"][1] >= SCREEN[1]:
        problems.append(f"the findings do not start on the first screen: {first_findings and first_findings['box']}")
    drawings = [b for key, b in boxes.items() if key.startswith("channels-")]
    if not drawings or min(b["box"][1] + b["box"][3] for b in drawings) > SCREEN[1]:
        problems.append(f"no channels drawing is whole on the first screen: {[b['box'] for b in drawings][:2]}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ringsim", required=True)
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--finding", action="append", default=[], help="text one of the findings must hold")
    parser.add_argument("--expect-lines", action="append", default=[], metavar="'CASE=CHANNELSxNODES'")
    parser.add_argument("--nics", type=int, default=1, help="NICs per node, each drawn")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="ringsim-nccl-report-") as scratch:
        results, page_file = os.path.join(scratch, "r.json"), os.path.join(scratch, "r.html")
        for command in ([args.ringsim, "run", args.scenario, "--json", results, "--quiet"],
                        [args.ringsim, "report", results, "-o", page_file]):
            made = subprocess.run(command, capture_output=True, text=True)
            if made.returncode != 0:
                print(f"FAIL: {' '.join(command[1:3])} exited {made.returncode}: {made.stderr.strip()}")
                return 1
        with open(page_file) as f:
            problems = check_page(f.read(), args)
        screen = check_first_screen(page_file, scratch)
    for problem in problems + (screen or []):
        print(f"FAIL: {problem}")
    if screen is None and not problems:
        print("SKIP: chromium is not installed (tools/bootstrap.sh installs it)")
        return 77
    if problems or screen:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
