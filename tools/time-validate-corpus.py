#!/usr/bin/env python3
"""Wall and CPU time of `ringsim validate` and `ringsim validate --explain` on every corpus log.

Each log runs with the scenario docs/corpus-validation.md names for it, one command at a time, and the
table printed is docs/performance.md's ("validate on the corpus: wall time per log"). CPU is user + sys
of ringsim and its runners (the children's rusage); load is /proc/loadavg's first figure at the start.

    python3 tools/time-validate-corpus.py --ringsim build/ringsim [--jobs 2] [--only SUBSTRING]
"""
import argparse
import os
import resource
import subprocess
import sys
import time

# (log under validate/traces/, scenario under scenarios/nccl/); a log of more nodes than its scenario's
# topology is refused in one line, and its row says so.
CORPUS = [
    ("nccl-corpus/a100pcie-1x2-info-midrow.txt", "a100pcie-nvlink"),
    ("nccl-corpus/aws-p4d-efa-2x8-info-prefixed.txt", "aws-p4d-efa"),
    ("nccl-corpus/aws-p4d-efa-2x8-info-prefixed-nccl2.8.txt", "aws-p4d-efa"),
    ("nccl-corpus/aws-p5-efa-2x8-info-tagged.txt", "aws-p5-efa"),
    ("nccl-corpus/aws-p5-efa-2x8-info-tagged-nccl2.20.txt", "aws-p5-efa"),
    ("nccl-corpus/dgxh200-2x8-socket-ring.txt", "dgx-h200-socket-nccl_ring"),
    ("nccl-corpus/gcp-a3mega-h100-2x8.txt", "gcp-a3mega"),
    ("nccl-corpus/gcp-a3mega-h100-2x8-pasted-markdown.txt", "gcp-a3mega"),
    ("nccl-corpus/h100-10x1-suite.txt", "h100-rails-nccl_ring"),
    ("nccl-corpus/h100-10x2-suite.txt", "h100-rails-nccl_ring"),
    ("nccl-corpus/h100-10x4-suite.txt", "h100-rails-nccl_ring"),
    ("nccl-corpus/h100-10x8-suite.txt", "h100-rails-nccl_ring"),
    ("nccl-corpus/h100-1x8-suite.txt", "h100-rails-nccl_ring"),
    ("nccl-corpus/hkbu-100gib-16x1-info.txt", "hkbu-100GbIB"),
    ("nccl-corpus/hkbu-100gib-8x4-info.txt", "hkbu-100GbIB"),
    ("nccl-corpus/l40s-2x1-socket-ring.txt", "l40s-socket-nccl_ring"),
    ("nccl-corpus/l40s-roce-2x2-ring.txt", "l40s-roce-nccl_ring"),
    ("nccl-corpus/moc-h100-roce-2x1-ring-25gib.txt", "moc-h100-roce-nccl_ring"),
    ("nccl-corpus/oci-a100-1x8-10gib-ngc.txt", "oci-a100-roce"),
    ("nccl-corpus/oci-a100-1x8-10gib.txt", "oci-a100-roce"),
    ("nccl-corpus/oci-a100-roce-2x8-10gib-ngc.txt", "oci-a100-roce"),
    ("nccl-corpus/oci-a100-roce-2x8-10gib.txt", "oci-a100-roce"),
    ("nccl-corpus/superbench-dgxa100-1x8-allreduce.txt", "dgx-a100-1x8"),
    ("nccl/hkbu-100gib-8x4-auto.txt", "hkbu-100GbIB"),
    ("nccl/hkbu-100gib-8x4-auto-run2.txt", "hkbu-100GbIB"),
    ("nccl/hkbu-100gib-8x4-ring.txt", "hkbu-100GbIB-nccl_ring"),
    ("nccl/hkbu-10g-16x1-auto.txt", "hkbu-10GbE"),
    ("nccl/hkbu-10g-8x4-auto-run1.txt", "hkbu-10GbE"),
    ("nccl/hkbu-10g-8x4-auto-run2.txt", "hkbu-10GbE"),
    ("nccl/hkbu-10g-8x4-ring.txt", "hkbu-10GbE-nccl_ring"),
]


def timed(cmd, timeout):
    """(wall s, CPU s of the children, exit code, last stderr line) of CMD."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=timeout)
        code, err = proc.returncode, proc.stderr.strip().splitlines()
    except subprocess.TimeoutExpired:
        code, err = None, [f"stopped after {timeout} s"]
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code, (err[-1] if err else "")


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ringsim", default="build/ringsim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="only logs whose path contains this")
    ap.add_argument("--timeout", type=int, default=900)
    args = ap.parse_args()
    print("| log | scenario | validate wall s | CPU s | load | `--explain` wall s | CPU s | load | ratio wall |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for log, scenario in CORPUS:
        if args.only not in log:
            continue
        base = [args.ringsim, "validate", f"scenarios/nccl/{scenario}.json", "--measured",
                f"validate/traces/{log}", "--jobs", str(args.jobs), "--quiet"]
        # A suite log is validated whole (every collective) as users run it; --explain diagnoses one
        # run, so both are then timed again on its all_reduce_perf run alone.
        if log.endswith("-suite.txt"):
            l0 = load()
            wall, cpu, code, _ = timed(base, args.timeout)
            stopped = " (stopped)" if code is None else ""
            print(f"| `{log}`, every collective{stopped} | `{scenario}` | {wall:.1f} | {cpu:.1f} | {l0:.2f} | — | — | — | — |", flush=True)
            base += ["--collective", "all_reduce_perf"]
            log += "`, `--collective all_reduce_perf"
        rows = []
        for extra in ([], ["--explain"]):
            l0 = load()
            wall, cpu, code, err = timed(base + extra, args.timeout)
            rows.append((wall, cpu, l0, code, err))
        note = ""
        if rows[0][3] == 2:
            note = " (refused in one line, exit 2)"
        elif rows[0][3] is None or rows[1][3] is None:
            note = " (stopped)"
        ratio = rows[1][0] / rows[0][0] if rows[0][0] > 0 else 0
        print(f"| `{log}`{note} | `{scenario}` | {rows[0][0]:.1f} | {rows[0][1]:.1f} | {rows[0][2]:.2f} | "
              f"{rows[1][0]:.1f} | {rows[1][1]:.1f} | {rows[1][2]:.2f} | {ratio:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
