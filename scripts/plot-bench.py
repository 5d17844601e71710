#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws vbm-bench's results as PNG charts.

usage: plot-bench.py [--bench FILE.json] [--solver FILE.json|FILE.md [--solver-commit C]]
                     [--upstream FILE.json [--markdown]] [--out DIR] [--tag TAG]

  --bench FILE.json     a grid run's JSON (`vbm-bench --json FILE`, GPU or `--cpu`): one chart per
                        grid, resolvers-GRID.png: median ms per variant, one bar per block width,
                        whiskers from min to max, one panel per channel count C; the dense
                        kernels (when the file has them) as dashed reference lines.
  --solver FILE         a solver run (`vbm-bench --solver SCENE`): its JSON (`--json FILE`) or
                        its printed report (stdout, markdown). step-SCENE.png: the step's phases
                        (pressure CG, advection, ...) as stacked median ms, for the default
                        resolvers and for computeBoxStencil everywhere. The JSON written today
                        holds the step totals only (a "phases" list, when present, is drawn);
                        the printed report holds every phase.
  --solver-commit C     with a report that holds several runs (docs/bench/solver-*.md), draw
                        the run of commit C (default: the first run in the file).
  --upstream FILE.json  ours against another implementation (format: docs/bench/upstream-fair-h200.json,
                        below): ours-vs-upstream.png, one panel per grid and block width, the two
                        medians side by side and upstream / ours written beside them
                        (above 1: ours is faster).
  --markdown            also print the --upstream comparison as a markdown table on stdout.
  --out DIR             where the PNGs go (default: the current folder; created if missing).
  --tag TAG             appended to every file name: resolvers-small-shell-TAG.png.

At least one of --bench, --solver, --upstream. Every file written is printed, one per line.

The --upstream format: a JSON object with "provenance" (a string: where the figures come from)
and "rows", a list of {"grid", "width", "variant", "upstreamMs", "oursMs"}; "grid" as the bench
JSON names it ("small shell"). Optional: "channels" per row (default 1), and "machine",
"upstream", "ours", "when", "consumer" (strings, printed under the chart). A row without
"oursMs" takes ours from --bench (the row of the same grid, width, variant and channels).

Matplotlib: Debian's python3-matplotlib (scripts/setup.sh installs it). Run by another python3
that cannot import it (pyenv, a venv), the script runs itself again under /usr/bin/python3.

Exit codes: 0 every chart written; 1 a chart could not be drawn or written (matplotlib missing,
DIR not writable); 2 bad usage, or an input that cannot be read, is not valid JSON or lacks a
key (the message names the file and the key).
"""
import argparse
import json
import os
import re
import sys
import textwrap

# The six resolvers in the README's order, then the peers of the GPU and the CPU bench.
RESOLVERS = ["computeBoxStencil", "forEachBoxStencil", "computeBoxStencilCached", "forEachBoxStencilCached",
             "computeCrossStencil", "computeCrossStencilCached"]
LABELS = {"NanoVDB13": "NanoVDB 13.0.0 (box)"}
SYSTEM_PYTHON = "/usr/bin/python3"
OURS_COLOUR, UPSTREAM_COLOUR = "#1f77b4", "#ff7f0e"
WIDTH_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd"]
PEER_COLOUR = "#7f7f7f"


class InputError(Exception):
    """An input the script cannot use: exit 2, the message names the file."""


# ---------------------------------------------------------------------------------------------
# Reading and checking the inputs

def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror})")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})")
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected a JSON object at the top, found {type(data).__name__}")
    return data


def need(obj, key, path, where, kind):
    """obj[key], which must be of `kind` ("number", "string", "list", "object")."""
    if not isinstance(obj, dict):
        raise InputError(f"{path}: {where} is not a JSON object")
    if key not in obj:
        raise InputError(f"{path}: {where} has no key '{key}'")
    v = obj[key]
    ok = {"number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
          "string": lambda x: isinstance(x, str),
          "list": lambda x: isinstance(x, list),
          "object": lambda x: isinstance(x, dict)}[kind]
    if not ok(v):
        raise InputError(f"{path}: {where}: key '{key}' should be a {kind}, found {json.dumps(v)[:40]}")
    return v


def optional(obj, key, path, where, kind, default=None):
    return need(obj, key, path, where, kind) if key in obj else default


def read_bench(path):
    """A grid run's JSON: its run description and its rows."""
    data = load_json(path)
    results = need(data, "results", path, "the top level", "list")
    rows = []
    for i, r in enumerate(results):
        where = f"results[{i}]"
        row = {
            "grid": need(r, "grid", path, where, "string"),
            "variant": need(r, "variant", path, where, "string"),
            "width": int(need(r, "width", path, where, "number")),
            "channels": int(need(r, "channels", path, where, "number")),
            "median": need(r, "medianMs", path, where, "number"),
            "shape": optional(r, "shape", path, where, "string", ""),
            "form": optional(r, "form", path, where, "string", ""),
        }
        row["min"] = optional(r, "minMs", path, where, "number", row["median"])
        row["max"] = optional(r, "maxMs", path, where, "number", row["median"])
        rows.append(row)
    voxels = {}
    for g in optional(data, "grids", path, "the top level", "list", []):
        if isinstance(g, dict) and isinstance(g.get("name"), str) and isinstance(g.get("activeVoxels"), int):
            voxels[g["name"]] = g["activeVoxels"]
    return {
        "path": path, "rows": rows, "voxels": voxels,
        "commit": optional(data, "commit", path, "the top level", "string", "unknown commit"),
        "device": optional(data, "device", path, "the top level", "string", "unknown device"),
        "warmup": optional(data, "warmup", path, "the top level", "number"),
        "rounds": optional(data, "rounds", path, "the top level", "number"),
        "identical": data.get("allIdentical") if isinstance(data.get("allIdentical"), bool) else None,
    }


