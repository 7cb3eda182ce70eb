#!/usr/bin/env python3
"""ringsim validate --explain on a corpus log whose NCCL INFO lines state its NICs, GDR and channels,
diagnosed with those lines removed: the diagnosis must agree with what the lines state.

The stripped copy (and, with --every, only every N-th size row from --from-bytes to --to-bytes) is written to a
temporary folder at test time; with --drop-gdr, so are copies of the scenario and its topology without the
nodes' "gdr" key (a topology written without the log's knowledge: GPUDirect RDMA by default). Agreement: where the lines state a mechanism the hardware as described
lacks (fewer NICs in use than the topology has, no /GDRDMA on a topology with GPUDirect RDMA, 2
channels), the diagnosis names it; where they state none, it names none of the three (the lines cannot
contradict a switch or a per-call cost). Prints one line; exit status 1 when they disagree.

With --expect-within P, the explaining candidate applied must also bring the log within P (median
|error| over its sizes); a rate ceiling must be the median of nccl-tests' out-of-place busbw over the
three largest sizes, within 1%.
"""
import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The INFO lines that state the NICs in use, GPUDirect RDMA and the channels.
STATING = re.compile(r"NCCL INFO (NET/\S+ : Using|.*via NET/|Channel \d+/\d+ :|.*GDR|.*NCHANNELS|.*found \d+ nics)")
# A size row, after the launcher's prefix where mpirun adds one ("[1,0]<stdout>:"), with or without
# the root column of nccl-tests from 2.10.
SIZE_ROW = re.compile(r"^(?:\[[\d,]+\]<\w+>:)?\s*(\d+)\s+\d+\s+\w+\s+\w+\s")  # size, count, type, redop
# The same row's out-of-place time, algbw and busbw (after the root column where there is one).
BUSBW = re.compile(r"^(?:\[[\d,]+\]<\w+>:)?\s*\d+\s+\d+\s+\w+\s+\w+\s+(?:-?\d+\s+)?[\d.]+\s+[\d.]+\s+([\d.]+)\s")


def stated_facts(lines):
    devices, gdr, channels = set(), None, None
    for line in lines:
        hop = re.search(r"via NET/[^/\s]+(?: [^/\s]+)*/(\d+)(/GDRDMA)?", line)
        if hop:
            devices.add(int(hop.group(1)))
            gdr = bool(gdr) or bool(hop.group(2))
        listed = re.search(r"NCCL INFO Channel \d+/(\d+) :", line)
        if listed and "via" not in line:
            channels = int(listed.group(1))
    return {"nics_in_use": len(devices) or None, "gdr": gdr, "channels": channels}


def stripped(lines, from_bytes, to_bytes, every):
    kept, seen = [], 0
    for line in lines:
        if STATING.search(line):
            continue
        size = SIZE_ROW.match(line)
        if size and from_bytes <= int(size.group(1)) <= to_bytes:
            seen += 1
            if (seen - 1) % every:
                continue
        elif size:
            continue
        kept.append(line)
    return kept


def largest_busbw(lines):
    """The median of nccl-tests' out-of-place busbw (GB/s) over the three largest of LINES' size rows."""
    rows = sorted((int(SIZE_ROW.match(line).group(1)), float(BUSBW.match(line).group(1)))
                  for line in lines if SIZE_ROW.match(line) and BUSBW.match(line))
    return statistics.median(busbw for _, busbw in rows[-3:])


def applied_errors(named, fit, within, log_busbw):
    """Why FIT, the explaining candidate NAMED applied, fails --expect-within, or None. LOG_BUSBW:
    largest_busbw of the log, for a rate ceiling."""
    if fit is None:
        return "no candidate explains the run"
    if fit["median_abs_error"] > within:
        return f"{named} applied leaves a median |error| of {fit['median_abs_error'] * 100:.1f}%"
    if "busbw_ceiling_Bps" in fit and abs(fit["busbw_ceiling_Bps"] / 1e9 / log_busbw - 1) > 0.01:
        return f"the ceiling {fit['busbw_ceiling_Bps'] / 1e9:.2f} GB/s is not the log's {log_busbw:.2f} GB/s"
    return None


def without_gdr(scenario_file, work):
    scenario = json.loads(scenario_file.read_text())
    topology_file = (scenario_file.parent / scenario["topology"]).resolve()
    topology = json.loads(topology_file.read_text())
    for rack in topology["racks"]:
        for node in rack["nodes"]:
            node.pop("gdr", None)
    (work / topology_file.name).write_text(json.dumps(topology))
    scenario["topology"] = str(work / topology_file.name)
    (work / scenario_file.name).write_text(json.dumps(scenario))
    return work / scenario_file.name


