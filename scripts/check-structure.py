#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the code's shape against docs/architecture.md, so the layering shows and holds:

  layering   every quoted #include of a folder resolves into a folder it may include
             (the table below, DESIGN.md's "may include" column);
  sizes      no file in vbm/ or solver/ over 450 lines, no function in them or app/ over 120
             lines (scripts/function-lengths.py's brace-matching count);
  licenses   every tracked source file (C++, CUDA, GLSL, CMake, shell, Python) names its
             license, Apache-2.0 (LICENSE), in an SPDX line among its first two lines;
  units      the solver's units per step (solver/CMakeLists.txt, VBM_SOLVER_UNITS): each named
             class has its header and its *Impl.h, every tracked *Impl.h is named there, and no
             tracked source includes an *Impl.h (only the generated units do), so no other unit
             compiles a step's kernels.

usage: check-structure.py [layering|sizes|licenses|units]...   (default: all); exit 1 on a violation.
"""
import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# folder -> folders its quoted includes may reach (its own folder always may)
MAY_INCLUDE = {
    "vbm/include/vbm": [],
    "solver/api": ["vbm/include/vbm"],
    "solver/kernels": ["solver/api", "vbm/include/vbm"],
    "solver/exec": ["solver/kernels", "solver/api", "vbm/include/vbm"],
    "solver/domain": ["solver/exec", "solver/kernels", "solver/api", "vbm/include/vbm"],
    "solver/steps": ["solver/domain", "solver/exec", "solver/kernels", "solver/api", "vbm/include/vbm"],
    "solver/grids": ["solver/api", "vbm/include/vbm"],
    "solver/scene": ["solver/grids", "solver/domain", "solver/kernels", "solver/api", "vbm/include/vbm"],
    "solver": ["solver/scene", "solver/grids", "solver/steps", "solver/domain", "solver/exec", "solver/kernels",
               "solver/api", "vbm/include/vbm"],
    "check": ["solver/api", "vbm/include/vbm"],
    "cli": ["solver/api", "vbm/include/vbm"],
    "render": ["shaders", "solver/api", "vbm/include/vbm"],
    "shaders": [],
    "app": ["render", "shaders", "cli", "check", "solver/api", "vbm/include/vbm"],
    "bench": ["cli", "check", "solver/api", "vbm/include/vbm"],
}
# headers CMake writes into the build tree
GENERATED = {"BuiltinScenes.inc", "PNanoVDB.h", "GitCommit.h"} | {p + "_spv.h" for p in ("range", "coarse", "light", "volume", "upscale", "coarse_mesh", "volume_mesh")}
SOURCE_EXT = (".h", ".hpp", ".cpp", ".cu", ".cuh", ".comp")


def folder_of(path):
    rel = os.path.relpath(os.path.dirname(path), ROOT)
    return rel.replace(os.sep, "/")


def candidates(name, including_dir):
    """Folders (relative to ROOT) in which a quoted include could be found: beside the including
    file, or under an include root ("vbm/X.h" under vbm/include, "steps/X.h" under solver)."""
    found = []
    roots = [including_dir] + list(MAY_INCLUDE) + ["solver", "vbm/include", "check", "tests"]
    for folder in roots:
        target = os.path.join(ROOT, folder, name)
        if os.path.isfile(target):
            f = folder_of(target)
            if f not in found:
                found.append(f)
    return found


def quoted_includes(path):
    """(line number, name) of each quoted #include of the file at path."""
    for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m:
            yield n, m.group(1)


def tracked_files():
    """The repository's tracked files (git ls-files), relative to ROOT; raises when git fails."""
    import subprocess
    out = subprocess.run(["git", "-C", ROOT, "ls-files"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"git ls-files failed in {ROOT}: {out.stderr.strip()}")
    return out.stdout.splitlines()


def check_layering():
    bad = []
    for folder, allowed in MAY_INCLUDE.items():
        d = os.path.join(ROOT, folder)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if not (os.path.isfile(path) and name.endswith(SOURCE_EXT)):
                continue
            for n, name_included in quoted_includes(path):
                if os.path.basename(name_included) in GENERATED:
                    continue
                where = candidates(name_included, folder)
                ok = [f for f in where if f == folder or f in allowed]
                if not where:
                    bad.append(f"{folder}/{name}:{n}: \"{name_included}\" is not a file of the project")
                elif not ok:
                    bad.append(f"{folder}/{name}:{n}: \"{name_included}\" is in {where[0]}/, which {folder}/ may not include")
    return bad


def check_sizes():
    spec = importlib.util.spec_from_file_location("fl", os.path.join(ROOT, "scripts", "function-lengths.py"))
    fl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fl)
    bad = []
    for folder, max_function, max_file in (("vbm", 120, 450), ("solver", 120, 450), ("app", 120, None)):
        for root, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(names):
                if not name.endswith(fl.EXTENSIONS):
                    continue
                path = os.path.join(root, name)
                rel = os.path.relpath(path, ROOT)
                lines = sum(1 for _ in open(path, encoding="utf-8", errors="replace"))
                if max_file and lines > max_file:
                    bad.append(f"{rel}: {lines} lines (at most {max_file} in {folder}/)")
                for first, last, fn in fl.functions(path):
                    if last - first + 1 > max_function:
                        bad.append(f"{rel}:{first}: {fn} is {last - first + 1} lines (at most {max_function})")
    return bad


SPDX_LINE = "SPDX-License-Identifier: Apache-2.0"
LICENSED_EXT = SOURCE_EXT + (".glsl", ".sh", ".py", ".cmake", ".cmake.in")


def check_licenses():
    """Tracked sources (git ls-files) whose first two lines lack the SPDX line."""
    try:
        files = tracked_files()
    except RuntimeError as e:
        return [str(e)]
    bad = []
    for rel in files:
        name = os.path.basename(rel)
        if not (rel.endswith(LICENSED_EXT) or name == "CMakeLists.txt") or rel.startswith("docs/"):
            continue
        path = os.path.join(ROOT, rel)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            head = [f.readline() for _ in range(2)]
        if not any(SPDX_LINE in line for line in head):
            bad.append(f"{rel}: no '{SPDX_LINE}' line at the top")
    return bad


def check_units():
    text = open(os.path.join(ROOT, "solver", "CMakeLists.txt"), encoding="utf-8").read()
    m = re.search(r"set\(VBM_SOLVER_UNITS([^)]*)\)", text)
    if not m:
        return ["solver/CMakeLists.txt: no set(VBM_SOLVER_UNITS ...)"]
    units = m.group(1).split()
    bad = []
    for u in units:
        for f in (u + ".h", u + "Impl.h"):
            if not os.path.isfile(os.path.join(ROOT, "solver", f)):
                bad.append(f"VBM_SOLVER_UNITS names {u}, but solver/{f} is missing")
    try:
        files = tracked_files()
    except RuntimeError as e:
        return bad + [str(e)]
    for rel in files:
        if rel.startswith("solver/") and rel.endswith("Impl.h") and rel[len("solver/"):-len("Impl.h")] not in units:
            bad.append(f"{rel}: not compiled: add {rel[len('solver/'):-len('Impl.h')]} to VBM_SOLVER_UNITS "
                       "(solver/CMakeLists.txt)")
        path = os.path.join(ROOT, rel)
        if not rel.endswith(SOURCE_EXT) or os.path.islink(path) or not os.path.isfile(path):
            continue
        for n, name in quoted_includes(path):
            if name.endswith("Impl.h"):
                bad.append(f"{rel}:{n}: includes {name}, which only its generated units may")
    return bad


CHECKS = {"layering": lambda: check_layering(), "sizes": lambda: check_sizes(),
          "licenses": lambda: check_licenses(), "units": lambda: check_units()}


def main():
    which = sys.argv[1:] or list(CHECKS)
    bad = []
    for w in which:
        if w not in CHECKS:
            print(__doc__)
            return 2
        problems = CHECKS[w]()
        print(f"{w}: {'ok' if not problems else str(len(problems)) + ' problem(s)'}")
        bad += problems
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
