#!/usr/bin/env python3
"""Headless-Chromium check of `ringsim report`: the page of a results fixture draws every plot.

Makes the page, loads it in headless Chromium twice -- once dumping the DOM after the page's script
has recorded what it drew (#ringsim-render-status), once taking a screenshot -- and checks:
  * no JavaScript error (caught by the page, or printed on Chromium's console);
  * every plot named with --expect ID=N (or ID=N..M) has an SVG and all its N series drawn (N=0: left
    out, with a reason);
  * in the screenshot, the box of every drawn plot is not blank (many colours, enough ink); skipped with
    --dom-only.
With --expect-broken the page is made with a stub instead of Plotly.js, and the check must fail for that
reason: this proves the check can fail. Exit 0 pass, 1 fail, 77 skipped (no chromium installed).
"""
import argparse
import ctypes
import ctypes.util
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

WINDOW = (1100, 6000)
CHROMIUM_FLAGS = [
    "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
    f"--window-size={WINDOW[0]},{WINDOW[1]}", "--virtual-time-budget=20000",
]


def fail(message):
    print(f"FAIL: {message}")
    return 1


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_chromium(chromium, profile, extra, url):
    flags = CHROMIUM_FLAGS + [f"--user-data-dir={profile}"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return subprocess.run([chromium, *flags, *extra, url], capture_output=True, text=True, timeout=120)


def console_errors(stderr):
    """JavaScript errors Chromium printed from the page's console (not its own dbus/gpu noise)."""
    return [line for line in stderr.splitlines()
            if ":CONSOLE" in line and re.search(r"Uncaught|Error|error", line)]


class PngImage(ctypes.Structure):
    """libpng's png_image (png.h, the simplified reading API, version 1)."""
    _fields_ = [("opaque", ctypes.c_void_p), ("version", ctypes.c_uint32), ("width", ctypes.c_uint32),
                ("height", ctypes.c_uint32), ("format", ctypes.c_uint32), ("flags", ctypes.c_uint32),
                ("colormap_entries", ctypes.c_uint32), ("warning_or_error", ctypes.c_uint32),
                ("message", ctypes.c_char * 64)]


PNG_FORMAT_RGBA = 3  # png.h: PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA, 8 bits a channel


def read_png_rgb(path):
    """Rows of pixels, each one int of its 8-bit red, green, blue and alpha (255 on Chromium's RGB
    screenshots). Decoded by libpng: unfiltering a 1100 x 6000 screenshot in Python took 10 s of CPU."""
    png = ctypes.CDLL(ctypes.util.find_library("png16") or "libpng16.so.16")
    image = PngImage(version=1)
    if not png.png_image_begin_read_from_file(ctypes.byref(image), os.fsencode(path)):
        raise ValueError(f"{path}: not a PNG libpng reads: {image.message.decode()}")
    image.format = PNG_FORMAT_RGBA
    pixels = (ctypes.c_uint32 * (image.width * image.height))()
    if not png.png_image_finish_read(ctypes.byref(image), None, pixels, image.width * 4, None):
        raise ValueError(f"{path}: {image.message.decode()}")
    values = memoryview(pixels).cast("B").cast("I").tolist()
    return [values[y:y + image.width] for y in range(0, len(values), image.width)]


def ink(rows, box):
    """(distinct colours, fraction of pixels that are not the background) inside BOX (x, y, w, h)."""
    x0, y0, w, h = (int(round(v)) for v in box)
    pixels = [p for row in rows[y0:y0 + h] for p in row[x0:x0 + w]]
    if not pixels:
        return 0, 0.0
    background = max(set(pixels[:: max(1, len(pixels) // 2000)]), key=pixels.count)
    return len(set(pixels)), sum(p != background for p in pixels) / len(pixels)


def make_page(args, scratch):
    page = os.path.join(scratch, "report.html")
    env = dict(os.environ)
    if args.expect_broken:
        stub = os.path.join(scratch, "not-plotly.js")
        with open(stub, "w") as f:
            f.write("/* a stand-in for Plotly.js: defines nothing */\n")
        env["RINGSIM_PLOTLY_JS"] = stub
    command = [args.ringsim, "report"] + ([args.results] if args.results else []) + ["-o", page]
    if args.validation:
        command += ["--validation", args.validation]
    if args.timeline:
        command += ["--timeline", args.timeline]
    if args.topology:
        command += ["--topology", args.topology]
    made = subprocess.run(command, capture_output=True, text=True, env=env)
    if made.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {made.returncode}: {made.stderr.strip()}")
    return page


def check(args, chromium, scratch):
    """The list of problems found on the page (empty: it rendered as expected)."""
    page = make_page(args, scratch)
    url = "file://" + page
    dom_run = run_chromium(chromium, os.path.join(scratch, "profile-dom"), ["--dump-dom"], url)
    problems = [f"console: {line}" for line in console_errors(dom_run.stderr)]
    found = re.search(r'<pre id="ringsim-render-status"[^>]*>(.*?)</pre>', dom_run.stdout, re.S)
    if not found or not found.group(1).strip():
        return problems + ["the page's script never recorded its status (#ringsim-render-status is empty)"]
    status = json.loads(html.unescape(found.group(1)))
    problems += [f"page error: {error}" for error in status["errors"]]
    plots = status["plots"]
    for expectation in args.expect:
        plot_id, counts = expectation.split("=")
        low, _, high = counts.partition("..")
        low, high = int(low), int(high or low)
        if high == 0:
            if plot_id in plots:
                problems.append(f"{plot_id}: drawn, but expected to be left out")
            elif f'class="omitted" id="{plot_id}"' not in dom_run.stdout:
                problems.append(f"{plot_id}: neither drawn nor left out with a reason")
            continue
        plot = plots.get(plot_id)
        if plot is None:
            problems.append(f"{plot_id}: not drawn")
            continue
        if not plot["svg"]:
            problems.append(f"{plot_id}: no SVG of non-zero size")
        if plot["drawn"] != plot["expected"] or not low <= plot["drawn"] <= high:
            problems.append(f"{plot_id}: {plot['drawn']} of {plot['expected']} series drawn, expected {counts}")
    if problems or args.dom_only:
        return problems

    shot = os.path.join(scratch, "report.png")
    run_chromium(chromium, os.path.join(scratch, "profile-shot"), [f"--screenshot={shot}"], url)
    if not os.path.exists(shot):
        return ["Chromium wrote no screenshot"]
    rows = read_png_rgb(shot)
    colours, _ = ink(rows, (0, 0, len(rows[0]), len(rows)))
    if colours < 2:
        return ["the screenshot is one colour"]
    for plot_id, plot in plots.items():
        box = plot.get("box")
        if box is None or box[1] + box[3] > len(rows):
            problems.append(f"{plot_id}: outside the {WINDOW[1]}-pixel screenshot")
            continue
        colours, inked = ink(rows, box)
        print(f"{plot_id}: {plot['drawn']} series, {colours} colours, {inked:.1%} inked")
        if colours < 16 or inked < 0.01:
            problems.append(f"{plot_id}: blank in the screenshot ({colours} colours, {inked:.2%} inked)")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ringsim", required=True)
    parser.add_argument("--results", help="a results JSON (optional with --validation)")
    parser.add_argument("--validation", help="a `ringsim validate --explain --json` document, drawn first")
    parser.add_argument("--timeline")
    parser.add_argument("--topology")
    parser.add_argument("--expect", action="append", default=[], metavar="PLOT_ID=SERIES[..MAX]",
                        help="the plot draws SERIES series (or between SERIES and MAX); 0: it is left out")
    parser.add_argument("--expect-broken", action="store_true")
    parser.add_argument("--dom-only", action="store_true",
                        help="skip the screenshot's ink check (the slow part: decoding the PNG in Python)")
    args = parser.parse_args()
    if not args.results and not args.validation:
        parser.error("--results or --validation is required")

    chromium = find_chromium()
    if chromium is None:
        print("SKIP: chromium is not installed (tools/bootstrap.sh installs it; or apt-get install chromium)")
        return 77
    with tempfile.TemporaryDirectory(prefix="ringsim-report-check-") as scratch:
        problems = check(args, chromium, scratch)
    if args.expect_broken:
        if any("Plotly is not defined" in p for p in problems):
            print(f"PASS: without the library the check fails, as it must: {problems[0]}")
            return 0
        return fail(f"the check did not fail on a page without Plotly.js: {problems or 'no problem found'}")
    for problem in problems:
        print(f"FAIL: {problem}")
    if problems:
        return 1
    print(f"PASS: {len(args.expect)} plots as expected, no JavaScript error")
    return 0


if __name__ == "__main__":
    sys.exit(main())
