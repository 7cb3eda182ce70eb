#!/usr/bin/env python3
"""Interruptions and failing writes (docs/commands.md and docs/testing.md, "Interruptions and failing writes").

SIGINT and SIGTERM sent to `ringsim run`, `validate` and `measure --hostfile` (localhost, Open MPI) at
three moments: early (its temporary directory just made, before any simulation), middle (a child of it
runs) and late (the results written to their temporary file, not yet renamed: a preloaded fsync()
holds ringsim there). After each: exit status 128 + signal, one line on stderr, no process of its
session left, nothing left in its TMPDIR, nothing at or beside the --json path. Then a write that
fails (file size limit, a full tmpfs, /dev/full as stdout): one line, exit 1, no file.

usage: interruptions.py RINGSIM SLOW_FSYNC_LIBRARY
"""
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
RINGSIM, SLOW_FSYNC = (os.path.abspath(a) for a in sys.argv[1:3])
failures = []


def fail(name, why):
    failures.append(f"{name}: {why}")
    print(f"FAIL {name}: {why}", flush=True)


def session_processes(session):
    """Processes of SESSION still alive (zombies waiting for init do not count: they run nothing)."""
    alive = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state ppid pgrp session ...
        if int(fields[3]) == session and fields[0] != "Z":
            alive.append(f"{pid} {stat[:stat.rindex(')') + 1]}")
    return alive


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def interrupt(name, args, moment, signum, work, environment=None):
    """Starts ringsim ARGS in a new session, sends SIGNUM at MOMENT, checks what it leaves."""
    tmp = os.path.join(work, "tmp")
    out = os.path.join(work, "out")
    for d in (tmp, out):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    json_path = os.path.join(out, "results.json")
    env = dict(os.environ, TMPDIR=tmp, **(environment or {}))
    mark = os.path.join(work, "fsync-reached")
    if moment == "late":
        env.update(LD_PRELOAD=SLOW_FSYNC, RINGSIM_SLOW_FSYNC_OF="/.results.json.", RINGSIM_SLOW_FSYNC_MARK=mark)
        if os.path.exists(mark):
            os.unlink(mark)
    failed_before = len(failures)
    stderr_path = os.path.join(work, "stderr.txt")
    with open(stderr_path, "w") as stderr:
        proc = subprocess.Popen([RINGSIM] + [json_path if a == "{json}" else a for a in args], stdout=subprocess.DEVNULL, stderr=stderr,
                                env=env, cwd=work, start_new_session=True)
    reached = {
        "early": lambda: any(n.startswith("ringsim-") for n in os.listdir(tmp)),
        "middle": lambda: len(session_processes(proc.pid)) > 1,
        "late": lambda: os.path.exists(mark),
    }[moment]
    label = f"{name}, {signal.Signals(signum).name} {moment}"
    if not wait_for(lambda: reached() or proc.poll() is not None, 60) or proc.poll() is not None:
        fail(label, f"the moment never came (exit {proc.poll()}): {open(stderr_path).read()}")
        proc.kill()
        proc.wait()
        return
    os.kill(proc.pid, signum)
    try:
        status = proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        fail(label, "still running 20 s after the signal")
        return
    err = open(stderr_path).read().splitlines()
    err = [line for line in err if not line.startswith("ringsim: simulating") and not line.startswith("ringsim: measuring")
           and not line.startswith("ringsim: validating")]
    if status != 128 + signum:
        fail(label, f"exit status {status}, expected {128 + signum}")
    if err != [f"ringsim: interrupted by {signal.Signals(signum).name}"]:
        fail(label, f"stderr: {err}")
    # SIGKILL is asynchronous: give the killed processes a moment to be gone.
    if not wait_for(lambda: not session_processes(proc.pid), 3):
        fail(label, f"processes left: {session_processes(proc.pid)}")
        os.killpg(proc.pid, signal.SIGKILL)
    if os.listdir(tmp):
        fail(label, f"left in TMPDIR: {os.listdir(tmp)}")
    if os.listdir(out):
        fail(label, f"left in the output directory: {os.listdir(out)}")
    if len(failures) == failed_before:
        print(f"ok   {label}: exit {status}", flush=True)


