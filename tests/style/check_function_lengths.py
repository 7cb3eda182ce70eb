#!/usr/bin/env python3
"""Lists the C++ functions of sim/ longer than a limit (default 60 lines); exit 1 when there is one.

A function is a brace block opened at namespace, class or file scope whose head (the text since the
previous ';', '{' or '}') has a parameter list and is not a type, namespace, or initializer. Its length
counts the lines from the first line of the head to the closing brace, both included. Comments, string
and character literals (raw strings too) are blanked before braces are counted, so braces in them do
not confuse the count; preprocessor lines are skipped. Lambdas and local classes count toward the
function around them. Approximations, said plainly: a macro that opens a brace, or a function head
split by a preprocessor conditional, can mislead it; --self-test runs it on small snippets with known
answers and fails when one is miscounted.
"""

import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".cpp", ".cc", ".h", ".hpp")
TYPE_HEAD = re.compile(r"\b(namespace|class|struct|union|enum)\b")
CONTROL_HEAD = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try)\b")
RAW_STRING = re.compile(r'R"([^()\\ ]{0,16})\(')


def blank_literals(text):
    """TEXT with comments and literals replaced by spaces (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "R" and RAW_STRING.match(text, i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            delimiter = RAW_STRING.match(text, i).group(1)
            end = text.find(")" + delimiter + '"', i)
            end = n if end < 0 else end + len(delimiter) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c in "\"'":
            # A ' between digits is a digit separator (1'000), not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def skip_preprocessor(text):
    """TEXT with preprocessor lines (and their continuations) blanked."""
    lines, continued = text.split("\n"), False
    for k, line in enumerate(lines):
        if continued or line.lstrip().startswith("#"):
            continued = line.rstrip().endswith("\\")
            lines[k] = ""
    return "\n".join(lines)


def is_function_head(head):
    head = head.strip()
    if not head or ")" not in head or TYPE_HEAD.search(head.split("(")[0]) or CONTROL_HEAD.match(head):
        return False
    # "= {" or "name{" style initializers, and "return f() {" cannot open a function body.
    return not re.search(r"(=|\breturn\b)[^()]*$", head.split(")")[-1]) and not re.search(r"\breturn\b", head)


def functions(text):
    """(name, first line, length in lines) of every function body at namespace/class/file scope."""
    code = skip_preprocessor(blank_literals(text))
    stack, found, head_start = [], [], 0  # stack: "scope" or "function" or "other" per open brace
    line_of = [0] * (len(code) + 1)
    line = 1
    for k, c in enumerate(code):
        line_of[k] = line
        if c == "\n":
            line += 1
    for k, c in enumerate(code):
        if c == "{":
            head = code[head_start:k]
            at_scope = all(entry[0] == "scope" for entry in stack)
            if at_scope and is_function_head(head):
                first = head_start + (len(head) - len(head.lstrip()))
                name = re.findall(r"([~\w:]+)\s*\(", head)
                stack.append(("function", line_of[first], name[0] if name else "?"))
            elif at_scope and TYPE_HEAD.search(head) and "(" not in head.split("{")[0].split("=")[0]:
                stack.append(("scope",))
            elif at_scope and re.fullmatch(r'\s*extern\s*(\s*)?', head):
                stack.append(("scope",))
            else:
                stack.append(("other",))
            head_start = k + 1
        elif c == "}":
            if stack:
                top = stack.pop()
                if top[0] == "function":
                    found.append((top[2], top[1], line_of[k] - top[1] + 1))
            head_start = k + 1
        elif c == ";":
            head_start = k + 1
        elif c == ":" and all(entry[0] == "scope" for entry in stack):
            # "public:" and friends end a head inside a class.
            if re.search(r"\b(public|private|protected)\s*$", code[head_start:k]):
                head_start = k + 1
    return [(name, first, length) for name, first, length in found]


def check_tree(root, limit):
    problems = []
    for folder, _, files in os.walk(os.path.join(root, "sim")):
        for file in sorted(files):
            if not file.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(folder, file)
            with open(path, encoding="utf-8") as source:
                text = source.read()
            for name, first, length in functions(text):
                if length > limit:
                    problems.append((length, f"{os.path.relpath(path, root)}:{first}: {name} is {length} lines"))
    return [text for _, text in sorted(problems, reverse=True)]


SELF_TESTS = [
    # (source, expected [(name, length)])
    ("int f(int a) {\n  return a;\n}\n", [("f", 3)]),
    ("namespace x {\nstruct S {\n  int g() const {\n    return 1;\n  }\n};\n}\n", [("g", 3)]),
    ('void h() {\n  const char* s = "}}}";\n  // }\n  if (1) {\n  }\n}\n', [("h", 6)]),
    ('const char* k = R"(\n{ void q() {\n)";\nint m(\n    int a)\n{\n  auto l = [] { return 1; };\n  return a;\n}\n',
     [("m", 6)]),
    ("std::vector<int> v{1, 2};\nint w = f(1);\nint n() { return 1'000; }\n", [("n", 1)]),
    ("class C {\n public:\n  C(int a) : a_(a) {}\n private:\n  int a_;\n};\n", [("C", 1)]),
]


def self_test():
    failures = 0
    for source, expected in SELF_TESTS:
        got = [(name, length) for name, _, length in functions(source)]
        if got != expected:
            print(f"self-test: expected {expected}, counted {got} in:\n{source}")
            failures += 1
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    parser.add_argument("--limit", type=int, default=60)
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        failures = self_test()
        print("self-test: ok" if failures == 0 else f"self-test: {failures} failed")
        return 1 if failures else 0
    problems = check_tree(os.path.abspath(args.root), args.limit)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} functions over {args.limit} lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