CELL = re.compile(r"^\**\s*([0-9.]+)\s*\**\s*(?:\(\s*([0-9.]+)\s*-\s*([0-9.]+)\s*\))?\s*$")


def parse_cell(text, path, n):
    m = CELL.match(text.strip())
    if not m:
        raise InputError(f"{path}:{n}: cannot read '{text.strip()}' as 'MEDIAN (MIN-MAX)' ms")
    med = float(m.group(1))
    return med, float(m.group(2) or med), float(m.group(3) or med)


def read_solver_report(path, commit):
    """The phase table of `vbm-bench --solver`'s printed report (first run, or commit's)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror})")
    scene, run_commit, voxels, found = None, None, None, []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"#\s*vbm-bench --solver (\S+)", line)
        if m:
            scene = m.group(1)
        m = re.match(r"device: .*?; commit (\S+?);(?: (\d+) active voxels)?", line)
        if m:
            run_commit, voxels = m.group(1), int(m.group(2)) if m.group(2) else None
        if line.startswith("| phase |"):
            header = [c.strip() for c in line.strip().strip("|").split("|")]
            table = {"scene": scene, "commit": run_commit, "voxels": voxels, "line": i + 1,
                     "configs": [re.sub(r"\s*ms$", "", h) for h in header[1:3]], "phases": [], "step": None}
            i += 2  # the header and its |---| line
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if len(cells) < 3:
                    raise InputError(f"{path}:{i + 1}: a phase row needs 3 cells or more, found {len(cells)}")
                values = (parse_cell(cells[1], path, i + 1), parse_cell(cells[2], path, i + 1))
                name = cells[0].strip("* ")
                if name == "step":
                    table["step"] = values
                else:
                    table["phases"].append((name, values))
                i += 1
            found.append(table)
            continue
        i += 1
    if not found:
        raise InputError(f"{path}: no phase table ('| phase | ...', as `vbm-bench --solver` prints it)")
    if commit:
        match = [t for t in found if t["commit"] and t["commit"].startswith(commit)]
        if not match:
            have = ", ".join(str(t["commit"]) for t in found)
            raise InputError(f"{path}: no run of commit {commit} (the file's runs: {have})")
        found = match
    t = found[0]
    if t["step"] is None:
        raise InputError(f"{path}:{t['line']}: the phase table has no '**step**' row")
    if t["scene"] is None:
        raise InputError(f"{path}: no '# vbm-bench --solver SCENE' line before the phase table")
    return {"path": path, "scene": t["scene"], "commit": t["commit"] or "unknown commit", "voxels": t["voxels"],
            "configs": [{"label": t["configs"][k], "step": t["step"][k],
                         "phases": [(name, v[k]) for name, v in t["phases"]]} for k in range(2)]}


def read_solver_json(path):
    data = load_json(path)
    top = "the top level"
    scene = need(data, "scene", path, top, "string")
    default = need(data, "defaultStepMs", path, top, "number")
    box = optional(data, "computeBoxStencilStepMs", path, top, "number")
    configs = [{"label": "default resolvers", "step": (default, default, default), "phases": []}]
    if box is not None:
        configs.append({"label": "computeBoxStencil everywhere", "step": (box, box, box), "phases": []})
    for i, p in enumerate(optional(data, "phases", path, top, "list", [])):
        where = f"phases[{i}]"
        name = need(p, "phase", path, where, "string")
        configs[0]["phases"].append((name, (need(p, "defaultMs", path, where, "number"),) * 3))
        if box is not None:
            ms = need(p, "computeBoxStencilMs", path, where, "number")
            configs[1]["phases"].append((name, (ms, ms, ms)))
    return {"path": path, "scene": scene, "commit": optional(data, "commit", path, top, "string", "unknown commit"),
            "voxels": optional(data, "activeVoxels", path, top, "number"), "configs": configs}


def read_solver(path, commit):
    try:
        with open(path, "rb") as f:
            head = f.read(64).lstrip()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror})")
    if head.startswith(b"{") or path.endswith(".json"):
        if commit:
            raise InputError(f"{path}: --solver-commit applies to a printed report (.md), not to a JSON")
        return read_solver_json(path)
    return read_solver_report(path, commit)


def read_upstream(path, bench):
    data = load_json(path)
    provenance = need(data, "provenance", path, "the top level", "string")
    rows = []
    for i, r in enumerate(need(data, "rows", path, "the top level", "list")):
        where = f"rows[{i}]"
        row = {"grid": need(r, "grid", path, where, "string"), "width": int(need(r, "width", path, where, "number")),
               "variant": need(r, "variant", path, where, "string"),
               "channels": int(optional(r, "channels", path, where, "number", 1)),
               "upstream": need(r, "upstreamMs", path, where, "number")}
        if "oursMs" in r:
            row["ours"] = need(r, "oursMs", path, where, "number")
        elif bench is None:
            raise InputError(f"{path}: {where} has no key 'oursMs', and no --bench file was given to take it from")
        else:
            match = [b for b in bench["rows"] if (b["grid"], b["width"], b["variant"], b["channels"]) ==
                     (row["grid"], row["width"], row["variant"], row["channels"])]
            if not match:
                raise InputError(f"{path}: {where} has no key 'oursMs', and {bench['path']} has no row "
                                 f"{row['grid']} / {row['variant']} / w{row['width']} / C = {row['channels']}")
            row["ours"] = match[0]["median"]
        if row["ours"] <= 0 or row["upstream"] <= 0:
            raise InputError(f"{path}: {where}: the times must be positive")
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: 'rows' is empty")
    notes = [provenance] + [f"{k}: {data[k]}" for k in ("machine", "upstream", "ours", "when", "consumer")
                            if isinstance(data.get(k), str)]
    return {"path": path, "rows": rows, "notes": notes}


# ---------------------------------------------------------------------------------------------
# Drawing

def import_pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError as e:
        reason = str(e)
    here = os.path.realpath(sys.executable or "")
    if (os.environ.get("VBM_PLOT_BENCH_REEXEC") is None and os.access(SYSTEM_PYTHON, os.X_OK)
            and here != os.path.realpath(SYSTEM_PYTHON)):
        os.environ["VBM_PLOT_BENCH_REEXEC"] = "1"
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])
    print(f"plot-bench.py: error: matplotlib cannot be imported by {sys.executable} ({reason}); install "
          f"Debian's python3-matplotlib (apt-get install python3-matplotlib, or scripts/setup.sh)", file=sys.stderr)
    sys.exit(1)


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def fmt_ms(v):
    return f"{v:.4f}" if v < 1 else f"{v:.3f}"


def footnote(fig, lines, width=150):
    text = "\n".join(textwrap.fill(line, width) for line in lines)
    fig.text(0.01, 0.005, text, fontsize=7, va="bottom", ha="left", color="#444444")
    return text.count("\n") + 1


def save(plt, fig, out, name, tag, written):
    path = os.path.join(out, f"{name}{'-' + tag if tag else ''}.png")
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    written.append(path)


def variant_order(names):
    """The six resolvers first (README order; a form's suffix " (cpu)" kept), then NanoVDB's
    path, then the rest in the order the file lists them."""
    rank = {v: i for i, v in enumerate(RESOLVERS + ["NanoVDB13", LABELS["NanoVDB13"]])}
    first = {}
    for n in names:
        first.setdefault(n, len(first))
    return sorted(first, key=lambda v: (rank.get(v, rank.get(v.split(" (")[0], len(rank))), first[v]))


def row_label(row, forms_of):
    label = LABELS.get(row["variant"], row["variant"])
    if len(forms_of[row["variant"]]) > 1 and row["form"]:
        label += f" ({row['form']})"
    return label


def draw_resolvers(plt, bench, out, tag, written):
    rows = [r for r in bench["rows"] if r["shape"] not in ("decode", "-") and r["channels"] > 0
            and not r["variant"].startswith("device copy")]
    forms_of = {}
    for r in rows:
        forms_of.setdefault(r["variant"], set()).add(r["form"])
    for grid in dict.fromkeys(r["grid"] for r in rows):
        g_rows = [r for r in rows if r["grid"] == grid]
        channels = sorted({r["channels"] for r in g_rows})
        floors = [r for r in g_rows if r["variant"].startswith("dense")]
        bars = [r for r in g_rows if not r["variant"].startswith("dense")]
        labels = variant_order(row_label(r, forms_of) for r in bars)
        widths = sorted({r["width"] for r in bars if r["width"] > 0})
        slots = max(1, len(widths))
        height = 1.6 + 0.25 * len(labels) * slots
        fig, axes = plt.subplots(1, len(channels), figsize=(6.8 * len(channels), height), squeeze=False)
        for ax, c in zip(axes[0], channels):
            mine = [r for r in bars if r["channels"] == c]
            h = 0.8 / slots
            xmax = max([r["max"] for r in mine] + [r["median"] for r in floors if r["channels"] == c] + [0])
            for y, label in enumerate(labels):
                group = [r for r in mine if row_label(r, forms_of) == label]
                for r in group:
                    k = widths.index(r["width"]) if r["width"] > 0 else None
                    pos = y + (k - (slots - 1) / 2) * h if k is not None else y
                    colour = WIDTH_COLOURS[k % len(WIDTH_COLOURS)] if k is not None else PEER_COLOUR
                    whiskers = [[max(0, r["median"] - r["min"])], [max(0, r["max"] - r["median"])]]
                    ax.barh(pos, r["median"], height=h * 0.92, color=colour, xerr=whiskers,
                            error_kw={"lw": 0.8, "capsize": 2})
                    ax.text(r["max"] + xmax * 0.01, pos, fmt_ms(r["median"]), va="center", fontsize=7)
            mine_floors = [r for r in floors if r["channels"] == c]
            for i, f in enumerate(mine_floors):
                ax.axvline(f["median"], color="#d62728", ls="--", lw=1)
                ax.text(max(r["median"] for r in mine_floors), -0.6 - 0.45 * i,
                        f" {f['variant']} {fmt_ms(f['median'])} ms", color="#d62728", fontsize=7, va="center")
            ax.set_yticks(range(len(labels)))
            ax.set_yticklabels(labels, fontsize=8)
            ax.set_ylim(len(labels) - 0.5, -0.6 - 0.45 * max(1, len(mine_floors)))
            ax.set_xlim(0, xmax * 1.15 if xmax > 0 else 1)
            ax.set_xlabel("median ms (whiskers: min-max)")
            ax.set_title(f"C = {c}", fontsize=10)
            ax.grid(axis="x", alpha=0.3)
        handles = [plt.Rectangle((0, 0), 1, 1, color=WIDTH_COLOURS[k % len(WIDTH_COLOURS)]) for k in range(len(widths))]
        names = [f"block width {w}" for w in widths]
        if any(r["width"] == 0 for r in bars):
            handles.append(plt.Rectangle((0, 0), 1, 1, color=PEER_COLOUR))
            names.append("no VBM blocks (peer)")
        fig.legend(handles, names, loc="upper right", fontsize=8, ncol=len(names))
        voxels = bench["voxels"].get(grid)
        size = f", {voxels:,} active voxels" if voxels else ""
        fig.suptitle(f"vbm-bench: {grid}{size}, median ms per variant", x=0.01, ha="left", fontsize=11)
        rounds = (f"; {bench['warmup']:g} warm-up + {bench['rounds']:g} timed rounds"
                  if bench["rounds"] is not None and bench["warmup"] is not None else "")
        same = {True: "; every output identical to its baseline", False: "; NOT every output identical"}.get(
            bench["identical"], "")
        run = f"{os.path.basename(bench['path'])}: commit {bench['commit']}, {bench['device']}"
        n = footnote(fig, [run + rounds + same])
        fig.tight_layout(rect=(0, (0.05 + 0.13 * n) / height, 1, 1))
        save(plt, fig, out, f"resolvers-{slug(grid)}", tag, written)


def draw_step(plt, solver, out, tag, written):
    configs = solver["configs"]
    phases = list(dict.fromkeys(name for c in configs for name, _ in c["phases"]))
    height = 1.6 + 0.8 * len(configs)
    fig, ax = plt.subplots(figsize=(11, height))
    colours = plt.get_cmap("tab10").colors
    top = max(c["step"][2] for c in configs)
    for y, c in enumerate(configs):
        left = 0.0
        for k, name in enumerate(phases):
            ms = dict(c["phases"]).get(name)
            if ms is None:
                continue
            ax.barh(y, ms[0], left=left, height=0.6, color=colours[k % len(colours)], label=name if y == 0 else None,
                    edgecolor="white", lw=0.5)
            if ms[0] > top * 0.06:
                ax.text(left + ms[0] / 2, y, fmt_ms(ms[0]), ha="center", va="center", fontsize=7, color="white")
            left += ms[0]
        med, lo, hi = c["step"]
        if not phases:
            ax.barh(y, med, height=0.6, color=PEER_COLOUR)
        ax.plot([med, med], [y - 0.38, y + 0.38], color="black", lw=1.5)
        span = f" ({fmt_ms(lo)}-{fmt_ms(hi)})" if hi > lo else ""
        ax.text(max(med, left) + top * 0.01, y, f"step {fmt_ms(med)} ms{span}", va="center", fontsize=8)
    ax.set_yticks(range(len(configs)))
    ax.set_yticklabels([textwrap.fill(c["label"], 34) for c in configs], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, top * (1.65 if phases else 1.3))
    ax.set_xlabel("median ms per step" + (" (phases stacked; black tick: the step's own median)" if phases else ""))
    ax.grid(axis="x", alpha=0.3)
    if phases:
        ax.legend(loc="center right", fontsize=7, title="phases", title_fontsize=7)
    voxels = f", {int(solver['voxels']):,} active voxels" if solver["voxels"] else ""
    ax.set_title(f"vbm-bench --solver {solver['scene']}{voxels}: one step, median ms", loc="left", fontsize=11)
    notes = [f"{os.path.basename(solver['path'])}: commit {solver['commit']}."]
    if phases:
        notes[0] += " The medians of the phases need not add up to the step's median."
    else:
        notes.append("This file holds the step totals only (vbm-bench --solver --json); "
                     "its printed report holds the phases.")
    n = footnote(fig, notes)
    fig.tight_layout(rect=(0, (0.05 + 0.13 * n) / height, 1, 1))
    save(plt, fig, out, f"step-{slug(solver['scene'])}", tag, written)


def draw_upstream(plt, up, out, tag, written):
    rows = up["rows"]
    panels = list(dict.fromkeys((r["grid"], r["width"], r["channels"]) for r in rows))
    grids = list(dict.fromkeys(p[0] for p in panels))
    cols = max(sum(1 for p in panels if p[0] == g) for g in grids)
    labels = variant_order(r["variant"] for r in rows)
    height = 1.2 + (0.8 + 0.36 * len(labels)) * len(grids)
    fig, axes = plt.subplots(len(grids), cols, figsize=(6.6 * cols, height), squeeze=False)
    for gi, grid in enumerate(grids):
        mine = [p for p in panels if p[0] == grid]
        for ci in range(cols):
            ax = axes[gi][ci]
            if ci >= len(mine):
                ax.axis("off")
                continue
            _, width, channels = mine[ci]
            here = {r["variant"]: r for r in rows if (r["grid"], r["width"], r["channels"]) == mine[ci]}
            names = [v for v in labels if v in here]
            xmax = max(max(r["ours"], r["upstream"]) for r in here.values())
            for y, v in enumerate(names):
                r = here[v]
                ax.barh(y - 0.2, r["ours"], height=0.38, color=OURS_COLOUR)
                ax.barh(y + 0.2, r["upstream"], height=0.38, color=UPSTREAM_COLOUR)
                ratio = r["upstream"] / r["ours"]
                ax.text(xmax * 1.03, y, f"{ratio:.2f}x", va="center", fontsize=8,
                        color="#2ca02c" if ratio >= 1 else "#d62728", fontweight="normal" if ratio >= 1 else "bold")
            ax.set_yticks(range(len(names)))
            ax.set_yticklabels(names, fontsize=8)
            ax.invert_yaxis()
            ax.set_xlim(0, xmax * 1.18)
            ax.set_title(f"{grid}, block width {width}" + (f", C = {channels}" if channels != 1 else ""), fontsize=10)
            ax.set_xlabel("median ms")
            ax.grid(axis="x", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=OURS_COLOUR), plt.Rectangle((0, 0), 1, 1, color=UPSTREAM_COLOUR)]
    fig.legend(handles, ["ours", "upstream"], loc="upper right", fontsize=8, ncol=2)
    fig.suptitle("Ours against upstream, median ms; beside each pair upstream / ours (above 1: ours faster, "
                 "red: behind)", x=0.01, ha="left", fontsize=11)
    n = footnote(fig, [f"{os.path.basename(up['path'])}: " + up["notes"][0]] + up["notes"][1:], width=170)
    fig.tight_layout(rect=(0, (0.05 + 0.13 * n) / height, 1, 1))
    save(plt, fig, out, "ours-vs-upstream", tag, written)


def print_markdown(up):
    rows = up["rows"]
    variants = [v for v in variant_order(r["variant"] for r in rows) if v in RESOLVERS]
    print("| grid | width | " + " | ".join(variants) + " |")
    print("|---|---|" + "---|" * len(variants))
    for grid, width in dict.fromkeys((r["grid"], r["width"]) for r in rows):
        cells = []
        for v in variants:
            r = next((r for r in rows if (r["grid"], r["width"], r["variant"]) == (grid, width, v)), None)
            if r is None:
                cells.append("-")
                continue
            ratio = r["upstream"] / r["ours"]
            cell = f"{fmt_ms(r['ours'])} / {fmt_ms(r['upstream'])} ({ratio:.2f}x)"
            cells.append(f"**{cell}**" if ratio < 1 else cell)
        print(f"| {grid.replace(' shell', '')} | {width} | " + " | ".join(cells) + " |")


# ---------------------------------------------------------------------------------------------

class HelpAction(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print this help and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(__doc__.strip())
        parser.exit(0)


def parse_args(argv):
    usage = __doc__.split("\n\n")[1].replace("usage: ", "", 1)
    p = argparse.ArgumentParser(prog="plot-bench.py", usage=usage, add_help=False)
    p.add_argument("-h", "--help", action=HelpAction)
    p.add_argument("--bench", metavar="FILE.json", help="a grid run's JSON (vbm-bench --json)")
    p.add_argument("--solver", metavar="FILE", help="a solver run's JSON or printed report (vbm-bench --solver)")
    p.add_argument("--solver-commit", metavar="C", help="the run of commit C in a report with several runs")
    p.add_argument("--upstream", metavar="FILE.json", help="ours against upstream (format below)")
    p.add_argument("--markdown", action="store_true", help="print the --upstream comparison as a markdown table")
    p.add_argument("--out", metavar="DIR", default=".", help="where the PNGs go (default: .)")
    p.add_argument("--tag", metavar="TAG", default="", help="appended to every file name")
    args = p.parse_args(argv)
    if not (args.bench or args.solver or args.upstream):
        p.error("nothing to draw: give --bench, --solver or --upstream (see --help)")
    if args.solver_commit and not args.solver:
        p.error("--solver-commit needs --solver")
    if args.markdown and not args.upstream:
        p.error("--markdown needs --upstream")
    if args.tag and not re.fullmatch(r"[A-Za-z0-9._-]+", args.tag):
        p.error(f"--tag {args.tag!r}: use letters, digits, '.', '_' and '-' only")
    return args


def main(argv):
    args = parse_args(argv)
    try:  # every input is read and checked before anything is drawn
        bench = read_bench(args.bench) if args.bench else None
        solver = read_solver(args.solver, args.solver_commit) if args.solver else None
        up = read_upstream(args.upstream, bench) if args.upstream else None
    except InputError as e:
        print(f"plot-bench.py: error: {e}", file=sys.stderr)
        return 2
    plt = import_pyplot()
    written = []
    try:
        os.makedirs(args.out, exist_ok=True)
        if bench:
            draw_resolvers(plt, bench, args.out, args.tag, written)
        if solver:
            draw_step(plt, solver, args.out, args.tag, written)
        if up:
            draw_upstream(plt, up, args.out, args.tag, written)
    except OSError as e:
        print(f"plot-bench.py: error: cannot write into {args.out}: {e.strerror} ({e.filename or args.out})",
              file=sys.stderr)
        return 1
    if up and args.markdown:
        print_markdown(up)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
