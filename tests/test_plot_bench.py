#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/plot-bench.py on the repository's own bench files (ctest: PlotBench.*).

  Charts  the newest and an older vbm-bench JSON, a solver report and a solver JSON, and the
          upstream comparison draw every PNG they should, each a real PNG of a readable size;
          --markdown prints the upstream table as docs/bench/upstream-fair-h200.json holds it.
  Errors  bad usage, a missing file, a malformed JSON and a JSON that lacks a key end with
          exit code 2 and a message naming the file (and the key), and write no PNG.

usage: test_plot_bench.py [-v] [Charts|Errors]   (unittest; no argument runs both)
Needs Debian's python3-matplotlib (scripts/setup.sh installs it): without it Charts fails.
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "plot-bench.py")
BENCH_NEW = os.path.join(ROOT, "docs", "bench", "bench-h200-aaa98e2.json")  # vbm-bench at aaa98e2, H200
BENCH_OLD = os.path.join(ROOT, "docs", "bench", "bench-h200.json")  # cbe16b3
SOLVER_REPORT = os.path.join(ROOT, "docs", "bench", "solver-smoke-plume-4m-h200.md")
SOLVER_JSON = os.path.join(ROOT, "docs", "bench", "solver-smoke-plume-4m-h200.json")
UPSTREAM = os.path.join(ROOT, "docs", "bench", "upstream-fair-h200.json")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def plot(*args):
    r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr


def png_size(path):
    """(width, height) from a PNG's IHDR chunk; fails the caller's test if it is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        raise AssertionError(f"{path} is not a PNG (first bytes {head[:16]!r})")
    return struct.unpack(">II", head[16:24])


class Charts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="plot-bench-test-")
        self.addCleanup(self.tmp.cleanup)

    def expect_pngs(self, out, stdout, names):
        printed = [line for line in stdout.splitlines() if line.endswith(".png")]
        self.assertEqual(sorted(os.path.basename(p) for p in printed), sorted(names), stdout)
        self.assertEqual(sorted(os.listdir(out)), sorted(names))
        for name in names:
            path = os.path.join(out, name)
            self.assertGreater(os.path.getsize(path), 10000, f"{name} is nearly empty")
            w, h = png_size(path)
            self.assertGreaterEqual(w, 600, name)
            self.assertGreaterEqual(h, 200, name)

    def test_newest_bench_solver_report_and_upstream(self):
        out = os.path.join(self.tmp.name, "new")
        code, stdout, stderr = plot("--bench", BENCH_NEW, "--solver", SOLVER_REPORT, "--upstream", UPSTREAM,
                                    "--out", out, "--tag", "t")
        self.assertEqual(code, 0, stderr)
        self.expect_pngs(out, stdout, ["resolvers-small-shell-t.png", "resolvers-thin-shell-t.png",
                                       "resolvers-thick-shell-t.png", "step-smoke-plume-4m-t.png",
                                       "ours-vs-upstream-t.png"])

    def test_older_bench_and_solver_json(self):
        out = os.path.join(self.tmp.name, "old")
        code, stdout, stderr = plot("--bench", BENCH_OLD, "--solver", SOLVER_JSON, "--out", out)
        self.assertEqual(code, 0, stderr)
        self.expect_pngs(out, stdout, ["resolvers-small-shell.png", "resolvers-thin-shell.png",
                                       "resolvers-thick-shell.png", "step-smoke-plume-4m.png"])

    def test_markdown_table_of_the_upstream_file(self):
        code, stdout, stderr = plot("--upstream", UPSTREAM, "--markdown", "--out", os.path.join(self.tmp.name, "md"))
        self.assertEqual(code, 0, stderr)
        self.assertIn("| small | 128 | 0.2264 / 0.2442 (1.08x) |", stdout)
        self.assertIn("**0.8467 / 0.7736 (0.91x)**", stdout)  # behind upstream: bold
        self.assertIn("| thin | 512 | 5.042 / 5.092 (1.01x) | **5.020 / 4.608 (0.92x)** |", stdout)


class Errors(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="plot-bench-test-")
        self.addCleanup(self.tmp.cleanup)
        self.out = os.path.join(self.tmp.name, "out")

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def expect_input_error(self, args, *needles):
        code, _, stderr = plot(*args, "--out", self.out)
        self.assertEqual(code, 2, stderr)
        for n in needles:
            self.assertIn(n, stderr)
        self.assertFalse(os.path.exists(self.out) and os.listdir(self.out), "an input error still wrote files")

    def test_malformed_json(self):
        with open(BENCH_NEW, encoding="utf-8") as f:
            text = f.read()
        bad = self.write("truncated.json", text[: len(text) // 2])
        self.expect_input_error(["--bench", bad], bad, "not valid JSON")

    def test_missing_key_is_named(self):
        with open(BENCH_NEW, encoding="utf-8") as f:
            data = json.load(f)
        del data["results"][5]["medianMs"]
        bad = self.write("nokey.json", json.dumps(data))
        self.expect_input_error(["--bench", bad], bad, "results[5]", "'medianMs'")
        bad = self.write("noscene.json", json.dumps({"defaultStepMs": 1.0}))
        self.expect_input_error(["--solver", bad], bad, "'scene'")
        bad = self.write("norows.json", json.dumps({"provenance": "test"}))
        self.expect_input_error(["--upstream", bad], bad, "'rows'")

    def test_missing_file(self):
        missing = os.path.join(self.tmp.name, "absent.json")
        self.expect_input_error(["--bench", missing], missing, "cannot read")

    def test_bad_usage(self):
        for args in ([], ["--no-such-option"], ["--markdown", "--bench", BENCH_NEW]):
            code, _, stderr = plot(*args)
            self.assertEqual(code, 2, f"{args}: {stderr}")
            self.assertIn("usage:", stderr)

    def test_help(self):
        code, stdout, _ = plot("--help")
        self.assertEqual(code, 0)
        self.assertIn("usage: plot-bench.py", stdout)
        self.assertIn("Exit codes", stdout)


if __name__ == "__main__":
    unittest.main()
