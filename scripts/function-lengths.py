#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lists the longest functions of C++/CUDA sources by brace matching, not by eye.

A function is a brace block, outside any other function, whose header (the code since the
last ';', '{' or '}') holds a ')' and does not end in a brace initialiser; a lambda or a local
class inside a function counts towards that function. Its length runs from the header's first
line to the closing brace, both included. Comments, strings, character literals and
preprocessor lines are blanked first, so braces in them do not count.

usage: function-lengths.py [--max N] [--top K] PATH...   (folders are searched for
       .h .hpp .cpp .cu .cuh); with --max, exits 1 when a function is longer than N lines.
"""
import argparse
import os
import re
import sys

EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")


def blank(text):
    """Replaces comments, string/char literals and preprocessor lines by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        m = re.match(r'R"([^(\s]*)\(', text[i:i + 40]) if c == "R" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if m:  # raw string literal
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()) and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")  # digit separator, 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(n, j + 1)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        out.append(c)
        line_start = c == "\n" or (line_start and c in " \t")
        i += 1
    return "".join(out)


def functions(path):
    """Yields (first line, last line, name) of every outermost function body in the file."""
    text = blank(open(path, encoding="utf-8", errors="replace").read())
    stack = []  # kinds of the open blocks: 'function', 'scope' (namespace, class) or 'init'
    header_start = 0  # offset where the current header began
    results = []
    line_of = lambda off: text.count("\n", 0, off) + 1
    for i, c in enumerate(text):
        if c == ";":
            if "init" not in stack:
                header_start = i + 1
        elif c == "{":
            in_function = "function" in stack
            header = text[header_start:i]
            if in_function:
                stack.append("inner")
                continue
            stripped = header.strip()
            if ")" in stripped and not re.search(r"(=|\b[A-Za-z_]\w*|>|,|\()\s*$", stripped.split(")")[-1]) \
                    or re.search(r"\)\s*(const|noexcept|override|final|mutable|->[^{]*|\s)*$", stripped):
                if re.match(r"^(namespace|extern)\b", stripped) or re.search(r"\b(class|struct|union|enum)\b[^()]*$", stripped):
                    stack.append("scope")
                else:
                    stack.append("function")
                    start = header_start + (len(header) - len(header.lstrip()))
                    name = re.findall(r"([~\w:<>]+)\s*\(", stripped)
                    results.append([line_of(start), None, name[0] if name else "?", len(stack)])
            elif re.search(r"(=|\b[A-Za-z_]\w*|>|\)|,)\s*$", stripped) and not re.match(r"^(namespace|extern)\b", stripped) \
                    and not re.search(r"\b(class|struct|union|enum)\b", stripped):
                stack.append("init")  # a brace initialiser: part of the header
                continue
            else:
                stack.append("scope")
            header_start = i + 1
        elif c == "}":
            kind = stack.pop() if stack else "scope"
            if kind == "function":
                for r in reversed(results):
                    if r[1] is None:
                        r[1] = line_of(i)
                        break
            if kind != "init" and "init" not in stack:
                header_start = i + 1
    return [(a, b, name) for a, b, name, _ in results if b is not None]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max", type=int, default=0)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, f) for f in sorted(names) if f.endswith(EXTENSIONS)]
        else:
            files.append(p)
    rows = []
    for f in files:
        for first, last, name in functions(f):
            rows.append((last - first + 1, f, first, name))
    rows.sort(reverse=True)
    for length, f, first, name in rows[: a.top]:
        print(f"{length:5d}  {f}:{first}  {name}")
    if a.max and rows and rows[0][0] > a.max:
        over = sum(1 for r in rows if r[0] > a.max)
        print(f"{over} function(s) over {a.max} lines", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
