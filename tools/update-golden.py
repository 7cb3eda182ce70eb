#!/usr/bin/env python3
"""Re-records the expected output ("> " lines) of every command ("$ " line) of a .tesh file.

usage: tools/update-golden.py BINDIR FILE.tesh...   (run from anywhere; commands run in the file's
directory, as CTest's tesh does). Review the diff before committing: the golden files are the spec.
"""
import os
import subprocess
import sys


def rerecord(bindir, path):
    lines = open(path).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ ") or line.startswith("! "):
            out.append(line)
            command = None
            if line.startswith("$ "):
                command = line[2:].replace("${bindir}", bindir)
            i += 1
            # keep the command's directives ("! expect return 2"), drop its old output
            while i < len(lines) and lines[i].startswith("! "):
                out.append(lines[i])
                i += 1
            while i < len(lines) and lines[i].startswith("> "):
                i += 1
            if command is not None:
                result = subprocess.run(command, shell=True, cwd=os.path.dirname(os.path.abspath(path)),
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                out.extend("> " + l for l in result.stdout.rstrip("\n").split("\n") if result.stdout)
            continue
        out.append(line)
        i += 1
    open(path, "w").write("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for f in sys.argv[2:]:
        rerecord(os.path.abspath(sys.argv[1]), f)
