#!/usr/bin/env python3
"""The bad-input catalogue (README "Bad input"): hand-written bad inputs across every command. Each must
end with exit status 2, exactly one line on stderr (the expected one, with {dir} for the catalogue's
directory), and no file at the output path the command was given.

usage: bad_input_catalogue.py RINGSIM [--print]   (--print: show what each case gives, check nothing)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "bad")
FIXTURES = os.path.join(HERE, "..", "fixtures", "traces")

# (name, arguments after `ringsim`, output path the command must not leave, expected stderr line)
# Paths: {bad} = tests/cli/bad, {fix} = tests/fixtures/traces, {out} = a fresh temporary directory.
CASES = [
    ('run: truncated scenario', ['run', '{bad}/truncated-scenario.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: sizes not a list', ['run', '{bad}/sizes-not-a-list.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: negative size', ['run', '{bad}/negative-size.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: huge iterations', ['run', '{bad}/huge-iterations.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: negative warmup', ['run', '{bad}/negative-warmup.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: empty placements', ['run', '{bad}/no-placements.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: empty sizes', ['run', '{bad}/no-sizes.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: duplicate variant names', ['run', '{bad}/duplicate-variants.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: topology with zero GPUs', ['run', '{bad}/zero-gpus-scenario.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: placement on a missing node', ['run', '{bad}/missing-node-scenario.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: a directory as scenario', ['run', '{bad}', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('run: output under a file', ['run', '{bad}/scenario-8.json', '--json', '/dev/null/r.json'], '', None),
    ('run: unknown option', ['run', '{bad}/scenario-8.json', '--frobnicate'], '', None),
    ('run: bad engine in model file', ['run', '{bad}/scenario-8.json', '--model', '{bad}/bad-engine-model.json', '--json', '{out}/r.json'], '{out}/r.json', None),
    ('platform: negative bandwidth', ['platform', '{bad}/negative-bandwidth.json', '-o', '{out}/p.xml'], '{out}/p.xml', None),
    ('platform: latency in words', ['platform', '{bad}/word-latency.json', '-o', '{out}/p.xml'], '{out}/p.xml', None),
    ('platform: zero nodes', ['platform', '{bad}/zero-nodes.json', '-o', '{out}/p.xml'], '{out}/p.xml', None),
    ('platform: duplicate node names', ['platform', '{bad}/duplicate-node-names.json', '-o', '{out}/p.xml'], '{out}/p.xml', None),
    ('platform: missing file', ['platform', '{bad}/no-such-topology.json'], '', None),
    ('analyze: placement not a placement', ['analyze', '{cli}/pair.json', '--placement', '2-x'], '', None),
    ('analyze: no placement', ['analyze', '{cli}/pair.json'], '', None),
    ('analyze: unknown order', ['analyze', '{cli}/pair.json', '--placement', '2-2', '--order', 'zigzag'], '', None),
    ('analyze: size in words', ['analyze', '{cli}/pair.json', '--placement', '2-2', '--sizes', 'big'], '', None),
    ('analyze: too many ranks', ['analyze', '{cli}/pair.json', '--placement', '4-4'], '', None),
    ('validate: truncated nccl-tests', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/nccl-truncated.txt', '--json', '{out}/v.json'], '{out}/v.json', None),
    ('validate: sizes out of order', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/nccl-out-of-order.txt', '--json', '{out}/v.json'], '{out}/v.json', None),
    ('validate: OSU time in words', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/osu-word.txt', '--json', '{out}/v.json'], '{out}/v.json', None),
    ('validate: truncated Horovod timeline', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/horovod-truncated.json', '--format', 'horovod-timeline', '--json', '{out}/v.json'], '{out}/v.json', None),
    ('validate: empty trace', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/empty.txt'], '', None),
    ('validate: unknown format', ['validate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '--format', 'csv'], '', None),
    ('validate: negative tolerance', ['validate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '--tolerance', '-1'], '', None),
    ('validate: missing trace', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/no-such-trace.txt'], '', None),
    ('validate: ranks mismatched', ['validate', '{bad}/scenario-4.json', '--measured', '{fix}/nccl-tests-new.txt', '--json', '{out}/v.json'], '{out}/v.json', None),
    ('calibrate: empty trace', ['calibrate', '{bad}/scenario-8.json', '--measured', '{bad}/empty.txt', '-o', '{out}/m.json'], '{out}/m.json', None),
    ('calibrate: output in a missing directory', ['calibrate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '-o', '{out}/no/m.json'], '{out}/no/m.json', None),
    ('report: not a results JSON', ['report', '{bad}/not-results.json', '-o', '{out}/r.html'], '{out}/r.html', None),
    ('report: truncated results', ['report', '{bad}/truncated-scenario.json', '-o', '{out}/r.html'], '{out}/r.html', None),
    ('report: output in a missing directory', ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/no/r.html'], '{out}/no/r.html', None),
    ('measure: missing hostfile', ['measure', '{bad}/scenario-8.json', '--hostfile', '{bad}/no-such-hosts', '--json', '{out}/m.json'], '{out}/m.json', None),
]


def expand(text, out):
    return text.format(bad=BAD, fix=os.path.normpath(FIXTURES), cli=HERE, out=out)


def main():
    ringsim, show = sys.argv[1], "--print" in sys.argv[2:]
    failures = 0
    for name, arguments, output, expected in CASES:
        with tempfile.TemporaryDirectory(prefix="ringsim-bad-") as out:
            argv = [ringsim] + [expand(a, out) for a in arguments]
            done = subprocess.run(argv, capture_output=True, text=True, cwd=out, timeout=120)
            lines = done.stderr.splitlines()
            if show:
                print(f"{name}: exit {done.returncode}: {done.stderr!r}")
                continue
            problems = []
            if done.returncode != 2:
                problems.append(f"exit status {done.returncode}, expected 2")
            if lines != [expand(expected, out)]:
                problems.append(f"stderr {done.stderr!r}, expected {expand(expected, out)!r}")
            if output and os.path.exists(expand(output, out)):
                problems.append(f"left {expand(output, out)} behind")
            leftovers = [f for f in os.listdir(out)]
            if leftovers:
                problems.append(f"left {leftovers} in the working directory")
            if problems:
                failures += 1
                print(f"FAIL {name}: " + "; ".join(problems))
            else:
                print(f"ok   {name}")
    if not show:
        print(f"{len(CASES) - failures}/{len(CASES)} bad inputs rejected as promised")
    if len(CASES) < 30:
        print(f"the catalogue holds {len(CASES)} cases; it promises at least 30")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