def expected(facts, diagnosis, topology_nics):
    """The mechanisms the stated lines confirm, of those the diagnosis could simulate."""
    left_out = {row["candidate"] for row in diagnosis["left_out"] if not row["applicable"]}
    stated = set()
    if facts["nics_in_use"] and facts["nics_in_use"] * 2 <= topology_nics:
        stated.add("half the NICs")
    if facts["gdr"] is False:
        stated.add("GDR off")
    if facts["channels"] is not None and facts["channels"] <= 2:
        stated.add("2 channels")
    return stated - left_out


def children_cpu_s():
    """User + sys time of the finished child processes (ringsim and its runners)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ringsim", required=True)
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--nics", type=int, required=True, help="the topology's NICs per node")
    parser.add_argument("--from-bytes", type=int, default=0, help="size rows below are dropped")
    parser.add_argument("--to-bytes", type=int, default=1 << 62, help="size rows above are dropped")
    parser.add_argument("--every", type=int, default=1, help="keep every N-th size row")
    parser.add_argument("--drop-gdr", action="store_true", help="simulate on the topology without its nodes' \"gdr\" key")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-plain", action="store_true", help="also time plain validation of the stripped log")
    parser.add_argument("--expect-within", type=float, help="the explaining candidate applied leaves at most this median |error| (0.15: 15%%)")
    args = parser.parse_args()
    lines = Path(args.log).read_text().splitlines()
    facts = stated_facts(lines)
    with tempfile.TemporaryDirectory() as work:
        log = Path(work) / Path(args.log).name
        kept = stripped(lines, args.from_bytes, args.to_bytes, args.every)
        log.write_text("\n".join(kept) + "\n")
        out = Path(work) / "diagnosis.json"
        scenario = without_gdr(Path(args.scenario), Path(work)) if args.drop_gdr else args.scenario
        command = [args.ringsim, "validate", str(scenario), "--measured", str(log), "--jobs", str(args.jobs), "--quiet"]
        plain_s = plain_cpu_s = None
        if args.time_plain:
            start, cpu = time.monotonic(), children_cpu_s()
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            plain_s, plain_cpu_s = time.monotonic() - start, children_cpu_s() - cpu
        start, cpu = time.monotonic(), children_cpu_s()
        run = subprocess.run(command + ["--explain", "--json", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        explain_s, explain_cpu_s = time.monotonic() - start, children_cpu_s() - cpu
        if run.returncode not in (0, 1) or not out.exists():
            sys.exit(f"{args.log}: ringsim validate --explain failed ({run.returncode}): {run.stderr.strip()}")
        diagnosis = json.loads(out.read_text())["diagnosis"]
    want = expected(facts, diagnosis, args.nics)
    named = diagnosis["explained_by"]
    agrees = named in want if want else named not in ("half the NICs", "GDR off", "2 channels")
    ranking = ", ".join(f"{row['candidate']} {row['score'] * 100:.1f}%" for row in diagnosis["ranking"])
    print(f"{Path(args.log).name}: lines state {facts}; diagnosed {named} ({ranking}); "
          f"{'agrees' if agrees else 'disagrees'} (expected {sorted(want) or 'none of NICs, GDR, channels'}); "
          f"--explain {explain_s:.1f} s wall, {explain_cpu_s:.1f} s CPU"
          + (f"; plain validation {plain_s:.1f} s wall ({explain_s / plain_s:.2f}x), {plain_cpu_s:.1f} s CPU"
             f" ({explain_cpu_s / plain_cpu_s:.2f}x)" if plain_s else ""))
    if not agrees:
        sys.exit(1)
    if args.expect_within is not None:
        fit = next((row for row in diagnosis["ranking"] if row["candidate"] == named), None)
        log_busbw = largest_busbw(kept) if fit and "busbw_ceiling_Bps" in fit else None
        failure = applied_errors(named, fit, args.expect_within, log_busbw)
        if fit:
            print(f"applied, {named} leaves a median |error| of {fit['median_abs_error'] * 100:.1f}% over the sizes"
                  + (f"; ceiling {fit['busbw_ceiling_Bps'] / 1e9:.2f} GB/s against the log's {log_busbw:.2f} GB/s"
                     if log_busbw else ""))
        if failure:
            sys.exit(f"{Path(args.log).name}: {failure} (--expect-within {args.expect_within})")


if __name__ == "__main__":
    main()
