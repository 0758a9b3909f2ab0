#!/usr/bin/env python3
"""Fail when a C function in src/ is longer than the house limit.

    python3 scripts/check-function-length.py [--max N] [--self-test] [FILE ...]

A function is counted from the line that names it to its closing brace,
both included (comments and blank lines inside count too).  The files are
those of src/*/ (*.c and *.h) unless given.  PostgreSQL's layout makes
definitions easy to find without a C parser: the name starts a line
("bloom_add(BloomFilter *bf, ...)"), the opening brace is alone at the
start of a line after the parameter list, and the closing brace is alone
at the start of a line.  Structs, unions and initializers also open with a
brace at the start of a line, but the line before it does not end with the
")" of a parameter list.

Prints each function over the limit as FILE:LINE: NAME is N lines (limit M)
and exits 1 if there is any; run by `make check-style`, which first runs
--self-test: a file with functions of exactly the limit and one line over
it, and a struct and an initializer longer than both, must give exactly one
report, that of the longer function.
"""
import argparse
import glob
import os
import re
import sys
import tempfile

LIMIT = 80
NAME_LINE = re.compile(r"^([A-Za-z_]\w*)\s*\(")


def functions(path):
    """(name, first line, last line) of each function defined in path."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        if lines[i] != "{" or i == 0 or not lines[i - 1].rstrip().endswith(")"):
            i += 1
            continue
        # the name is at the start of the signature's first line
        start = i - 1
        while start > 0 and not NAME_LINE.match(lines[start]):
            start -= 1
        end = i + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        match = NAME_LINE.match(lines[start])
        if match and end < len(lines):
            found.append((match.group(1), start + 1, end + 1))
        i = end + 1
    return found


def function_text(name, length):
    """A function of exactly length lines, as PostgreSQL lays one out."""
    body = ["\tx += %d;" % i for i in range(length - 4)]
    return "\n".join(["static int", name + "(int x)", "{"] + body + ["\treturn x;", "}"])


def self_test(limit):
    """Whether the search finds exactly the function over the limit."""
    fields = "".join("\tint\t\tf%d;\n" % i for i in range(limit + 10))
    values = "".join("\t%d,\n" % i for i in range(limit + 10))
    text = "\n\n".join([
        function_text("at_limit", limit),
        function_text("over_limit", limit + 1),
        "typedef struct LongStruct\n{\n" + fields + "} LongStruct;",
        "static const int long_table[] =\n{\n" + values + "};",
    ]) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
        f.write(text)
    try:
        found = [(name, last - first + 1) for name, first, last in functions(f.name)]
    finally:
        os.unlink(f.name)
    over = [(name, n) for name, n in found if n > limit]
    ok = over == [("over_limit", limit + 1)] and ("at_limit", limit) in found
    print("check-function-length: self-test " + ("passed" if ok else "FAILED: %r" % found))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max", type=int, default=LIMIT)
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    if args.self_test:
        return self_test(args.max)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = args.files or sorted(glob.glob(os.path.join(root, "src", "**", "*.[ch]"), recursive=True))
    long_ones = 0
    for path in files:
        for name, first, last in functions(path):
            length = last - first + 1
            if length > args.max:
                long_ones += 1
                print(f"{os.path.relpath(path, root)}:{first}: {name} is {length} lines "
                      f"(limit {args.max})")
    if long_ones:
        print(f"check-function-length: {long_ones} function(s) over {args.max} lines")
        return 1
    print(f"check-function-length: every function in {len(files)} files is at most "
          f"{args.max} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
