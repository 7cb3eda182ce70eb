#!/usr/bin/env python3
"""The results JSON has one writer and reader, sim/results/results_document.*: no other C++ file of sim/
names the keys only a results document has (outside comments). A sweep, a report or a validator that
builds or picks apart results JSON by hand would name them.

usage: check_results_writer.py --root ROOT   (exit 1, one line per file and key, when another file does)
       check_results_writer.py --self-test   (the check must catch a file that names a key)
"""
import argparse
import os
import re
import sys
import tempfile

OWNER = ("sim/results/results_document.h", "sim/results/results_document.cpp")
# Keys of a results document that no other format of ringsim uses.
KEYS = ('"results"', '"time_stats"', '"algbw_GBps"', '"busbw_GBps"', '"closed_form_s"', '"cost_model"')
LINE_COMMENT = re.compile(r"//.*$")


def problems(root):
    found = []
    for folder, _, names in os.walk(os.path.join(root, "sim")):
        for name in sorted(names):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.relpath(os.path.join(folder, name), root)
            if path in OWNER:
                continue
            with open(os.path.join(root, path), encoding="utf-8") as text:
                for number, line in enumerate(text, start=1):
                    code = LINE_COMMENT.sub("", line)
                    for key in KEYS:
                        if key in code:
                            found.append(f"{path}:{number}: names the results key {key}; read and write results "
                                         f"through ResultsDocument (sim/results/results_document.h)")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "sim", "sweep"))
        os.makedirs(os.path.join(root, "sim", "results"))
        with open(os.path.join(root, "sim", "results", "results_document.cpp"), "w") as f:
            f.write('json["results"] = rows;\n')
        with open(os.path.join(root, "sim", "sweep", "merge.cpp"), "w") as f:
            f.write('// "results" in a comment is fine\ndocument["results"] = rows;\n')
        found = problems(root)
        if len(found) != 1 or not found[0].startswith("sim/sweep/merge.cpp:2:"):
            print(f"self-test: expected one problem in sim/sweep/merge.cpp:2, got {found}")
            return 1
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    found = problems(args.root)
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
