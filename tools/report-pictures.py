#!/usr/bin/env python3
"""Exports every plot of a `ringsim report` page as a PNG, through Plotly itself in headless Chromium.

usage: tools/report-pictures.py REPORT.html OUTDIR [--width 900] [--height 520 (plots that set none)]

Writes OUTDIR/<plot id>.png (e.g. plot-time-vs-ranks.png) for each plot the page drew. The page is
copied with a script appended that waits for the plots, calls Plotly.toImage on each and writes the
images into the DOM, which Chromium's --dump-dom prints. Used to make the pictures of docs/tutorial.md.
"""
import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

EXPORT = """
<script>
window.addEventListener('load', () => setTimeout(async () => {
  const out = {};
  for (const div of document.querySelectorAll('div.js-plotly-plot')) {
    // Stacked panels set their own height (one panel per N): keep it, or they squash into one.
    const height = (div.layout && div.layout.height) || %(height)d;
    out[div.id] = await Plotly.toImage(div, {format: 'png', width: %(width)d, height: height});
  }
  const pre = document.createElement('pre');
  pre.id = 'exported-images';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}, 500));
</script>
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("outdir")
    parser.add_argument("--width", type=int, default=900)
    parser.add_argument("--height", type=int, default=520)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("report-pictures: chromium is not installed (apt-get install chromium)")
    page = open(args.report, encoding="utf-8").read()
    page = page.replace("</body>", EXPORT % {"width": args.width, "height": args.height} + "</body>")
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "report.html")
        open(copy, "w", encoding="utf-8").write(page)
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
                              "--dump-dom", "file://" + copy], capture_output=True, text=True, timeout=120).stdout
    found = re.search(r'<pre id="exported-images">(.*?)</pre>', dom, re.S)
    if not found:
        sys.exit("report-pictures: the page exported no image (did its plots render?)")
    images = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    os.makedirs(args.outdir, exist_ok=True)
    for plot, url in images.items():
        path = os.path.join(args.outdir, plot + ".png")
        open(path, "wb").write(base64.b64decode(url.split(",", 1)[1]))
        print(path)


if __name__ == "__main__":
    main()
