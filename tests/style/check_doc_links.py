#!/usr/bin/env python3
"""Checks that README.md and docs/*.md point only at things that exist; exit 1 (one line each) if not.

Two kinds of reference are checked:
  - markdown links and images, [text](target): a relative target must name a file or folder relative to
    the file that links; a #fragment, in the same file or another markdown file, must be the anchor of
    one of its headings (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens, -1, -2
    for repeats). URLs (scheme:...) are not followed.
  - repository paths in inline code and code blocks: a word that starts with a top-level folder or file
    of the repository (`tools/check.sh`, `scenarios/x.json`, `sim/...`, `ARCHITECTURE.md`) must exist,
    relative to the repository root. Placeholders are wildcards: `*`, `{a,b}` alternatives, and
    a path segment written in capitals (`tests/fuzz/corpus/TARGET/`). What the build makes is not
    checked: paths under build/ or build-*/ and npm's node_modules.
--self-test runs the check on small generated trees, one per rule, and fails unless each is caught.
"""

import glob
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from tree_cases import run_cases, tree_check_main

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"(`+)([^`][\s\S]*?)\1")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
PLACEHOLDER_SEGMENT = re.compile(r"^[A-Z][A-Z0-9_]*$")
BRACES = re.compile(r"\{([^{}]*,[^{}]*)\}")
TRAILING = ".,;:)]}'\"!?"
LEADING = "([{'\"<"


def documents(root):
    """README.md and every markdown file of docs/, as paths relative to ROOT."""
    found = ["README.md"] if os.path.isfile(os.path.join(root, "README.md")) else []
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        found += sorted(os.path.join("docs", n) for n in os.listdir(docs) if n.endswith(".md"))
    return found


def split_code(lines):
    """(line number, prose, [code texts]) per stretch of text: the prose outside code, the code spans
    (which may run over a line break) and each line of a fenced block apart."""
    inside, stretch, start = False, [], 1
    for number, line in enumerate(lines + [None], start=1):
        if line is None or FENCE.match(line) or inside:
            if stretch:
                yield from split_spans("\n".join(stretch), start)
                stretch = []
            if line is None:
                return
            if FENCE.match(line):
                inside = not inside
            else:
                yield number, "", [line]
            continue
        if not stretch:
            start = number
        stretch.append(line)


def split_spans(text, first_line):
    """The prose and code spans of TEXT, a stretch outside code blocks, each with its line number."""
    position = 0
    for match in INLINE_CODE.finditer(text):
        yield first_line + text.count("\n", 0, position), text[position:match.start()], []
        yield first_line + text.count("\n", 0, match.start()), "", [match.group(2)]
        position = match.end()
    yield first_line + text.count("\n", 0, position), text[position:], []


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"<[^>]+>", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    text = text.lower().replace("`", "")
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(path):
    """Every heading anchor of the markdown file PATH (outside code blocks)."""
    seen, result, inside = {}, set(), False
    with open(path, encoding="utf-8") as text:
        for line in text:
            if FENCE.match(line):
                inside = not inside
                continue
            match = None if inside else HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                result.add(base if count == 0 else f"{base}-{count}")
    return result


def link_problems(root, document, number, target):
    if SCHEME.match(target) or target.startswith("//"):
        return []
    where = f"{document}:{number}"
    path_part, _, fragment = target.partition("#")
    base = os.path.dirname(os.path.join(root, document))
    linked = os.path.normpath(os.path.join(base, path_part)) if path_part else os.path.join(root, document)
    if not os.path.exists(linked):
        return [f"{where}: link to {target}: {path_part} does not exist"]
    if fragment and linked.endswith(".md") and os.path.isfile(linked) and fragment not in anchors(linked):
        return [f"{where}: link to {target}: no heading of {os.path.relpath(linked, root)} has the anchor #{fragment}"]
    return []


def expand_braces(word):
    match = BRACES.search(word)
    if not match:
        return [word]
    return [w for choice in match.group(1).split(",")
            for w in expand_braces(word[:match.start()] + choice + word[match.end():])]


def is_generated(word):
    parts = word.split("/")
    return parts[0] == "build" or parts[0].startswith("build-") or "node_modules" in parts


