#!/usr/bin/env python3
"""Learns NCCL's software costs (model key nccl.software: per call, per step inside nodes and per step
across nodes, per GB of the buffer by protocol) from the nccl-tests logs of validate/traces/software-cost-fit.json, and
judges them on each cluster left out of the fit.

usage: tools/fit-nccl-costs.py [--ringsim PATH] [--runs DIR] [--reuse] [--jobs N] [--alternatives] [--per-size CLUSTER]
       tools/fit-nccl-costs.py --self-test

Every log is validated once with the software costs at zero (ringsim validate ... --json): a call's
software cost is spent before its first transfer (sim/nccl/tuning/nccl_software_costs.h), so the
simulated time with costs is the time without them plus the cost, exactly, and the fit and every
left-out prediction are computed from that one run. The costs minimise the squared relative error
over every size of every log, each cluster weighing as much as any other, none negative.
Prints, per cluster: median |error| and bias without the costs, with the costs fitted on the other
clusters (leave-one-cluster-out), and with the costs fitted on all; then the costs fitted on all, as
nccl_software_costs.cpp holds them. Clusters whose hardware the corpus only infers (held_out) are
judged with the costs fitted on all and never fitted.
"""
import argparse, itertools, json, math, os, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, 'validate/traces/software-cost-fit.json')
PROTOCOLS = ['LL', 'LL128', 'Simple']


def call_steps(algorithm, ranks, nodes):
    """nccl_call_steps (sim/nccl/tuning/nccl_software_costs.h): (steps inside nodes, steps across nodes)."""
    per_node = ranks // nodes
    tree_net = 2 * math.ceil(math.log2(nodes)) if nodes > 1 else 0
    if algorithm == 'Ring':
        return (0, 2 * (ranks - 1)) if nodes > 1 else (2 * (ranks - 1), 0)
    if algorithm == 'Tree':
        return (2 * (per_node - 1), tree_net)
    if algorithm == 'NVLS':
        return (2, 0)
    if algorithm == 'NVLSTree':
        return (2, tree_net)
    raise ValueError(f'unknown algorithm {algorithm}')


def features(row):
    """The cost's terms for one size, in the order of PARAMETERS: the per-GB terms count GB of the buffer."""
    return ([1.0, row['intra'] if row['nvlink'] else 0, 0 if row['nvlink'] else row['intra']] +
            [row['net'] if row['path'] == path else 0 for path in NET_PATHS] +
            [row['bytes'] / 1e9 if row['protocol'] == protocol and row['algorithm'] in PER_GB_ALGORITHMS else 0
             for protocol in PER_GB_PROTOCOLS])


NET_PATHS = ['verbs', 'ofi', 'socket']
# LL runs only the smallest sizes, where a cost per GB is lost in the call's: it has none. NVLS and
# NVLS trees reduce in the NVSwitch, not step by step through a FIFO: they have none either.
PER_GB_PROTOCOLS = ['LL128', 'Simple']
PER_GB_ALGORITHMS = ['Ring', 'Tree']
PARAMETERS = (['call', 'intra_step.nvlink', 'intra_step.pcie'] + [f'net_step.{p}' for p in NET_PATHS] +
              [f'per_gb.{p}' for p in PER_GB_PROTOCOLS])
# nccl_net_path (sim/nccl/tuning/nccl_software_costs.cpp): the topology's nic_transport.
NET_PATH_OF = {'ib': 'verbs', 'roce': 'verbs', 'efa': 'ofi', 'cxi': 'ofi', 'tcp': 'socket'}


def node_kind(scenario_file):
    """(NVLink inside nodes, network path) of the scenario's topology, as NCCL's facts take them: the first node's."""
    scenario = json.load(open(scenario_file))
    topology = json.load(open(os.path.join(os.path.dirname(scenario_file), scenario['topology'])))
    node = topology['racks'][0]['nodes'][0]
    return node.get('intra', {}).get('kind', 'pcie') == 'nvlink', NET_PATH_OF[node.get('nic_transport', 'tcp')]


