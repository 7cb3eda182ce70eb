#!/usr/bin/env python3
"""ringsim validate --explain recovers a known cause from synthetic logs.

For each mechanism (half the NICs, GDR off, 2 channels, a 2:1 switch) a small case (2 nodes of 4 GPUs,
nccl_ring, a few sizes) is simulated with that mechanism on; its times, with a fixed-seed noise of
+-3%, are written as an nccl-tests log; `ringsim validate --explain` on the hardware as described must
name that mechanism. Exit status 1 naming each log diagnosed otherwise.
"""
import argparse
import copy
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

NOISE = 0.03
SEED = 7
SIZES = [4096, 65536, 1048576, 16777216, 134217728]

TOPOLOGY = {
    "name": "diagnosis-pair",
    "description": "2 nodes of 4 GPUs on NVLink, 4 InfiniBand NICs of 400 Gbit/s each (the NICs bind), one non-blocking switch",
    "racks": [{"name": "rack0", "nodes": [{
        "name": "node", "count": 2, "gpus": 4, "nics": 4, "nic_transport": "ib", "gpu_model": "A100-SXM4-40GB",
        "nic": {"bandwidth": "400Gbps", "latency": "1us"},
        "intra": {"kind": "nvlink", "latency": "0.5us"}}]}],
}

# The NICs NCCL lists: the logs of the runs whose NICs are all in use state them, as real logs do.
FOUR_NICS = "node0:1001:1001 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB ; OOB eth0:192.0.2.10<0>"

# name -> (topology change, model keys, INFO lines the log carries)
MECHANISMS = {
    "half the NICs": (lambda node, rack: node.update(nics=2), {}, []),
    "GDR off": (lambda node, rack: node.update(gdr=False), {}, [FOUR_NICS]),
    "2 channels": (lambda node, rack: None, {"nccl": {"channels": 2}}, [FOUR_NICS]),
    "2:1 switch": (lambda node, rack: rack.update({"switch": {"bandwidth": "1600Gbps", "latency": "1us"}}), {}, [FOUR_NICS]),
}


def scenario(topology_file, model):
    document = {"name": "diagnosis-pair", "topology": str(topology_file), "algorithms": ["nccl_ring"],
                "placements": ["4-4"], "sizes": SIZES, "iterations": 1, "warmup": 0}
    if model:
        document["model"] = model
    return document


def write_json(path, value):
    path.write_text(json.dumps(value, indent=1) + "\n")
    return path


def nccl_tests_log(times_s, info_lines, rng):
    lines = ["# nThread 1 nGpus 1 minBytes 4096 maxBytes 134217728 step: 16(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0",
             "#", "# Using devices"]
    for rank in range(8):
        lines.append(f"#  Rank {rank:2d} Group  0 Pid {1001 + rank:6d} on {'node' + str(rank // 4):>10} device {rank % 4:2d} [0x{7 + rank % 4:02x}] NVIDIA A100-SXM4-40GB")
    lines += info_lines
    lines += ["#", "#                                                              out-of-place                       in-place          ",
              "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
              "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       "]
    for size in SIZES:
        us = [times_s[size] * 1e6 * (1 + rng.uniform(-NOISE, NOISE)) for _ in range(2)]
        algbw = [size / (t * 1e3) for t in us]
        busbw = [b * 2 * 7 / 8 for b in algbw]
        lines.append(f"{size:>12} {size // 4:>13}     float     sum      -1 {us[0]:8.2f} {algbw[0]:7.2f} {busbw[0]:7.2f}      0 "
                     f"{us[1]:8.2f} {algbw[1]:7.2f} {busbw[1]:7.2f}      0")
    lines += ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 1.0", "#"]
    return "\n".join(lines) + "\n"


def simulate(ringsim, work, name, change, model, jobs):
    topology = copy.deepcopy(TOPOLOGY)
    rack = topology["racks"][0]
    change(rack["nodes"][0], rack)
    slug = name.replace(" ", "-").replace(":", "to")
    topology_file = write_json(work / f"{slug}-topology.json", topology)
    scenario_file = write_json(work / f"{slug}-scenario.json", scenario(topology_file, model))
    results = work / f"{slug}-results.json"
    subprocess.run([ringsim, "run", str(scenario_file), "--json", str(results), "--jobs", str(jobs), "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    rows = json.loads(results.read_text())["results"]
    return slug, {row["bytes"]: row["time_s"] for row in rows}


def diagnose(ringsim, work, slug, log_text, jobs):
    hardware = write_json(work / "hardware-topology.json", TOPOLOGY)
    base = scenario(hardware, {})
    del base["placements"]
    scenario_file = write_json(work / "hardware-scenario.json", base)
    log = work / f"{slug}.txt"
    log.write_text(log_text)
    out = work / f"{slug}-diagnosis.json"
    run = subprocess.run([ringsim, "validate", str(scenario_file), "--measured", str(log), "--explain", "--json", str(out),
                          "--jobs", str(jobs), "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1) or not out.exists():
        sys.exit(f"{log}: ringsim validate --explain failed ({run.returncode}): {run.stderr.strip()}")
    return json.loads(out.read_text())["diagnosis"], run.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ringsim", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", help="write the files here instead of a temporary folder")
    parser.add_argument("--only", help="one mechanism's name")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(args.keep or temporary)
        work.mkdir(parents=True, exist_ok=True)
        wrong = []
        for name, (change, model, info_lines) in MECHANISMS.items():
            if args.only and args.only != name:
                continue
            slug, times = simulate(args.ringsim, work, name, change, model, args.jobs)
            diagnosis, text = diagnose(args.ringsim, work, slug, nccl_tests_log(times, info_lines, random.Random(f"{SEED} {name}")), args.jobs)
            ranking = ", ".join(f"{row['candidate']} {row['score'] * 100:.1f}%" for row in diagnosis["ranking"])
            print(f"{name}: explained by {diagnosis['explained_by']} ({ranking})")
            if diagnosis["explained_by"] != name:
                wrong.append(f"{name}: diagnosed as {diagnosis['explained_by']}\n{text}")
        if wrong:
            sys.exit("\n".join(wrong))


if __name__ == "__main__":
    main()
