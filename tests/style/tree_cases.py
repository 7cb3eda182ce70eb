"""Self-tests of the tree checks (tests/style, tests/layers): each rule on a small generated tree."""

import argparse
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