def validate_log(ringsim, entry, runs, reuse, jobs, zero_model):
    name = os.path.basename(entry['trace'])[:-len('.txt')]
    out = os.path.join(runs, name + '.json')
    if not (reuse and os.path.exists(out)):
        command = [ringsim, 'validate', os.path.join(ROOT, 'scenarios', entry['scenario']), '--measured',
                   os.path.join(ROOT, 'validate/traces', entry['trace']), '--jobs', str(jobs), '--quiet',
                   '--model', zero_model, '--json', out]
        print(f'fit-nccl-costs: validating {entry["trace"]}', file=sys.stderr, flush=True)
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode not in (0, 1) or not os.path.exists(out):
            sys.exit(f'fit-nccl-costs: {" ".join(command)} failed: {result.stderr.strip()}')
    nvlink, path = node_kind(os.path.join(ROOT, 'scenarios', entry['scenario']))
    rows = []
    for size in json.load(open(out))['sizes']:
        algorithm, protocol = size['nccl_ran'].split('/')
        nodes = len(size['placement'].split('-'))
        intra, net = call_steps(algorithm, size['ranks'], nodes)
        rows.append({'cluster': entry['cluster'], 'log': name, 'bytes': size['bytes'], 'measured': size['measured_s'],
                     'simulated': size['simulated_s'], 'protocol': protocol, 'intra': intra, 'net': net,
                     'nvlink': nvlink, 'path': path, 'algorithm': algorithm, 'ranks': size['ranks']})
    return rows


def solve(matrix, vector):
    """Gauss-Jordan with partial pivoting; None when singular."""
    n = len(matrix)
    m = [row[:] + [v] for row, v in zip(matrix, vector)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda k: abs(m[k][c]))
        if abs(m[pivot][c]) < 1e-300:
            return None
        m[c], m[pivot] = m[pivot], m[c]
        for k in range(n):
            if k != c:
                f = m[k][c] / m[c][c]
                for j in range(c, n + 1):
                    m[k][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows):
    """Non-negative weighted least squares of the relative error, by trying every set of free parameters."""
    per_cluster = {}
    for r in rows:
        per_cluster[r['cluster']] = per_cluster.get(r['cluster'], 0) + 1
    x = [[v / r['measured'] for v in features(r)] for r in rows]
    y = [1 - r['simulated'] / r['measured'] for r in rows]
    w = [1.0 / per_cluster[r['cluster']] for r in rows]
    k = len(PARAMETERS)
    # Terms no row uses stay at zero.
    used = [i for i in range(k) if any(xi[i] != 0 for xi in x)]
    best = None
    for mask in itertools.product([0, 1], repeat=len(used)):
        free = [used[i] for i in range(len(used)) if mask[i]]
        theta = [0.0] * k
        if free:
            a = [[sum(w[n] * x[n][i] * x[n][j] for n in range(len(x))) for j in free] for i in free]
            b = [sum(w[n] * x[n][i] * y[n] for n in range(len(x))) for i in free]
            solution = solve(a, b)
            if solution is None or any(s < 0 for s in solution):
                continue
            for i, s in zip(free, solution):
                theta[i] = s
        objective = sum(w[n] * (sum(x[n][i] * theta[i] for i in range(k)) - y[n]) ** 2 for n in range(len(x)))
        if best is None or objective < best[0]:
            best = (objective, theta)
    return best[1]


def errors(rows, theta):
    return [(r['simulated'] + sum(f * t for f, t in zip(features(r), theta))) / r['measured'] - 1 for r in rows]


def summary(errs):
    return statistics.median(abs(e) for e in errs), math.exp(statistics.mean(math.log1p(e) for e in errs)) - 1


def microseconds(theta):
    return ', '.join(f'{name} {value * 1e6:.3g}' for name, value in zip(PARAMETERS, theta) if value > 0) or 'none'


