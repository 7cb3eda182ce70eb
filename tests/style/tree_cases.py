"""Self-tests of the tree checks (tests/style, tests/layers): each rule on a small generated tree."""

import argparse
import re
import os
import tempfile


def write_tree(root, files):
    """Writes FILES ({relative path: text}) below ROOT, making folders as needed."""
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as out:
            out.write(text)


def run_cases(sound, cases, problems_of):
    """Each case (name, changes to the SOUND tree, expected text of a problem or None for none) on a
    tree of its own; PROBLEMS_OF(root) lists a tree's problems. Prints one line per case; returns 1
    unless every case came out as expected."""
    failures = 0
    for name, changes, expected in cases:
        with tempfile.TemporaryDirectory() as root:
            write_tree(root, {**sound, **changes})
            problems = problems_of(root)
        caught = any(expected in p for p in problems) if expected else not problems
        print(f"{'ok' if caught else 'FAILED'}: {name}: {problems or 'no problem found'}")
        failures += not caught
    return 1 if failures else 0


def tree_check_main(doc, check, self_test, summary):
    """The command line of a tree check: --root (default: the repository holding the tests/ folder the
    check is in) or --self-test. CHECK(root) gives (problems, count checked); each problem is printed
    and makes it exit 1, else SUMMARY(root, checked) is printed."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--root", help="the tree (default: the repository holding this script)")
    parser.add_argument("--self-test", action="store_true", help="check the checker on generated trees")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    root = args.root or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    problems, checked = check(root)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(summary(root, checked))
    return 0


COMMENT = re.compile(r'//[^\n]*|/\*[\s\S]*?\*/')
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def without_comments(text, strings=False):
    """TEXT with its comments (and with STRINGS its string literals' contents) blanked, line breaks kept
    (so line numbers hold)."""
    text = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return STRING.sub(lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', text) if strings else text


def sim_sources(root, skipped):
    """The C++ files of sim/ outside the folder SKIPPED (e.g. sim/platform), relative to ROOT, sorted."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(root, "sim")):
        dirs[:] = sorted(d for d in dirs if os.path.relpath(os.path.join(folder, d), root) != skipped)
        found += [os.path.relpath(os.path.join(folder, f), root) for f in files if f.endswith((".cpp", ".h", ".hpp"))]
    return sorted(found)


def rule_problems(root, skipped, rules, advice, strings=False):
    """(problems, files checked): one problem per line of sim/ outside SKIPPED that a rule of RULES
    ((what, regex) pairs, the first that matches) catches in code, each ending with ADVICE."""
    problems, paths = [], sim_sources(root, skipped)
    for path in paths:
        with open(os.path.join(root, path), encoding="utf-8") as source:
            lines = without_comments(source.read(), strings).split("\n")
        for number, line in enumerate(lines, start=1):
            for what, rule in rules:
                match = rule.search(line)
                if match:
                    problems.append(f"{path}:{number}: {what} ({match.group(0).strip()}): {advice}")
                    break
    return problems, len(paths)