def path_exists(root, word):
    """Whether WORD, a path relative to ROOT with placeholders, names something that exists: every
    alternative of its braces, each wildcard matching at least once."""
    for candidate in expand_braces(word):
        parts = ["*" if PLACEHOLDER_SEGMENT.match(p) else p for p in candidate.rstrip("/").split("/")]
        pattern = os.path.join(root, *parts)
        if not (glob.glob(pattern) if glob.has_magic(pattern) else os.path.exists(pattern)):
            return False
    return True


def strip_punctuation(word):
    """WORD without the punctuation around it; a closing bracket stays when the word opened it."""
    word = word.lstrip(LEADING)
    while word and word[-1] in TRAILING:
        closer = word[-1]
        opener = {")": "(", "]": "[", "}": "{"}.get(closer)
        if opener and word.count(opener) >= word.count(closer):
            break
        word = word[:-1]
    return word


def code_paths(code, top_level):
    """The words of CODE that name repository paths: they start with a top-level entry of the tree."""
    for word in code.split():
        word = strip_punctuation(word)
        word = re.sub(r":\d+(-\d+)?$", "", word)  # file:line
        if "=" in word:  # VAR=path
            word = word.split("=", 1)[1]
        first = word.split("/", 1)[0]
        if first in top_level and (("/" in word) or "." in first) and not is_generated(word):
            yield word


def check(root):
    top_level = {n for n in os.listdir(root) if not n.startswith(".") and not is_generated(n)}
    problems, checked = [], 0
    for document in documents(root):
        with open(os.path.join(root, document), encoding="utf-8") as text:
            lines = text.read().split("\n")
        for number, prose, codes in split_code(lines):
            for match in LINK.finditer(prose):
                checked += 1
                line = number + prose.count("\n", 0, match.start())
                problems += link_problems(root, document, line, match.group(1))
            for code in codes:
                for word in code_paths(code, top_level):
                    checked += 1
                    if not path_exists(root, word):
                        problems.append(f"{document}:{number}: names {word}, which does not exist")
    return problems, checked


def self_test():
    """Each rule on a tree of its own: the sound tree passes, each broken one fails with its line."""
    readme = ("# R\n\nSee [the guide](docs/guide.md#two-words), [here](#r), `tools/run.sh --x`,\n"
              "`tests/TARGET/seed-*` and `sim/a.{h,cpp}`; `build/out` is made (by `tools/run.sh\n--in data/p.png`).\n\n"
              "```sh\ntools/run.sh data/\n```\n")
    guide = "# Guide\n\n## Two `words`\n\nBack to [README](../README.md), [up](#guide), ![p](../data/p.png).\n"
    sound = {"README.md": readme, "docs/guide.md": guide, "tools/run.sh": "", "data/p.png": "",
             "tests/fuzz/seed-1": "", "sim/a.h": "", "sim/a.cpp": ""}
    cases = [
        ("sound tree", {}, None),
        ("broken relative link", {"docs/guide.md": guide.replace("../README.md", "../READ.md")},
         "docs/guide.md:5: link to ../READ.md: ../READ.md does not exist"),
        ("broken image", {"docs/guide.md": guide.replace("p.png", "q.png")}, "../data/q.png does not exist"),
        ("broken anchor", {"README.md": readme.replace("#two-words", "#three-words")},
         "no heading of docs/guide.md has the anchor #three-words"),
        ("broken path in inline code", {"README.md": readme.replace("tools/run.sh --x", "tools/walk.sh --x")},
         "README.md:3: names tools/walk.sh, which does not exist"),
        ("broken path in a code block", {"README.md": readme.replace("run.sh data/", "run.sh data/missing.json")},
         "README.md:8: names data/missing.json"),
        ("broken path in a code span over a line break", {"README.md": readme.replace("data/p.png", "data/q.png")},
         "README.md:4: names data/q.png"),
        ("broken alternative", {"README.md": readme.replace("{h,cpp}", "{h,hpp}")}, "names sim/a.{h,hpp}"),
    ]
    return run_cases(sound, cases, lambda root: check(root)[0])


if __name__ == "__main__":
    sys.exit(tree_check_main(__doc__, check, self_test,
                             lambda root, checked: f"doc links: all {checked} links and repository paths of {', '.join(documents(root))} exist"))