def self_test():
    """Synthetic runs made with known costs, plus noise: the fit recovers the costs and each left-out cluster."""
    # Per GB of the buffer: 3 ms under LL128, 0.8 ms under Simple.
    truth = [20e-6, 1e-6, 3e-6, 0.0, 8e-6, 12e-6, 3e-3, 0.8e-3]
    kinds = {'A': (True, 'verbs'), 'B': (False, 'verbs'), 'C': (True, 'ofi'), 'D': (False, 'socket'), 'E': (True, 'ofi')}
    rows, noise = [], 0
    for cluster, (nvlink, path) in kinds.items():
        for algorithm, ranks, nodes in [('Ring', 8, 1), ('Ring', 16, 2), ('Tree', 16, 2), ('Ring', 32, 4)]:
            for size in range(2, 28, 2):
                simulated = 5e-6 + (1 << size) / 50e9
                intra, net = call_steps(algorithm, ranks, nodes)
                protocol = 'LL' if size < 16 else 'LL128' if size < 22 else 'Simple'
                row = {'cluster': cluster, 'log': cluster, 'bytes': 1 << size, 'simulated': simulated, 'protocol': protocol,
                       'algorithm': algorithm,
                       'intra': intra, 'net': net, 'nvlink': nvlink, 'path': path}
                noise = (noise * 7 + 3) % 11  # deterministic, within +-1%
                row['measured'] = (simulated + sum(f * t for f, t in zip(features(row), truth))) * (1 + (noise - 5) / 500)
                rows.append(row)
    fitted = fit(rows)
    failures = [f'{name}: fitted {got * 1e6:.2f} us, made with {want * 1e6:.2f}'
                for name, got, want in zip(PARAMETERS, fitted, truth) if abs(got - want) > 0.15 * want + 0.3e-6]
    for cluster in kinds:
        left = summary(errors([r for r in rows if r['cluster'] == cluster], fit([r for r in rows if r['cluster'] != cluster])))
        # D is the only socket cluster: without it the socket step is unknown, so it alone may miss.
        if left[0] > 0.02 and cluster != 'D':
            failures.append(f'cluster {cluster} left out: median |error| {left[0]:.1%}')
    if failures:
        sys.exit('fit-nccl-costs self-test: ' + '; '.join(failures))
    print(f'fit-nccl-costs self-test: recovered {microseconds(fitted)} (made with {microseconds(truth)})')


def alternative_terms():
    """Terms tried in place of the cost per GB of the buffer: (label, extra features of a row, their names)."""
    def per_protocol(value, protocols):
        return lambda row: [value(row) if row['protocol'] == p else 0 for p in protocols]
    sent = lambda row: row['bytes'] * 2 * (row['ranks'] - 1) / row['ranks'] / 1e9
    loop_steps = lambda row: ((2 * (row['ranks'] - 1) if row['algorithm'] == 'Ring' else 2) *
                              max(1, math.ceil(row['bytes'] / (row['ranks'] * (16 << 20)))))
    ring_or_tree = lambda value: lambda row: value(row) if row['algorithm'] in PER_GB_ALGORITHMS else 0
    return [('per GB of the buffer, LL128 and Simple, ring and tree (shipped)',
             per_protocol(ring_or_tree(lambda r: r['bytes'] / 1e9), PER_GB_PROTOCOLS)),
            ('per GB of the buffer, LL128 and Simple, every algorithm (NVLS too)', per_protocol(lambda r: r['bytes'] / 1e9, PER_GB_PROTOCOLS)),
            ('per GB of the buffer, every protocol', per_protocol(lambda r: r['bytes'] / 1e9, PROTOCOLS)),
            ('per GB each rank sends (2(N-1)/N of the buffer), LL128 and Simple', per_protocol(sent, PER_GB_PROTOCOLS)),
            ('per step paid once per loop of the pipeline, 2(N-1) x ceil(size / (N x 16 MiB)), LL128 and Simple',
             per_protocol(loop_steps, PER_GB_PROTOCOLS)),
            ('a share of the simulated time under Simple (an efficiency)', per_protocol(lambda r: r['simulated'], ['Simple'])),
            ('per GB of the buffer, LL128 and Simple, ring and tree across nodes only',
             per_protocol(lambda r: r['bytes'] / 1e9 if r['algorithm'] in PER_GB_ALGORITHMS and r['net'] > 0 else 0, PER_GB_PROTOCOLS))]


