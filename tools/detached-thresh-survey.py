#!/usr/bin/env python3
"""Which allreduce algorithms are safe, and unchanged, with smpi/send-is-detached-thresh:0?

Below that threshold (64 KiB by default) SMPI copies every send into a detached buffer so that MPI_Send
returns at once; at 0, MPI_Send waits for its matching receive (rendezvous), which deadlocks an
algorithm that sends before its peer posts the receive. This runs every algorithm of the catalog for
N = 1..17 and 64 ranks at several sizes, once with SMPI's default and once with the threshold at 0
(through the scenario's raw "simgrid" settings), and prints per algorithm: finished, #wrong and whether
every simulated time is byte-identical.

usage: tools/detached-thresh-survey.py [--ringsim build/ringsim] [--jobs 2] [--keep DIR]
Measured (SimGrid 3.32): every algorithm finishes with #wrong = 0, and the simulated time differs in
59 to 68 of each algorithm's 72 cases (every case with a message below 64 KiB); docs/engines.md, "Speed: SMPI's levers".
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLACEMENTS = ["1", "2", "1-1-1", "2-2", {"ranks": "2-2-1", "order": "cyclic"}, "3-3", "4-3",
              {"ranks": "4-3-1", "order": "cyclic"}, "3-3-3", "4-4-2", "4-4-3", "4-4-4",
              {"ranks": "4-4-4-1", "order": "cyclic"}, "4-4-4-2", "4-4-4-3", "4-4-4-4",
              {"ranks": "4-4-4-4-1", "order": "cyclic"}, "-".join(["4"] * 16)]
SIZES = [4, 4036, 262148, "64MiB"]


def algorithms():
    text = open(os.path.join(ROOT, "sim/rank/algorithm_catalog.h")).read()
    return [line.split('"')[1] for line in text.splitlines() if "AlgorithmInfo{.name = " in line]


def run(ringsim, work, name, algorithm, model, jobs):
    """The results rows of ALGORITHM over every placement and size, or None and ringsim's stderr."""
    topology = os.path.join(work, "topology.json")
    json.dump({"racks": [{"nodes": [{"name": "n", "count": 16, "gpus": 4}]}]}, open(topology, "w"))
    scenario = os.path.join(work, f"{name}-{algorithm}.json")
    json.dump({"name": name, "topology": topology, "placements": PLACEMENTS, "algorithms": [algorithm],
               "sizes": SIZES, "iterations": 1, "warmup": 0, "model": model}, open(scenario, "w"))
    results = os.path.join(work, f"{name}-{algorithm}-results.json")
    done = subprocess.run([ringsim, "run", scenario, "--quiet", "--jobs", str(jobs), "--json", results,
                           "--out", os.path.join(work, f"{name}-{algorithm}")], capture_output=True,
                          text=True, timeout=1800)
    if done.returncode != 0 or not os.path.exists(results):
        return None, done.stderr
    return json.load(open(results))["results"], done.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ringsim", default=os.path.join(ROOT, "build/ringsim"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="work directory to keep (default: a temporary one)")
    options = parser.parse_args()
    work = options.keep or tempfile.mkdtemp(prefix="ringsim-detached-")
    os.makedirs(work, exist_ok=True)
    key = lambda row: (row["placement"], row.get("order"), row["bytes"])
    print(f"{'algorithm':22} {'rows':>5} {'wrong':>6} {'time differs':>13}  largest difference", flush=True)
    for algorithm in algorithms():
        default, errors = run(options.ringsim, work, "default", algorithm, {}, options.jobs)
        if default is None:
            print(f"{algorithm:22} the default run failed:\n{errors[-1500:]}", flush=True)
            continue
        rows, errors = run(options.ringsim, work, "rendezvous", algorithm,
                           {"simgrid": {"smpi/send-is-detached-thresh": "0"}}, options.jobs)
        if rows is None:
            print(f"{algorithm:22} FAILED under threshold 0:\n{errors[-1500:]}", flush=True)
            continue
        reference = {key(row): row for row in default}
        wrong = sum(1 for row in rows if row.get("wrong") not in (0, None))
        differs = [(row, reference[key(row)]) for row in rows if row["time_s"] != reference[key(row)]["time_s"]]
        worst = max((abs(a["time_s"] - b["time_s"]) / b["time_s"], a["ranks"], a["bytes"]) for a, b in differs) \
            if differs else None
        print(f"{algorithm:22} {len(rows):5} {wrong:6} {len(differs):13}  "
              + (f"{worst[0]:.3%} (N={worst[1]}, {worst[2]} B)" if worst else "-"), flush=True)


if __name__ == "__main__":
    main()
