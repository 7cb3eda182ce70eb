#!/usr/bin/env python3
"""The bad-input catalogue (docs/testing.md, "Bad input"): hand-written bad inputs across every command. Each must
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
    ('run: truncated scenario', ['run', '{bad}/truncated-scenario.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/truncated-scenario.json:1:74: malformed JSON: syntax error while parsing object key - unexpected end of input; expected string literal'),
    ('run: a number too large for a double (fuzz finding: it escaped as out_of_range)',
     ['run', '{bad}/number-overflow.json', '--json', '{out}/r.json'], '{out}/r.json',
     "ringsim: {bad}/number-overflow.json:2:36: malformed JSON: number overflow parsing '1e400'"),
    ('run: sizes not a list', ['run', '{bad}/sizes-not-a-list.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/sizes-not-a-list.json: /sizes: expected a non-empty array of sizes or an object {{"from", "to", "factor"}}'),
    ('run: negative size', ['run', '{bad}/negative-size.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/negative-size.json: /sizes/0: expected a byte count such as 1048576, 4KiB, 16MiB or 1GiB, found "-4MiB"'),
    ('run: huge iterations', ['run', '{bad}/huge-iterations.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/huge-iterations.json: /iterations: expected an integer from 1 to 100000, found 1e+30'),
    ('run: negative warmup', ['run', '{bad}/negative-warmup.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/negative-warmup.json: /warmup: expected an integer from 0 to 100000, found -1'),
    ('run: empty placements', ['run', '{bad}/no-placements.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/no-placements.json: /placements: expected a non-empty array of placements'),
    ('run: empty sizes', ['run', '{bad}/no-sizes.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/no-sizes.json: /sizes: expected a non-empty array of sizes or an object {{"from", "to", "factor"}}'),
    ('run: duplicate variant names', ['run', '{bad}/duplicate-variants.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/duplicate-variants.json: /variants/1/name: variant name "a" is used twice'),
    ('run: topology with zero GPUs', ['run', '{bad}/zero-gpus-scenario.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/zero-gpus.json: /racks/0/nodes/0/gpus: expected an integer from 1 to 4096, found 0'),
    ('run: placement on a missing node', ['run', '{bad}/missing-node-scenario.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/missing-node-scenario.json: /placements/0: placement 2-2-2 names 3 nodes but the platform has 2 (topology {bad}/../pair.json)'),
    ('run: SimGrid XML with an unknown routing (SimGrid aborts on it: exit 134 and its log line unless loaded in a child)',
     ['run', '{bad}/unknown-routing-scenario.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/unknown-routing.xml:5: not a valid SimGrid platform: SimGrid stopped on this platform: Not a valid model!'),
    ('run: SimGrid XML of an old version (SimGrid\'s message spans three lines)',
     ['run', '{bad}/old-version-scenario.json', '--json', '{out}/r.json'], '{out}/r.json',
     "ringsim: {bad}/old-version.xml:3: not a valid SimGrid platform: ******* BIG FAT WARNING ********* You're using an old XML "
     "file. Use simgrid_update_xml to update your file automatically. This program is installed automatically with SimGrid, "
     "or available in the tools/ directory of the source archive."),
    ('run: SimGrid XML routing through an unknown link (SimGrid\'s error names no place)',
     ['run', '{bad}/unknown-link-scenario.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/unknown-link.xml:8: not a valid SimGrid platform: Link not found: m'),
    ('run: a directory as scenario', ['run', '{bad}', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}: is a directory; expected a file'),
    ('run: output under a file', ['run', '{bad}/scenario-8.json', '--json', '/dev/null/r.json'], '',
     'ringsim: --json /dev/null/r.json: /dev/null is not a directory'),
    ('run: unknown option', ['run', '{bad}/scenario-8.json', '--frobnicate'], '',
     'ringsim run: unknown option --frobnicate (see ringsim run --help)'),
    ('run: an engine named for a case whose timing model it cannot run (no fallback)',
     ['run', '{bad}/engine-lacks-capability-scenario.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/engine-lacks-capability-scenario.json: /model/engine: engine "s4u" cannot run nccl_ring on 4-4 block as '
     'modelled: it has no delayed deliveries, which Simple\'s handshake per slice needs; name "maestro" or "auto"'),
    ('run: bad engine in model file', ['run', '{bad}/scenario-8.json', '--model', '{bad}/bad-engine-model.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/bad-engine-model.json: /engine: unknown engine "warp"; expected one of auto, smpi, s4u, maestro'),
    ('run: a model key holding a newline (fuzz finding: the error was two lines)',
     ['run', '{bad}/scenario-8.json', '--model', '{bad}/newline-key-model.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/newline-key-model.json: /nic_b\\ndwidth: unknown key; did you mean "nic_bandwidth"?'),
    ('run: a model value holding a newline', ['run', '{bad}/scenario-8.json', '--model', '{bad}/newline-value-model.json', '--json', '{out}/r.json'], '{out}/r.json',
     'ringsim: {bad}/newline-value-model.json: /engine: unknown engine "wa\\nrp"; expected one of auto, smpi, s4u, maestro'),
    ('validate: a model file scaling latencies by zero', ['validate', '{bad}/scenario-8.json', '--model', '{bad}/zero-latency-scale-model.json',
     '--measured', '{fix}/osu.txt', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/zero-latency-scale-model.json: /link_latency_scale: expected a positive factor such as 0.5, found 0'),
    ('platform: negative bandwidth', ['platform', '{bad}/negative-bandwidth.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/negative-bandwidth.json: /racks/0/nodes/0/nic/bandwidth: expected a bandwidth such as 10Gbps, 1.25GBps or 100Mbps, found "-10Gbps"'),
    ('platform: latency in words', ['platform', '{bad}/word-latency.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/word-latency.json: /racks/0/nodes/0/nic/latency: expected a latency such as 1us, 0.5ms or 0s, found "fast"'),
    ('platform: zero nodes', ['platform', '{bad}/zero-nodes.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/zero-nodes.json: /racks/0/nodes/0/count: expected an integer from 1 to 100000, found 0'),
    ('platform: duplicate node names', ['platform', '{bad}/duplicate-node-names.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/duplicate-node-names.json: /racks/0/nodes/1/name: node name "n0" is used twice'),
    ('platform: a GPU\'s PCIe link to host memory on a node that does not stage', ['platform', '{bad}/host-pcie-without-staging.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/host-pcie-without-staging.json: /racks/0/nodes/0/host_pcie: only staged network transfers on an nvlink node cross a GPU\'s own PCIe link to host memory: give it with "gdr": false on an nvlink node, or leave it out'),
    ('platform: a NIC no GPU sits beside or leaves through', ['platform', '{bad}/idle-nic.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/idle-nic.json: /racks/0/nodes/0/nic_affinity: NIC 1 has no GPU beside it and no GPU leaves through it (a GPU with null leaves through NIC g*nics/gpus): name it for at least one GPU'),
    ('platform: a rail fabric over nodes with different NIC counts', ['platform', '{bad}/rails-uneven-nics.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/rails-uneven-nics.json: /rails: node a0 has 8 NICs and node b has 4: a rail fabric needs the same NICs on every node, NIC i of each on rail i'),
    ('platform: a rail count other than the NICs per node', ['platform', '{bad}/rails-count-mismatch.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/rails-count-mismatch.json: /rails/count: 4 rails, but every node has 8 NICs (one per rail)'),
    ('platform: a rail fabric over two racks', ['platform', '{bad}/rails-two-racks.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/rails-two-racks.json: /rails: a rail fabric joins the nodes of one rack; this topology has 2 racks'),
    ('platform: a rack switch beside rail leaves', ['platform', '{bad}/rails-rack-switch.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/rails-rack-switch.json: /racks/0/switch: with "rails" each NIC hangs off its rail\'s leaf switch (rails.leaf), not a rack switch; remove the rack\'s "switch"'),
    ('platform: a rail uplink given both ways', ['platform', '{bad}/rails-uplink-and-ratio.json', '-o', '{out}/p.xml'], '{out}/p.xml',
     'ringsim: {bad}/rails-uplink-and-ratio.json: /rails/oversubscription: give either "uplink" or "oversubscription", not both'),
    ('platform: missing file', ['platform', '{bad}/no-such-topology.json'], '',
     'ringsim: {bad}/no-such-topology.json: cannot read file (does it exist?)'),
    ('analyze: placement not a placement', ['analyze', '{cli}/pair.json', '--placement', '2-x'], '',
     'ringsim analyze: "2-x" is not a placement such as 4-3-1 (see ringsim analyze --help)'),
    ('analyze: no placement', ['analyze', '{cli}/pair.json'], '',
     'ringsim analyze: --placement P (e.g. 4-3-1) is required (see ringsim analyze --help)'),
    ('analyze: unknown order', ['analyze', '{cli}/pair.json', '--placement', '2-2', '--order', 'zigzag'], '',
     'ringsim analyze: --order takes block, cyclic or optimized, not "zigzag" (see ringsim analyze --help)'),
    ('analyze: size in words', ['analyze', '{cli}/pair.json', '--placement', '2-2', '--sizes', 'big'], '',
     'option --sizes takes a byte count such as 1048576, 4KiB, 16MiB or 1GiB, not "big" (see ringsim analyze --help)'),
    ('analyze: too many ranks', ['analyze', '{cli}/pair.json', '--placement', '4-4'], '',
     'ringsim: {cli}/pair.json: placement 4-4 puts 4 ranks on node 0 (host0), which has 2 rank slots'),
    ('validate: truncated nccl-tests', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/nccl-truncated.txt', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/nccl-truncated.txt: not a trace format ringsim knows (ringsim, horovod-timeline, nccl-tests, imb, osu); name one with --format'),
    ('validate: sizes out of order', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/nccl-out-of-order.txt', '--json', '{out}/v.json'], '{out}/v.json',
     "ringsim: {bad}/nccl-out-of-order.txt:20: size 1048576 after 4194304 (line 19); nccl-tests prints one run's sizes in increasing order: is this two runs in one file?"),
    ('validate: --collective all_reduce_perf on a suite log without it', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/nccl-suite-without-allreduce.txt', '--collective', 'all_reduce_perf', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/nccl-suite-without-allreduce.txt:2: none of the 2 runs in this log is all_reduce_perf (all_gather_perf at line 2, broadcast_perf at line 29): give --collective NAME to compare one of them'),
    ('validate: results of another topology', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/results-other-topology.json', '--json', '{out}/v.json'], '{out}/v.json',
     "ringsim: {bad}/results-other-topology.json: /topology: the results were simulated on {cli}/pair.json, but scenario {bad}/scenario-8.json is on {bad}/eight.json: give a scenario on the results' topology"),
    ('validate: results of placements the scenario does not list', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/results-other-placements.json', '--json', '{out}/v.json'], '{out}/v.json',
     "ringsim: {bad}/results-other-placements.json: /results: placements 4-3-1 cyclic are not among scenario {bad}/scenario-8.json's (4-2-2 block): list them in the scenario, or leave its placements out to take the file's"),
    ('validate: a one-GPU run', ['validate', '{bad}/scenario-1.json', '--measured', '{bad}/nccl-one-rank.txt', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/nccl-one-rank.txt:4: a run of one rank (1 block): its allreduce is a local copy inside one GPU, which ringsim does not simulate; validate runs of 2 ranks or more'),
    ("validate: a run on more hosts than the topology has nodes (it crashed in NCCL's rails)", ['validate', '{bad}/scenario-1.json', '--measured', '{bad}/nccl-more-hosts-than-nodes.txt', '--json', '{out}/v.json'], '{out}/v.json',
     "ringsim: {bad}/nccl-more-hosts-than-nodes.txt: the run's placement 1-1-1-1 block does not fit the scenario's topology {bad}/eight.json: placement 1-1-1-1 names 4 nodes but the platform has 3"),
    ('run: a validation scenario (no placements)', ['run', '{bad}/scenario-1.json', '--json', '{out}/r.json'], '{out}/r.json',
     "ringsim: {bad}/scenario-1.json: /placements: none: a validation scenario, whose placements come from a measured trace's header; run: ringsim validate {bad}/scenario-1.json --measured TRACE"),
    ('validate: --collective of a collective not simulated', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/nccl-suite-without-allreduce.txt', '--collective', 'hypercube_perf', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/nccl-suite-without-allreduce.txt: --collective hypercube_perf: ringsim simulates all_reduce_perf, all_gather_perf, reduce_scatter_perf, broadcast_perf, reduce_perf, alltoall_perf and sendrecv_perf; it cannot compare another'),
    ('validate: --collective all on an OSU trace', ['validate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '--collective', 'all', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {fix}/osu.txt: --collective all reads the runs of an nccl-tests log; this trace is not one'),
    ('calibrate: --collective all', ['calibrate', '{bad}/scenario-8.json', '--measured', '{bad}/nccl-suite-without-allreduce.txt', '--collective', 'all', '-o', '{out}/m.json'], '{out}/m.json',
     'ringsim calibrate: --collective all: calibrate fits one run (default all_reduce_perf); ringsim validate --model MODEL.json then compares every run of the suite (see ringsim calibrate --help)'),
    ('validate: --collective on an OSU trace', ['validate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '--collective', 'all_gather_perf', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {fix}/osu.txt: --collective picks a run of an nccl-tests log; this trace reads as osu'),
    ('validate: OSU time in words', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/osu-word.txt', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/osu-word.txt:4: "fast" is not a latency in microseconds'),
    ('validate: truncated Horovod timeline', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/horovod-truncated.json', '--format', 'horovod-timeline', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/horovod-truncated.json:4: malformed Horovod timeline JSON (truncated inside an event?)'),
    ('validate: Horovod timeline with an object as process id (fuzz finding: nlohmann\'s type_error, exit 1, no place)',
     ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/horovod-pid-object.json', '--format', 'horovod-timeline', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/horovod-pid-object.json: /18/pid: expected an integer from 0 to 2147483647, found an object'),
    ('validate: Horovod timestamp past any clock (fuzz finding: undefined behaviour under UBSan)',
     ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/horovod-huge-timestamp.json', '--format', 'horovod-timeline', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/horovod-huge-timestamp.json: /18/ts: expected a number from 0 to 1e+15, found 5.55556e+128'),
    ('validate: Horovod process id 5.55556e+128 (fuzz finding: a float converted to long long)',
     ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/horovod-huge-pid.json', '--format', 'horovod-timeline', '--json', '{out}/v.json'], '{out}/v.json',
     'ringsim: {bad}/horovod-huge-pid.json: /18/pid: expected an integer from 0 to 2147483647, found 5.55556e+128'),
    ('validate: empty trace', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/empty.txt'], '',
     'ringsim: {bad}/empty.txt: not a trace format ringsim knows (ringsim, horovod-timeline, nccl-tests, imb, osu); name one with --format'),
    ('validate: unknown format', ['validate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '--format', 'csv'], '',
     'ringsim: unknown trace format "csv"; known: ringsim, horovod-timeline, nccl-tests, imb, osu'),
    ('validate: negative tolerance', ['validate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '--tolerance', '-1'], '',
     'option --tolerance takes a number above 0 such as 0.10, not "-1" (see ringsim validate --help)'),
    ('validate: missing trace', ['validate', '{bad}/scenario-8.json', '--measured', '{bad}/no-such-trace.txt'], '',
     'ringsim: {bad}/no-such-trace.txt: cannot read file (does it exist?)'),
    ('validate: ranks mismatched', ['validate', '{bad}/scenario-4.json', '--measured', '{fix}/nccl-tests-new.txt', '--json', '{out}/v.json'], '{out}/v.json',
     "ringsim: {fix}/nccl-tests-new.txt: the trace ran 8 ranks but the scenario's placement 2-2 has 4"),
    ('calibrate: empty trace', ['calibrate', '{bad}/scenario-8.json', '--measured', '{bad}/empty.txt', '-o', '{out}/m.json'], '{out}/m.json',
     'ringsim: {bad}/empty.txt: not a trace format ringsim knows (ringsim, horovod-timeline, nccl-tests, imb, osu); name one with --format'),
    ('calibrate: output in a missing directory', ['calibrate', '{bad}/scenario-8.json', '--measured', '{fix}/osu.txt', '-o', '{out}/no/m.json'], '{out}/no/m.json',
     'ringsim: -o {out}/no/m.json: directory {out}/no does not exist'),
    ('report: not a results JSON', ['report', '{bad}/not-results.json', '-o', '{out}/r.html'], '{out}/r.html',
     'ringsim: {bad}/not-results.json: /results: not a ringsim results JSON (expected an object with a "results" array, as `ringsim run --json FILE` writes)'),
    ('report: truncated results', ['report', '{bad}/truncated-scenario.json', '-o', '{out}/r.html'], '{out}/r.html',
     'ringsim: {bad}/truncated-scenario.json:1:74: malformed JSON: syntax error while parsing object key - unexpected end of input; expected string literal'),
    ('report: output in a missing directory', ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/no/r.html'], '{out}/no/r.html',
     'ringsim: -o {out}/no/r.html: directory {out}/no does not exist'),
    ('report --timeline: a float chunk index',
     ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/r.html', '--timeline', '{bad}/timeline-float-chunk.json'], '{out}/r.html',
     'ringsim: {bad}/timeline-float-chunk.json: /traceEvents/1/args/chunk: expected a chunk of the 4-rank ring (an integer from 0 to 3), found 2.5'),
    ('report --timeline: a negative byte count',
     ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/r.html', '--timeline', '{bad}/timeline-negative-bytes.json'], '{out}/r.html',
     'ringsim: {bad}/timeline-negative-bytes.json: /traceEvents/1/args/bytes: expected a byte count (an integer from 0 to 18446744073709551615), found -16384'),
    ('report --timeline: a string where the rank count belongs',
     ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/r.html', '--timeline', '{bad}/timeline-string-ranks.json'], '{out}/r.html',
     'ringsim: {bad}/timeline-string-ranks.json: /traceEvents/0/args/ranks: expected a rank count (an integer from 1 to 65536), found "4"'),
    ('report --timeline: a step number too large for an integer (undefined behaviour if cast)',
     ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/r.html', '--timeline', '{bad}/timeline-huge-step.json'], '{out}/r.html',
     'ringsim: {bad}/timeline-huge-step.json: /traceEvents/1/args/step: expected a step number (an integer from 0 to 2147483647), found 6.5e+37'),
    ('report --timeline: a ring too large to replay',
     ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/r.html', '--timeline', '{bad}/timeline-ring-too-large.json'], '{out}/r.html',
     'ringsim: {bad}/timeline-ring-too-large.json: /traceEvents/0/args/ranks: the ring case best to draw has 128 ranks; the step-by-step picture replays rings of at most 64'),
    ('report --timeline: not a Chrome trace',
     ['report', '{cli}/../fixtures/report/results.json', '-o', '{out}/r.html', '--timeline', '{bad}/timeline-no-events.json'], '{out}/r.html',
     'ringsim: {bad}/timeline-no-events.json: /traceEvents: not a timeline (expected a Chrome trace with "traceEvents", as `ringsim run --timeline FILE` writes)'),
    ("import: an NCCL XML tag closed by another's end tag", ['import', '{bad}/import-mismatched-tag.xml', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-mismatched-tag.xml:4: expected </pci> closing <pci> of line 3, found </cpu>'),
    ('import: an NCCL XML attribute without quotes', ['import', '{bad}/import-unquoted-attribute.xml', '-o', '{out}/t.json'], '{out}/t.json',
     "ringsim: {bad}/import-unquoted-attribute.xml:4: expected a quoted value after dev=, found '0'"),
    ("import: a GPU's compute capability in words", ['import', '{bad}/import-word-sm.xml', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-word-sm.xml:4: <gpu sm="ninety">: expected NCCL\'s compute capability such as 80 or 90'),
    ("import: a NIC's speed in words", ['import', '{bad}/import-word-speed.xml', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-word-speed.xml:5: <net speed="fast">: expected the port\'s speed in Mb/s, such as 400000'),
    ('import: an NCCL XML cut short', ['import', '{bad}/import-truncated.xml', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-truncated.xml:4: expected </cpu> closing <cpu> of line 2, found the end of the file'),
    ('import: an NCCL XML without GPUs or NICs', ['import', '{bad}/import-no-devices.xml', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-no-devices.xml:1: expected GPUs (<gpu>, or <pci> of class 0x0302) or NICs (<net>, or <pci> of class 0x0207 or 0x0200) in <system>, found neither'),
    ('import: a topo -m row short of cells', ['import', '{bad}/import-topo-short-row.txt', '-o', '{out}/t.json'], '{out}/t.json',
     "ringsim: {bad}/import-topo-short-row.txt:3: expected 3 cells in GPU1's row, one per column of the header at line 1, found 2"),
    ('import: a topo -m cell of no known path', ['import', '{bad}/import-topo-bad-cell.txt', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-topo-bad-cell.txt:2: expected X, NV#, PIX, PXB, PHB, NODE or SYS for GPU0 to GPU1, found "NVX"'),
    ('import: a topo -m header naming GPUs without rows', ['import', '{bad}/import-topo-missing-rows.txt', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-topo-missing-rows.txt:1: expected a row for GPU2, which this header names, found none'),
    ('import: an ibstat rate in words', ['import', '{bad}/import-ibstat-word-rate.txt', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-ibstat-word-rate.txt:6: expected a rate in Gb/s such as 200, found "fast"'),
    ('import: an ibstat port before its CA', ['import', '{bad}/import-ibstat-port-before-ca.txt', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-ibstat-port-before-ca.txt:1: expected CA \'NAME\' (ibstat) or hca_id: NAME (ibv_devinfo) before "Port 1"'),
    ('import: an ibstat link layer of neither kind', ['import', '{bad}/import-ibstat-link-layer.txt', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-ibstat-link-layer.txt:5: expected the link layer InfiniBand, Ethernet or Unspecified, found "Fibre Channel"'),
    ('import: a topology.conf range running backwards', ['import', '{bad}/import-slurm-backwards-range.conf', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-slurm-backwards-range.conf:2: expected a range whose end is not below its start, found "16-01"'),
    ('import: a topology.conf switch joining unknown switches', ['import', '{bad}/import-slurm-unknown-switch.conf', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-slurm-unknown-switch.conf:3: expected Switches= to name switches of this file, found leaf3'),
    ('import: a topology.conf key Slurm does not know', ['import', '{bad}/import-slurm-unknown-key.conf', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-slurm-unknown-key.conf:1: expected SwitchName=, Nodes=, Switches=, LinkSpeed= or Level=, found "Node=node[01-16]"'),
    ('import: a node under two leaf switches', ['import', '{bad}/import-slurm-node-twice.conf', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-slurm-node-twice.conf:2: node node16 is under two leaf switches (also line 1)'),
    ('import: NCCL INFO lines that name nothing of the node', ['import', '{bad}/import-info-no-facts.txt', '-o', '{out}/t.json'], '{out}/t.json',
     'ringsim: {bad}/import-info-no-facts.txt:1: expected NCCL INFO lines naming the node: "HOST:PID:TID [DEV] NCCL INFO ...", "NET/IB : Using [0]mlx5_0:1/IB", "nNodes N localRanks N" or hops "via NET/..."; found none'),
    ('import: a file of no print kind', ['import', '{bad}/import-unknown-print.txt', '-o', '{out}/t.json'], '{out}/t.json',
     "ringsim: {bad}/import-unknown-print.txt:1: expected a print ringsim import reads: NCCL's topology XML (NCCL_TOPO_DUMP_FILE, or a vendor's NCCL_TOPO_FILE); Slurm's topology.conf (SwitchName=... Switches=... Nodes=...); ibstat or ibv_devinfo; nvidia-smi topo -m (or -mp); NCCL's INFO lines (NCCL_DEBUG=INFO)"),
    ('import: --nodes not a count', ['import', '{bad}/import-unknown-print.txt', '--nodes', '0', '-o', '{out}/t.json'], '{out}/t.json',
     'option --nodes takes a positive integer, not "0" (see ringsim import --help)'),
    ('measure: missing hostfile', ['measure', '{bad}/scenario-8.json', '--hostfile', '{bad}/no-such-hosts', '--json', '{out}/m.json'], '{out}/m.json',
     'ringsim: {bad}/no-such-hosts: cannot read file (does it exist?)'),
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
