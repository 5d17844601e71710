#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints a markdown table of ptxas resource usage (registers, stack frame, spills, shared
memory) per kernel, from the output of `nvcc -Xptxas -v`, with demangled names.

usage: scripts/ptxas_report.py PTXAS_LOG [NAME_FILTER_REGEX]
"""
import re
import subprocess
import sys


# vbm::Resolver's enumerators in order (vbm/include/vbm/Resolver.h).
RESOLVERS = ["NanoVDB13", "computeBoxStencil", "forEachBoxStencil", "computeBoxStencilCached",
             "forEachBoxStencilCached", "computeCrossStencil", "computeCrossStencilCached"]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    text = open(sys.argv[1]).read().splitlines()
    want = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    kernels, cur = {}, None
    for line in text:
        m = re.search(r"Compiling entry function '(\S+)' for '(sm_\d+)'", line)
        if m:
            cur = m.group(1)
            kernels[cur] = {"arch": m.group(2)}
            continue
        if cur is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            kernels[cur].update(stack=int(m.group(1)), spill=int(m.group(2)) + int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            s = re.search(r"(\d+) bytes smem", line)
            kernels[cur].update(regs=int(m.group(1)), smem=int(s.group(1)) if s else 0)
    names = list(kernels)
    demangled = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    print("| kernel | arch | registers | stack frame B | spill B | static smem B |")
    print("|---|---|---|---|---|---|")
    for raw, name in zip(names, demangled):
        short = re.sub(r"^void ", "", name).replace("(anonymous namespace)::", "")
        short = re.sub(r"^(vbm::)?(cuda::)?", "", short)
        short = short.split("(nanovdb::")[0].split("(")[0] if "<" not in short else short[: short.index(">(") + 1] if ">(" in short else short
        short = re.sub(r"\(vbm::Resolver\)(\d)", lambda m: RESOLVERS[int(m.group(1))], short)
        if want and not want.search(short):
            continue
        k = kernels[raw]
        print(f"| `{short}` | {k['arch']} | {k.get('regs','?')} | {k.get('stack','?')} | {k.get('spill','?')} | {k.get('smem','?')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
