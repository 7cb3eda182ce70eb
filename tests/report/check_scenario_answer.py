#!/usr/bin/env python3
"""The report of a scenario that compares one algorithm across placements answers its question.

Runs the scenario with `ringsim run --json`, makes its page with `ringsim report` (no --topology: the
topology comes from the results), and checks:
  * every case's bottleneck is named in the answer's table, and each case's ring is drawn per variant,
    its red hops as many as the ring edges the bottleneck names;
  * with --expect-edges CASE=N: under the first variant the busiest link direction of CASE carries N ring
    edges, which is also N ring edges leaving or entering one node counted from the placement here;
  * with --first-screen: in headless Chromium at 1280 x 1200 the question, the answer sentence naming
    --answer, and the chart with every case's name are on the first screen (read from the DOM's
    positions); the screenshot is saved to --screenshot for a person to look at.
Exit 0 pass, 1 fail, 77 skipped (no chromium, for the --first-screen part only).
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
from check_report_renders import find_chromium, ink, read_png_rgb  # noqa: E402

SCREEN = (1280, 1200)
FLAGS = ["--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", f"--window-size={SCREEN[0]},{SCREEN[1]}",
         "--virtual-time-budget=20000"]


def hosts_of(placement, order):
    """Node of each rank: block fills node after node; cyclic deals ranks round-robin over the nodes
    with free slots (the project's definition, docs/scenario-format.md "Placements")."""
    counts = [int(c) for c in placement.split("-")]
    if order == "block":
        return [node for node, count in enumerate(counts) for _ in range(count)]
    left, nodes = list(counts), []
    while any(left):
        for node, count in enumerate(left):
            if count:
                nodes.append(node)
                left[node] -= 1
    return nodes


def busiest_nic_edges(placement, order):
    """The most ring edges leaving one node or entering one node: what its NIC carries one way."""
    nodes = hosts_of(placement, order)
    out, into = {}, {}
    for r, node in enumerate(nodes):
        following = nodes[(r + 1) % len(nodes)]
        if following != node:
            out[node] = out.get(node, 0) + 1
            into[following] = into.get(following, 0) + 1
    return max(list(out.values()) + list(into.values()) + [0])


def answer_table(page):
    """Rows (case, variant, time, ratio, bottleneck) of the table under the answer's chart."""
    section = page[page.index('id="plot-answer"'):]
    table = section[:section.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>"):], re.S)
    return [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]


def drawings(page):
    """Per drawn ring: (case heading, variant caption, red hops, ring edges in its legend)."""
    found = []
    for case_html in page.split('<div class="ring-case">')[1:]:
        case = html.unescape(re.search(r"<h3[^>]*>(.*?)</h3>", case_html).group(1))
        for figure in re.findall(r"<figure>(.*?)</figure>", case_html, re.S):
            red = figure.count('marker-end="url(#') - figure.count('-hop)"')
            legend = int(re.search(r": (\d+) ring edges? — the busiest", figure).group(1))
            caption = html.unescape(re.search(r"<figcaption>(.*?)</figcaption>", figure, re.S).group(1))
            found.append((case, re.sub(r"<[^>]+>", "", caption), red, legend))
    return found


def check_page(page, args):
    problems = []
    rows = answer_table(page)
    cases = sorted({row[0] for row in rows})
    if not rows:
        return ["the answer's table has no rows"]
    for row in rows:
        if row[-1] in ("", "-"):
            problems.append(f"{row[0]} [{row[1]}]: no bottleneck named")
    pictures = drawings(page)
    if len(pictures) != len(rows):
        problems.append(f"{len(pictures)} rings drawn, expected one per case and variant ({len(rows)})")
    for case, caption, red, legend in pictures:
        named = re.search(r"(\d+) ring edges?", caption)
        if red != legend or not named or int(named.group(1)) != legend:
            problems.append(f"{case} ({caption}): {red} red hops, legend {legend}, caption {named and named.group(1)}")
    first_variant = rows[0][1]
    for expectation in args.expect_edges:
        case, edges = expectation.rsplit("=", 1)
        placement, order = case.split()
        counted = busiest_nic_edges(placement, order)
        drawn = [legend for name, caption, _, legend in pictures
                 if name == case and (first_variant == "-" or caption.startswith(first_variant + ":"))]
        if counted != int(edges):
            problems.append(f"{case}: the placement puts {counted} ring edges on one NIC, expected {edges}")
        if drawn[:1] != [int(edges)]:
            problems.append(f"{case}: the drawing's busiest link carries {drawn[:1]} ring edges, expected {edges}")
        ratio = next(float(r[3].rstrip("x")) for r in rows if r[0] == case and r[1] == first_variant)
        if abs(ratio - int(edges) / counted_reference(args, rows)) > 0.05 * ratio:
            problems.append(f"{case}: {ratio:.2f}x the reference, expected {edges} ring edges' share")
    print(f"{len(cases)} cases, {len(rows)} bottlenecks named, {len(pictures)} rings drawn")
    return problems


def counted_reference(args, rows):
    placement, order = rows[0][0].split()
    return busiest_nic_edges(placement, order)


def check_first_screen(page_file, args, scratch):
    chromium = find_chromium()
    if chromium is None:
        return None
    flags = FLAGS + ([] if os.geteuid() != 0 else ["--no-sandbox"])
    url = "file://" + page_file
    dom = subprocess.run([chromium, *flags, f"--user-data-dir={scratch}/p1", "--dump-dom", url],
                         capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="ringsim-render-status"[^>]*>(.*?)</pre>', dom, re.S)
    if not found or not found.group(1).strip():
        return ["the page's script never recorded its status"]
    status = json.loads(html.unescape(found.group(1)))
    problems = [f"page error: {e}" for e in status["errors"]]
    bottom = lambda box: box[1] + box[3]  # noqa: E731
    question = status["boxes"].get("lead-question")
    if not question or bottom(question["box"]) > SCREEN[1]:
        problems.append(f"the question is not on the first screen: {question and question['box']}")
    answers = [b for key, b in status["boxes"].items() if key.startswith("lead-answer") and args.answer in b["text"]]
    if not answers or bottom(answers[0]["box"]) > SCREEN[1]:
        problems.append(f"no answer about {args.answer!r} on the first screen: {answers[:1]}")
    plot = status["plots"].get("plot-answer")
    if not plot or plot["drawn"] != plot["expected"]:
        problems.append(f"the answer's chart is not drawn: {plot and (plot['drawn'], plot['expected'])}")
    else:
        on_screen = {t["text"] for t in plot["xticks"] if 0 < bottom(t["box"]) <= SCREEN[1] and t["box"][0] < SCREEN[0]}
        for case in args.case:
            if case not in on_screen:
                problems.append(f"{case} is not named under the chart on the first screen (names: {sorted(on_screen)})")
        if bottom(plot["box"]) > SCREEN[1]:
            problems.append(f"the chart ends below the first screen: {plot['box']}")
    shot = os.path.abspath(args.screenshot)
    subprocess.run([chromium, *flags, f"--user-data-dir={scratch}/p2", f"--screenshot={shot}", url],
                   capture_output=True, text=True, timeout=120)
    if not os.path.exists(shot):
        return problems + ["Chromium wrote no screenshot"]
    if plot:
        colours, inked = ink(read_png_rgb(shot), plot["box"])
        if colours < 16 or inked < 0.02:
            problems.append(f"the chart is blank in the screenshot ({colours} colours, {inked:.1%} inked)")
    print(f"screenshot: {shot}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ringsim", required=True)
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--expect-edges", action="append", default=[], metavar="'PLACEMENT ORDER=N'")
    parser.add_argument("--first-screen", action="store_true")
    parser.add_argument("--answer", default="", help="words of the answer sentence that must be on the first screen")
    parser.add_argument("--case", action="append", default=[], help="a case name the chart must show")
    parser.add_argument("--screenshot", default="report-first-screen.png")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="ringsim-answer-check-") as scratch:
        results, page_file = os.path.join(scratch, "r.json"), os.path.join(scratch, "r.html")
        run = subprocess.run([args.ringsim, "run", args.scenario, "--json", results, "--quiet"], capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL: ringsim run exited {run.returncode}: {run.stderr.strip()}")
            return 1
        made = subprocess.run([args.ringsim, "report", results, "-o", page_file], capture_output=True, text=True)
        if made.returncode != 0:
            print(f"FAIL: ringsim report exited {made.returncode}: {made.stderr.strip()}")
            return 1
        with open(page_file) as f:
            page = f.read()
        problems = check_page(page, args)
        if args.first_screen:
            screen = check_first_screen(page_file, args, scratch)
            if screen is None:
                print("SKIP: chromium is not installed (tools/bootstrap.sh installs it)")
                return 77 if not problems else 1
            problems += screen
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
