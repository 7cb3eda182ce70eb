#!/usr/bin/env python3
"""Checks that no code of sim/ outside the algorithm registry and sim/rank compares an algorithm's name; exit 1 (one line each) if some does.

The launcher asks one registry (sim/model/algorithm_registry.{h,cpp}) what an algorithm is: its family,
placements, engine, ring, closed form and NCCL request, found once by its name. sim/rank keeps the
rank program's own table. Elsewhere an algorithm's name (each `.name = "..."` of
sim/rank/algorithm_catalog.h) as a string literal is caught, in C++ code with comments removed, when
it is compared (== or !=), tested with starts_with, ends_with, find, count, compare or contains, chosen
by a ternary or used as a case label. Printing a name, or a name inside a longer text, is sound.
--self-test runs the check on small generated trees and fails unless each way is caught and sound
code (a name printed, a name in a help text, the registry and the rank program) is not.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from tree_cases import rule_problems, run_cases, tree_check_main

CATALOG = os.path.join("sim", "rank", "algorithm_catalog.h")
REGISTRY = (os.path.join("sim", "model", "algorithm_registry.h"), os.path.join("sim", "model", "algorithm_registry.cpp"))


def catalog_names(root):
    """The algorithms' names: each `.name = "..."` of the catalog."""
    with open(os.path.join(root, CATALOG), encoding="utf-8") as catalog:
        return re.findall(r'\.name\s*=\s*"([^"]+)"', catalog.read())


def rules_of(names):
    """The rules catching a literal of NAMES (longest first, so that "nccl_ring" is not read as "nccl")."""
    name = '"(?:' + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + ')"'
    # A literal, perhaps wrapped in a conversion: std::string("ring"), std::string_view{"ring"}.
    wrapped = r'(?:[\w:]+\s*[({]\s*)?' + name
    call = r'\b(?:starts_with|ends_with|find|find_if|rfind|count|compare|contains)\s*\('
    return [
        # The call's arguments may hold one level of parentheses: std::find(v.begin(), v.end(), "mpi").
        ("an algorithm name searched for", re.compile(call + r'[^;()]*(?:\([^;()]*\)[^;()]*)*' + name)),
        ("an algorithm name compared", re.compile(r'(?:==|!=)\s*' + wrapped)),
        ("an algorithm name compared", re.compile(name + r'\s*[)}]?\s*(?:==|!=)')),
        ("an algorithm name chosen by a ternary", re.compile(r'\?\s*' + wrapped + r'|(?<!:):(?!:)\s*' + wrapped)),
        ("an algorithm name as a case label", re.compile(r'\bcase\s+(?:[\w:]+\s*\(\s*)?' + name)),
    ]


def check(root):
    problems, checked = rule_problems(root, os.path.join("sim", "rank"), rules_of(catalog_names(root)),
                                      "ask the algorithm registry (sim/model/algorithm_registry.h)", strings=False)
    kept = [p for p in problems if not p.startswith(tuple(path + ":" for path in REGISTRY))]
    return kept, checked - sum(os.path.exists(os.path.join(root, path)) for path in REGISTRY)


def self_test():
    catalog = ('inline constexpr std::array kAlgorithmCatalog{\n'
               '    AlgorithmInfo{.name = "ring", .summary = "the ring"},\n'
               '    AlgorithmInfo{.name = "nccl_ring", .summary = "NCCL\'s ring"},\n'
               '    AlgorithmInfo{.name = "nccl", .summary = "what NCCL picks"},\n'
               '    AlgorithmInfo{.name = "mpi", .summary = "the library\'s"},\n};\n')
    prints = ('// The ring (name == "ring") is asked of the registry.\n'
              'std::string label(const Case& c) { return fmt::format("{} ({})", c.algorithm, "ring"); }\n'
              'const char* help = "ring, nccl_ring or another algorithm";\n'
              'bool plain(const Case& c) { return names_algorithm(c.algorithm, AlgorithmId::ring); }\n'
              'json source = {{"mpi", version}, {"nccl", settings}};\n'
              'auto x = flag ? std::string("ringsim") : name;\n')
    sound = {CATALOG: catalog,
             "sim/results/table.cpp": prints,
             "sim/model/algorithm_registry.cpp": 'bool is_ring(std::string_view n) { return n == "ring"; }\n',
             "sim/rank/registry.cpp": 'if (name == "nccl_ring") return run_nccl_ring;\n'}
    bad = "sim/results/table.cpp"
    cases = [
        ("sound tree", {}, None),
        ("equal", {bad: prints + 'bool plain(const Case& c) { return c.algorithm == "ring"; }\n'},
         "sim/results/table.cpp:7: an algorithm name compared"),
        ("not equal, literal first", {bad: prints + 'if ("mpi" != algorithm) return;\n'}, "an algorithm name compared"),
        ("converted", {bad: prints + 'if (a != std::string_view{"nccl"}) return;\n'}, "an algorithm name compared"),
        ("starts_with", {bad: prints + 'return name.starts_with("nccl");\n'}, "an algorithm name searched for"),
        ("std::find", {bad: prints + 'if (std::find(s.algorithms.begin(), s.algorithms.end(), "mpi") == s.algorithms.end()) return;\n'},
         "an algorithm name searched for"),
        ("ternary", {bad: prints + 'const std::string simulated = forced == x ? "nccl_ring"\n    : "";\n'},
         "an algorithm name chosen by a ternary"),
        ("ternary's other branch", {bad: prints + 'const std::string s = one ? other : "nccl";\n'},
         "an algorithm name chosen by a ternary"),
        ("case label", {bad: prints + 'switch (hash(name)) { case hash("ring"): break; }\n'}, "an algorithm name as a case label"),
        ("outside the registry's own files", {"sim/model/other.cpp": 'bool r(std::string_view n) { return n == "ring"; }\n'},
         "sim/model/other.cpp:1: an algorithm name compared"),
    ]
    return run_cases(sound, cases, lambda root: check(root)[0])


if __name__ == "__main__":
    sys.exit(tree_check_main(__doc__, check, self_test,
                             lambda root, checked: f"algorithm names: none of the {checked} C++ files of sim/ outside the registry "
                                                   "and sim/rank compares one"))
