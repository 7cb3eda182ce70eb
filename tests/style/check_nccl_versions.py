#!/usr/bin/env python3
"""Checks that no code of sim/ outside NCCL's release table decides anything by NCCL's version; exit 1 (one line each) if some does.

What a release of NCCL holds is one row of the table in sim/nccl/tuning/nccl_releases.cpp, found there
from the version once; the rest of sim/nccl reads the row's fields and every other room receives what
the release decides (a case, a prediction, the rank program's --nccl-enqueue rules), never the
version to test. Caught, in C++ code
with comments removed: a call of NcclVersion::at_least, a read of a version's major or minor
number, a comparison (==, !=, <, <=, >, >=) of something named version with anything, and the
version spelled as an integer (major x 100 + minor, e.g. 218) compared.
--self-test runs the check on small generated trees and fails unless each way is caught (in sim/nccl
too) and sound code (the same tests in the release table, the version printed with its text()) is not.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from tree_cases import rule_problems, run_cases, tree_check_main

RULES = [
    ("a version tested", re.compile(r'\bat_least\s*\(')),
    ("a version's number read", re.compile(r'\bversion\s*(?:\.|->)\s*(?:major|minor)\b')),
    ("a version compared", re.compile(r'\bversion\b\s*(?:==|!=|<=|>=|<(?!<)|>(?!>))\s*[\w{(]')),
    ("a version compared", re.compile(r'(?:==|!=|<=|>=|(?<![<-])<(?!<)|(?<![>-])>(?![>=]))\s*[\w.]*(?:->[\w.]*)*\bversion\b(?!_)')),
    ("a version compared as an integer", re.compile(r'\b2[0-9]{2}\s*(?:<=|>=|<|>)\s*\w*version|\w*version\w*\s*(?:<=|>=|<|>)\s*2[0-9]{2}\b')),
]
RELEASE_TABLE = os.path.join("sim", "nccl", "tuning", "nccl_releases.cpp")


def check(root):
    problems, checked = rule_problems(root, None, RULES, "read what the release holds off its row (nccl_releases.h)", strings=True)
    return [p for p in problems if not p.startswith(RELEASE_TABLE + ":")], checked


def self_test():
    prints = ('#include "nccl.h"\n// Up to 2.20 (version < 221) the chunk is a step: at_least(2, 21) is not called here.\n'
              'std::string line(const NcclCase& c) { return "NCCL " + c.version.text(); }\n'
              'bool split(const NcclRankSettings& s) { return s.rules.tree_split_simple; }\n')
    sound = {"sim/cases/args.cpp": prints,
             RELEASE_TABLE: 'const NcclRelease& of(const NcclVersion& version) { return version.minor >= 8 && version < b.version ? a : b; }\n'}
    bad = "sim/cases/args.cpp"
    cases = [
        ("sound tree", {}, None),
        ("at_least", {bad: prints + 'bool tree(const NcclCase& c) { return c.version.at_least(2, 8); }\n'},
         "sim/cases/args.cpp:5: a version tested"),
        ("minor read", {bad: prints + 'int m(const NcclSettings& s) { return s.version.minor; }\n'}, "a version's number read"),
        ("integer version", {bad: prints + 'bool late(const NcclRankSettings& s) { return s.version >= 221; }\n'},
         "a version compared"),
        ("integer first", {bad: prints + 'bool late(int nccl_version) { return 218 <= nccl_version; }\n'},
         "a version compared as an integer"),
        ("two versions", {bad: prints + 'bool same(const A& a, const B& b) { return a.version == b.version; }\n'},
         "a version compared"),
        ("in the rank program", {"sim/rank/tree.cpp": 'bool up(const S& s) { return s.version < 210; }\n'},
         "sim/rank/tree.cpp:1: a version compared"),
        ("in sim/nccl beside the table", {"sim/nccl/tuning/tree.cpp": 'bool split(const NcclCase& c) { return c.version.at_least(2, 8); }\n'},
         "sim/nccl/tuning/tree.cpp:1: a version tested"),
        ("a row's version compared", {"sim/nccl/nccl_plan.cpp": 'bool late(const NcclRelease& r) { return r.version >= NcclVersion{2, 18}; }\n'},
         "sim/nccl/nccl_plan.cpp:1: a version compared"),
    ]
    return run_cases(sound, cases, lambda root: check(root)[0])


if __name__ == "__main__":
    sys.exit(tree_check_main(__doc__, check, self_test,
                             lambda root, checked: f"NCCL versions: none of the {checked} C++ files of sim/ outside nccl_releases.cpp decides by NCCL's version"))