def failing_writes(work, scenario):
    # A file size limit (any user): the platform XML cannot be written whole.
    out = os.path.join(work, "fsize")
    os.makedirs(out)

    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() then fails with EFBIG instead of a signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    topology = os.path.join(ROOT, "topologies", "rack-4x4-10GbE.json")
    xml = os.path.join(out, "rack.xml")
    run = subprocess.run([RINGSIM, "platform", topology, "-o", xml], capture_output=True, text=True, preexec_fn=limit_file_size)
    expect_write_failure("platform -o past the file size limit", run, out, f"ringsim: {xml}: write failed (File too large)")

    # stdout on /dev/full: the tables cannot be printed.
    with open("/dev/full", "w") as full:
        run = subprocess.run([RINGSIM, "platform", topology], stdout=full, stderr=subprocess.PIPE, text=True)
    expect_write_failure("platform to /dev/full", run, None, "ringsim: cannot write the standard output (No space left on device)")

    # A full file system: a 16 KiB tmpfs (root only: mounting), in a mount namespace of the test's own.
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        print("skip run --json on a full tmpfs: needs root and unshare(1) to mount a tmpfs", flush=True)
        return
    small = os.path.join(work, "small")
    os.makedirs(small)
    json_path = os.path.join(small, "results.json")
    # 16 KiB of which 12 KiB are taken: one 4 KiB page is left, less than the results JSON needs.
    script = ('mount -t tmpfs -o size=16k tmpfs "$1" && head -c 12288 /dev/zero >"$1/taken" && '
              '"$2" run "$3" --quiet --jobs 2 --json "$4"; s=$?; ls -A "$1"; exit $s')
    run = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", small, RINGSIM, scenario,
                          json_path], capture_output=True, text=True, env=dict(os.environ, TMPDIR=work))
    if "mount" in run.stderr and "permission denied" in run.stderr.lower():
        print(f"skip run --json on a full tmpfs: cannot mount here ({run.stderr.strip()})", flush=True)
        return
    left = [line for line in run.stdout.splitlines() if "results.json" in line]
    run.stdout = ""
    expect_write_failure("run --json on a full tmpfs", run, None,
                         f"ringsim: {json_path}: write failed (No space left on device)")
    if left:
        fail("run --json on a full tmpfs", f"left on the tmpfs: {left}")


def expect_write_failure(name, run, out_dir, line):
    err = run.stderr.splitlines()
    if run.returncode != 1:
        fail(name, f"exit status {run.returncode}, expected 1 (stderr: {err})")
    elif err != [line]:
        fail(name, f"stderr {err}, expected [{line!r}]")
    elif out_dir and os.listdir(out_dir):
        fail(name, f"left: {os.listdir(out_dir)}")
    else:
        print(f"ok   {name}: exit 1, one line", flush=True)


def main():
    with tempfile.TemporaryDirectory(prefix="ringsim-interruptions-") as work:
        scenario = os.path.join(work, "scenario.json")
        topology = os.path.join(work, "box.json")
        with open(topology, "w") as f:
            f.write('{"racks": [{"nodes": [{"name": "box", "gpus": 4}]}]}\n')
        with open(scenario, "w") as f:
            f.write('{"name": "box", "topology": "box.json", "placements": ["4", "3", "2", {"ranks": "4", "order": "cyclic"}],'
                    ' "sizes": ["64KiB", "1MiB"], "iterations": 2, "warmup": 0}\n')
        trace = os.path.join(work, "trace.json")
        subprocess.run([RINGSIM, "run", scenario, "--quiet", "--json", trace], check=True, stdout=subprocess.DEVNULL)
        commands = [("run", ["run", scenario, "--jobs", "1", "--quiet", "--json", "{json}"]),
                    ("validate", ["validate", scenario, "--measured", trace, "--jobs", "1", "--quiet", "--json", "{json}"])]
        if shutil.which("mpirun") and shutil.which("ringsim-rank-mpi", path=os.path.dirname(RINGSIM)):
            hostfile = os.path.join(work, "hosts")
            with open(hostfile, "w") as f:
                f.write(f"{socket.gethostname()} slots=4\n")
            commands.append(("measure --hostfile", ["measure", scenario, "--hostfile", hostfile, "--quiet", "--json", "{json}",
                                                          "--", "--mca", "btl", "self,vader"]))
        else:
            print("skip measure: no mpirun or ringsim-rank-mpi (build with Open MPI)", flush=True)
        for name, args in commands:
            for moment, signum in (("early", signal.SIGINT), ("middle", signal.SIGTERM), ("late", signal.SIGINT),
                                   ("middle", signal.SIGINT), ("late", signal.SIGTERM)):
                interrupt(name, args, moment, signum, work)
        failing_writes(work, scenario)
    if failures:
        print(f"{len(failures)} failed", flush=True)
        return 1
    print("interruptions: all as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
