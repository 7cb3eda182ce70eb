#!/usr/bin/env python3
"""Checks the tree's #include graph against the layer order written in ARCHITECTURE.md.

ARCHITECTURE.md holds a fenced block tagged `layers`: one folder a line (its first word), lowest
layer first. A file belongs to the layer of the longest listed folder that holds it. The check fails
(exit 1, one line per problem) when
  - a C++ file (.h, .cpp) lies in no listed layer (code outside the layers, e.g. in a data folder),
  - a quoted #include does not name a file relative to the including file (the tree's style; an
    include the check cannot resolve is one it cannot judge),
  - a file includes a file of a higher layer,
  - a listed folder does not exist, or (with --layout) the folder table of docs/layout.md and the layers
    disagree: every layer must have a row, every row's folder must exist, every folder holding sources
    must have a row of its own or its parent's.
--self-test runs the check on small generated trees, one per rule, and fails unless each is caught.
"""

import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "style"))
from tree_cases import run_cases  # noqa: E402  (the shared self-test runner of the tree checks)

SOURCE_SUFFIXES = (".h", ".hpp", ".cpp", ".cc")
QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
LAYERS_FENCE = re.compile(r"^```layers\s*$")
LAYOUT_ROW_FOLDER = re.compile(r"^\|\s*`([^`]+/)`\s*\|")


def read_layers(architecture_path):
    """The folders of the `layers` block, lowest first."""
    layers, inside = [], False
    with open(architecture_path, encoding="utf-8") as text:
        for line in text:
            if not inside:
                inside = bool(LAYERS_FENCE.match(line))
            elif line.startswith("```"):
                return layers
            elif line.strip():
                layers.append(line.split()[0].rstrip("/"))
    raise SystemExit(f"{architecture_path}: no closed ```layers block")


def tree_files(root, use_git):
    """Files of the tree: git's tracked and unignored ones in a checkout, else every file below ROOT."""
    try:
        if not use_git:
            raise FileNotFoundError("git not asked")
        listed = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                                check=True, capture_output=True, text=True).stdout.split("\n")
        return [f for f in listed if f and os.path.isfile(os.path.join(root, f))]
    except (subprocess.CalledProcessError, FileNotFoundError):
        found = []
        for folder, subfolders, names in os.walk(root):
            # Not the tree's own: hidden folders, build directories (CMake writes C++ there), npm's.
            subfolders[:] = [s for s in subfolders
                             if not s.startswith((".", "build")) and s != "node_modules"]
            found += [os.path.relpath(os.path.join(folder, n), root) for n in names]
        return found


def layer_of(path, layers):
    """Index of the layer holding PATH (longest listed folder that contains it), or None."""
    best = None
    for index, folder in enumerate(layers):
        if path.startswith(folder + "/") and (best is None or len(folder) > len(layers[best])):
            best = index
    return best


def include_problems(root, files, layers):
    problems = []
    present = set(files)
    for path in sorted(f for f in files if f.endswith(SOURCE_SUFFIXES)):
        layer = layer_of(path, layers)
        if layer is None:
            problems.append(f"{path}: C++ file in no layer of ARCHITECTURE.md")
            continue
        with open(os.path.join(root, path), encoding="utf-8") as text:
            for number, line in enumerate(text, start=1):
                match = QUOTED_INCLUDE.match(line)
                if not match:
                    continue
                target = os.path.normpath(os.path.join(os.path.dirname(path), match.group(1)))
                if target not in present:
                    problems.append(f'{path}:{number}: #include "{match.group(1)}" names no file of the tree')
                    continue
                target_layer = layer_of(target, layers)
                if target_layer is not None and target_layer > layer:
                    problems.append(f"{path}:{number}: {layers[layer]} includes {target}, of the higher layer "
                                    f"{layers[target_layer]}")
    return problems


def layout_folders(layout_path):
    """Folders named in the first column of the layout's folder table (the table headed `| folder |`)."""
    folders, inside = [], False
    with open(layout_path, encoding="utf-8") as text:
        for line in text:
            if not inside:
                inside = line.startswith("| folder |")
            elif not line.startswith("|"):
                break
            else:
                match = LAYOUT_ROW_FOLDER.match(line)
                if match:
                    folders.append(match.group(1).rstrip("/"))
    return folders


def layout_problems(root, files, layers, layout_path):
    problems = []
    rows = layout_folders(layout_path)
    for folder in layers:
        if folder not in rows:
            problems.append(f"{layout_path}: the folder table has no row for the layer {folder}/")
    for folder in rows:
        if not os.path.isdir(os.path.join(root, folder)):
            problems.append(f"{layout_path}: the folder table names {folder}/, which does not exist")
    source_folders = {os.path.dirname(f) for f in files if f.endswith(SOURCE_SUFFIXES)}
    for folder in sorted(source_folders - {""}):
        parts = folder.split("/")
        if not any("/".join(parts[:n]) in rows for n in range(1, len(parts) + 1)):
            problems.append(f"{layout_path}: the folder table has no row for {folder}/ or a folder above it")
    return problems


def check(root, architecture, layout, use_git=True):
    layers = read_layers(architecture)
    problems = [f"{architecture}: the layer {folder}/ does not exist" for folder in layers
                if not os.path.isdir(os.path.join(root, folder))]
    files = tree_files(root, use_git)
    problems += include_problems(root, files, layers)
    if layout:
        problems += layout_problems(root, files, layers, layout)
    return problems


def self_test():
    """Each rule on a tree of its own: the sound tree passes, each broken one fails with its line."""
    architecture = "# A\n\n```layers\nlow   the lower layer\nhigh  the higher layer\n```\n"
    layout = "# L\n\n## Folders\n\n| folder | holds |\n|---|---|\n| `low/` | x |\n| `high/` | y |\n\n| `other/` | z |\n"
    sound = {"ARCHITECTURE.md": architecture, "docs/layout.md": layout, "low/base.h": "#pragma once\n",
             "high/user.cpp": '#include "../low/base.h"\n#include <vector>\n'}
    cases = [
        ("sound tree", {}, None),
        ("upward include", {"low/base.cpp": '#include "base.h"\n#include "../high/user.h"\n',
                            "high/user.h": "#pragma once\n"}, "low includes high/user.h, of the higher layer high"),
        ("code in no layer", {"data/reader.cpp": "int x;\n"}, "data/reader.cpp: C++ file in no layer"),
        ("unresolved include", {"high/user.cpp": '#include "base.h"\n'}, 'names no file of the tree'),
        ("layer missing from the layout", {"docs/layout.md": layout.replace("| `high/` | y |\n", "")},
         "the folder table has no row for the layer high/"),
        ("layout row without folder", {"docs/layout.md": layout.replace("| `high/` | y |\n", "| `high/` | y |\n| `gone/` | z |\n")},
         "the folder table names gone/, which does not exist"),
    ]
    return run_cases(sound, cases, lambda root: check(root, os.path.join(root, "ARCHITECTURE.md"),
                                                     os.path.join(root, "docs", "layout.md"), use_git=False))

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", help="the tree (default: the repository holding this script)")
    parser.add_argument("--layout", action="store_true", help="also check the folder table of docs/layout.md")
    parser.add_argument("--self-test", action="store_true", help="check the checker on generated trees")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = args.root or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    problems = check(root, os.path.join(root, "ARCHITECTURE.md"),
                     os.path.join(root, "docs", "layout.md") if args.layout else None)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print("include layers: every #include follows ARCHITECTURE.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
