#!/usr/bin/env python3
"""Every shipped scenario either runs under `ringsim run` or says, in one line, how to run it.

Usage: every_scenario_runs.py RINGSIM SCENARIOS_DIR

A scenario with placements is run at its smallest size, one iteration and no warm-up (a copy with
those three keys changed and its topology made absolute), and must print a table row at that size.
A validation scenario (no placements) must exit 2 with one line naming `ringsim validate FILE
--measured TRACE`, TRACE an existing file; a sweep file must name `ringsim sweep plan FILE`, and that
command must succeed."""
import json
import os
import re
import subprocess
import sys
import tempfile


def smallest_size(sizes):
    return sizes["from"] if isinstance(sizes, dict) else sizes[0]


def run(ringsim, args, cwd):
    return subprocess.run([ringsim] + args, cwd=cwd, capture_output=True, text=True, timeout=600)


def check_runs(ringsim, path, scenario, scratch):
    reduced = dict(scenario)
    reduced["sizes"] = [smallest_size(scenario["sizes"])]
    reduced["iterations"], reduced["warmup"] = 1, 0
    reduced["topology"] = os.path.normpath(os.path.join(os.path.dirname(path), scenario["topology"]))
    copy = os.path.join(scratch, os.path.basename(path))
    with open(copy, "w") as out:
        json.dump(reduced, out)
    result = run(ringsim, ["run", copy, "--quiet", "--jobs", "2"], scratch)
    if result.returncode != 0:
        return f"exit {result.returncode}: {result.stderr.strip()}"
    if not re.search(r"^ +\d+ +\d+ +float ", result.stdout, re.M):
        return "no table row in the output"
    return None


def check_says_how(ringsim, path, root):
    result = run(ringsim, ["run", path], root)
    lines = result.stderr.strip().split("\n")
    if result.returncode != 2 or len(lines) != 1:
        return f"expected exit 2 and one line, got exit {result.returncode}: {result.stderr.strip()}"
    validate = re.search(r"run: ringsim validate (\S+) --measured (\S+)$", lines[0])
    if validate:
        if validate.group(1) != path or not os.path.isfile(os.path.join(root, validate.group(2))):
            return f"the command names a missing file: {lines[0]}"
        return None
    sweep = re.search(r"run: ringsim sweep plan (\S+) ", lines[0])
    if sweep:
        plan = run(ringsim, ["sweep", "plan", sweep.group(1)], root)
        return None if plan.returncode == 0 else f"ringsim sweep plan failed: {plan.stderr.strip()}"
    return f"no command in: {lines[0]}"


def main():
    ringsim, scenarios = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    root = os.path.dirname(scenarios)
    failures, checked = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for folder, _, files in sorted(os.walk(scenarios)):
            for name in sorted(f for f in files if f.endswith(".json")):
                path = os.path.relpath(os.path.join(folder, name), root)
                with open(os.path.join(root, path)) as f:
                    scenario = json.load(f)
                sweep = "model_axes" in scenario or any(isinstance(p, dict) and "ranks" not in p
                                                        for p in scenario.get("placements", []))
                runnable = "placements" in scenario and not sweep
                problem = check_runs(ringsim, os.path.join(root, path), scenario, scratch) if runnable \
                    else check_says_how(ringsim, path, root)
                checked += 1
                print(f"{'FAIL' if problem else 'ok'}: {path}{': ' + problem if problem else ''}")
                if problem:
                    failures.append(path)
    print(f"{checked} scenarios, {len(failures)} failed")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