def compare_alternatives(rows):
    """Leave-one-cluster-out median of the median |error| and median bias with each alternative term."""
    global features, PARAMETERS
    shipped = (features, PARAMETERS)
    base = lambda row: shipped[0](row)[:6]
    print('| added to call and steps | median | bias |\n|---|---:|---:|')
    for label, extra in alternative_terms():
        features = lambda row, extra=extra: base(row) + extra(row)
        PARAMETERS = shipped[1][:6] + [f'extra{i}' for i in range(len(extra(rows[0])))]
        left = [summary(errors([r for r in rows if r['cluster'] == c], fit([r for r in rows if r['cluster'] != c])))
                for c in sorted({r['cluster'] for r in rows})]
        print(f'| {label} | {statistics.median(l[0] for l in left):.1%} | {statistics.median(l[1] for l in left):+.1%} |')
    features, PARAMETERS = shipped


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--ringsim', default=os.path.join(ROOT, 'build/ringsim'))
    parser.add_argument('--runs', default=None, help='where the validations\' JSON go (default: a temporary directory)')
    parser.add_argument('--reuse', action='store_true', help='reuse the JSON already in --runs')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    parser.add_argument('--alternatives', action='store_true', help='also judge the terms tried in place of the cost per GB')
    parser.add_argument('--per-size', metavar='CLUSTER', help="also print each of CLUSTER's sizes' error with the costs fitted on all")
    args = parser.parse_args()
    manifest = json.load(open(MANIFEST))
    runs = args.runs or tempfile.mkdtemp(prefix='fit-nccl-costs-')
    os.makedirs(runs, exist_ok=True)
    zero_model = os.path.join(runs, 'zero-software-costs.json')
    with open(zero_model, 'w') as f:
        json.dump({'nccl': {'software': {'call': '0us', 'intra_step': '0us', 'net_step': '0us', 'per_gb': '0us'}}}, f)
    rows = [r for e in manifest['logs'] for r in validate_log(args.ringsim, e, runs, args.reuse, args.jobs, zero_model)]
    held = [r for e in manifest['held_out'] for r in validate_log(args.ringsim, e, runs, args.reuse, args.jobs, zero_model)]
    theta_all = fit(rows)
    print('| cluster | logs | sizes | without costs: median \\|err\\|, bias | left out of the fit | fitted on all | costs fitted without it (us) |')
    print('|---|---:|---:|---:|---:|---:|---|')
    loco_medians, loco_bias = [], []
    for cluster in sorted({r['cluster'] for r in rows}):
        test = [r for r in rows if r['cluster'] == cluster]
        theta = fit([r for r in rows if r['cluster'] != cluster])
        base, left, all_ = summary(errors(test, [0] * len(theta))), summary(errors(test, theta)), summary(errors(test, theta_all))
        loco_medians.append(left[0])
        loco_bias.append(left[1])
        logs = len({r['log'] for r in test})
        print(f'| {cluster} | {logs} | {len(test)} | {base[0]:.1%}, {base[1]:+.1%} | {left[0]:.1%}, {left[1]:+.1%} | '
              f'{all_[0]:.1%}, {all_[1]:+.1%} | {microseconds(theta)} |')
    for cluster in sorted({r['cluster'] for r in held}):
        test = [r for r in held if r['cluster'] == cluster]
        base, all_ = summary(errors(test, [0] * len(theta_all))), summary(errors(test, theta_all))
        print(f'| {cluster} (held out) | {len({r["log"] for r in test})} | {len(test)} | {base[0]:.1%}, {base[1]:+.1%} | '
              f'— | {all_[0]:.1%}, {all_[1]:+.1%} | — |')
    print(f'\nLeft out of the fit, across clusters: median of the median |error| {statistics.median(loco_medians):.1%}, '
          f'median bias {statistics.median(loco_bias):+.1%}.')
    print(f'Fitted on all clusters (us): {microseconds(theta_all)}.')
    if args.per_size:
        test = [r for r in rows + held if r['cluster'] == args.per_size]
        print(f'\nCluster {args.per_size} with the costs fitted on all, size in bytes: error')
        for log in sorted({r['log'] for r in test}):
            mine = [r for r in test if r['log'] == log]
            print(f'{log}: ' + ', '.join(f'{r["bytes"]}: {e:+.1%}' for r, e in zip(mine, errors(mine, theta_all))))
    if args.alternatives:
        print()
        compare_alternatives(rows)
    print('nccl_software_costs.cpp: {' + ', '.join(f'{t:.3g}' for t in theta_all[:3]) + ', {' +
          ', '.join(f'{t:.3g}' for t in theta_all[3:6]) + '}, {0, ' + ', '.join(f'{t:.3g}' for t in theta_all[6:]) + '}}')


if __name__ == '__main__':
    main()
