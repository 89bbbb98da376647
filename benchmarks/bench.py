#!/usr/bin/env python3
"""Speed benchmark: jaxlint next to the bare LibCST parse of the same files, in one run.

    python benchmarks/bench.py CORPUS [--jobs N] [--repeat R] [--json OUT]

CORPUS is a folder of Python sources, e.g. made by ``benchmarks/make-corpus.sh``.  Every
measure runs in a fresh interpreter (``python -m jaxlint ...``), on a frozen copy of this
checkout's ``jaxlint`` package (so edits made while the benchmark runs cannot invalidate the
cache between the cold and warm runs), with ``PYTHONHASHSEED=0``.

Measures (ratios are to the bare parse of the same files, same run, same machine):

* parse       bare ``libcst.parse_module`` of every file (read, decode, parse), one process;
              run before, between and after the two cold runs, each of which is compared with
              the mean of the parses on either side of it (a machine whose speed drifts during
              the benchmark would otherwise decide the ratios)
* cold-1      ``jaxlint -j 1`` with an empty cache
* cold-N      ``jaxlint -j N`` with an empty cache
* warm        ``jaxlint -j N`` again, nothing changed
* one-edit    a ~300-file package: cold run, then one file edited (its largest file that
              mentions jax), then a warm run; findings compared with a run without cache
* flake8      ``flake8 --select JAX`` with the jaxlint plugin (skipped if the plugin is absent)
* anchors     what a pyflakes or flake8 user is used to, on the same files in the same run (each
              skipped when not installed): ``pyflakes``, and ``flake8 --select F`` at ``-j 1``
              and ``-j N``
* single      one ~500-line file as pre-commit runs it: wall time including interpreter start,
              against ``python -c 'import libcst'``
* growth      time per line on the largest files, against the corpus average
* 5 MB        a generated 5 MB module of small jitted functions, linted alone: peak RSS, and
              whether the memory budget stopped it (a JAX002 finding naming the budget)
* peak RSS    of the cold single-process run, and of cold single-process runs over the first
              ~300 and ~1,000 files: its growth with the number of files; and against the
              highest of the largest module and those with the longest top-level statements,
              each linted alone
* CPU         user + system time of the parse and of the cold single-process run, and their
              ratio: on a machine shared with other work it moves much less than the wall times
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

PARSE_SCRIPT = r"""
import sys, time
from jaxlint.source_text import decode_source
import libcst as cst
files = sys.stdin.read().splitlines()
t0 = time.perf_counter()
ok = 0
for f in files:
    try:
        with open(f, "rb") as fh:
            text = decode_source(fh.read())
        cst.parse_module(text)
        ok += 1
    except Exception:
        pass
print(ok, time.perf_counter() - t0)
"""

GROWTH_SCRIPT = r"""
import sys, time, json
import libcst as cst
from jaxlint.engine.pipeline import lint_source
from jaxlint.source_text import decode_source
from jaxlint.config import Config
out = []
for f in sys.stdin.read().splitlines():
    with open(f, "rb") as fh:
        data = fh.read()
    text = decode_source(data)
    lint_source(data, f, Config())  # warm the interpreter's caches on this file
    t0 = time.perf_counter(); cst.parse_module(text); tp = time.perf_counter() - t0
    t0 = time.perf_counter(); lint_source(data, f, Config()); tl = time.perf_counter() - t0
    out.append({"file": f, "lines": text.count("\n") + 1, "parse_s": tp, "lint_s": tl})
print(json.dumps(out))
"""


class Run:
    def __init__(self, wall: float, rss_kb: int, stdout: str, returncode: int, cpu: float = 0.0):
        self.wall = wall
        self.cpu = cpu  # user + system seconds of the process and the workers it waited for
        self.rss_mb = rss_kb / 1024.0
        self.stdout = stdout
        self.returncode = returncode


# Where commands run unless told otherwise: the benchmark's own temporary folder.  ``python -m``
# puts its working directory first on the path, so a run from the checkout would import the
# live package (being edited) instead of the frozen snapshot on PYTHONPATH.
RUN_DIR: Optional[str] = None


def run(cmd: Sequence[str], env: Dict[str, str], cwd: Optional[str] = None, stdin: Optional[str] = None) -> Run:
    """Run a command; wall time and the peak RSS of its main process (from wait4)."""
    cwd = cwd or RUN_DIR
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as inp:
        if stdin is not None:
            inp.write(stdin.encode())
            inp.seek(0)
        t0 = time.perf_counter()
        p = subprocess.Popen(list(cmd), env=env, cwd=cwd, stdin=inp, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        cpu = usage.ru_utime + usage.ru_stime
        return Run(wall, usage.ru_maxrss, out.read().decode("utf-8", "replace"), p.returncode, cpu)


def median_run(n: int, fn) -> Run:
    runs = [fn() for _ in range(n)]
    runs.sort(key=lambda r: r.wall)
    return runs[len(runs) // 2]


def count_lines(files: Sequence[str]) -> int:
    total = 0
    for f in files:
        with open(f, "rb") as fh:
            total += fh.read().count(b"\n")
    return total


def mentions_jax(path: str) -> bool:
    with open(path, "rb") as fh:
        return b"jax" in fh.read()


def snapshot(dest: str) -> str:
    """A frozen copy of the jaxlint package under test; returns the PYTHONPATH entry."""
    src = os.path.join(dest, "src")
    shutil.copytree(os.path.join(REPO, "jaxlint"), os.path.join(src, "jaxlint"), ignore=shutil.ignore_patterns("__pycache__"))
    return src


def longest_statements(files: Sequence[str], above: int = 32 * 1024, top: int = 3) -> List[str]:
    """The files whose longest top-level statement is longest, by characters and by syntax
    nodes (a dense literal holds more per character), ``top`` of each, among files over
    ``above`` bytes: the candidates for the highest peak of one parse."""
    import ast
    import warnings

    by_chars, by_nodes = [], []
    for path in files:
        if os.path.getsize(path) <= above:
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                body = ast.parse(text).body
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
            continue
        starts = [0]
        starts.extend(m.end() for m in re.finditer("\n", text))
        chars = nodes = 0
        for stmt in body:
            first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
            chars = max(chars, starts[min(stmt.end_lineno, len(starts) - 1)] - starts[first - 1])
            nodes = max(nodes, sum(1 for _ in ast.walk(stmt)))
        by_chars.append((chars, path))
        by_nodes.append((nodes, path))
    picked: List[str] = []
    for ranked in (by_chars, by_nodes):
        for _, path in sorted(ranked, reverse=True)[:top]:
            if path not in picked:
                picked.append(path)
    return picked


def jaxlint_cmd(paths: Sequence[str], *extra: str) -> List[str]:
    return [sys.executable, "-m", "jaxlint", *paths, "--format", "json", "--exit-zero", "-q", *extra]


def pick_package(targets: Sequence[str], target: int = 300) -> Optional[str]:
    """The package (a subfolder of the corpus) whose file count is closest to ``target``."""
    if len(targets) == 1:
        corpus = targets[0]
        dirs = [os.path.join(corpus, n) for n in sorted(os.listdir(corpus)) if not n.startswith(".")]
    else:
        dirs = list(targets)
    best, best_d = None, None
    for d in dirs:
        if not os.path.isdir(d):
            continue
        n = sum(1 for _, _, fs in os.walk(d) for f in fs if f.endswith(".py"))
        if n and (best_d is None or abs(n - target) < best_d):
            best, best_d = d, abs(n - target)
    return best


def pick_single(files: Sequence[str], target: int = 500) -> Optional[str]:
    best, best_d = None, None
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        if b"jax" not in data:
            continue
        d = abs(data.count(b"\n") - target)
        if best_d is None or d < best_d:
            best, best_d = f, d
    return best


def flake8_plugin_available(env) -> bool:
    r = run([sys.executable, "-c", "import flake8, jaxlint.flake8_plugin as p; p.JaxlintChecker"], env)
    return r.returncode == 0


def flake8_entry_point(env) -> bool:
    code = (
        "import importlib.metadata as m, sys; "
        "sys.exit(0 if any(e.name == 'JAX' for e in m.entry_points(group='flake8.extension')) else 1)"
    )
    return run([sys.executable, "-c", code], env).returncode == 0


def fmt_rate(nfiles: int, lines: int, secs: float) -> str:
    return f"{nfiles / secs:8.1f} files/s {lines / secs / 1000:7.1f} kLOC/s"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", help="folder of Python sources (e.g. made by benchmarks/make-corpus.sh)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="N for the --jobs run (default: CPUs)")
    ap.add_argument("--repeat", "-r", type=int, default=1, help="repeat the corpus-wide runs, report medians")
    ap.add_argument("--single-repeat", type=int, default=7, help="repeats of the single-file run")
    ap.add_argument(
        "--only", metavar="NAMES", help="comma-separated subfolders of CORPUS to use (e.g. flax,optax,equinox: the mid subset)"
    )
    ap.add_argument("--package", help="the ~300-file package for the one-edit run (default: closest to 300 files)")
    ap.add_argument("--skip-flake8", action="store_true")
    ap.add_argument("--json", metavar="OUT", help="write every measure as JSON to OUT")
    args = ap.parse_args(argv)

    corpus = os.path.abspath(args.corpus)
    tmp = tempfile.mkdtemp(prefix="jaxlint-bench-")
    try:
        return _bench(args, corpus, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _bench(args, corpus: str, tmp: str) -> int:
    global RUN_DIR
    RUN_DIR = tmp
    src = snapshot(tmp)
    # The snapshot first; what PYTHONPATH already names (where LibCST may be) after it.
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, PYTHONPATH=path, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    env.pop("NO_COLOR", None)
    sys.path.insert(0, src)
    from jaxlint.config import Resolver  # noqa: E402  (the snapshot)
    from jaxlint.engine.discovery import discover  # noqa: E402
    from jaxlint.rules import RULES_BY_CODE  # noqa: E402

    if args.only:
        targets = [os.path.join(corpus, n.strip()) for n in args.only.split(",") if n.strip()]
    else:
        targets = [corpus]
    files = discover(targets, Resolver(rules=RULES_BY_CODE).for_path).files  # each file's settings, as the CLI reads them
    lines = count_lines(files)
    njax = sum(1 for f in files if mentions_jax(f))
    R: Dict[str, object] = {
        "corpus": corpus,
        "only": args.only,
        "files": len(files),
        "files_mentioning_jax": njax,
        "lines": lines,
        "jobs": args.jobs,
        "repeat": args.repeat,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
    }
    print(f"corpus {corpus}: {len(files)} files ({njax} mention jax), {lines} lines; jobs={args.jobs}")
    rep = max(1, args.repeat)

    # Byte-compile the snapshot once so no run pays for it.
    run([sys.executable, "-m", "compileall", "-q", src], dict(env, PYTHONDONTWRITEBYTECODE=""))
    env["PYTHONDONTWRITEBYTECODE"] = ""

    # -- bare parse ------------------------------------------------------------------------
    filelist = "\n".join(files)

    def parse_once():
        return run([sys.executable, "-c", PARSE_SCRIPT], env, stdin=filelist)

    parses = []

    def parse_again():
        p = median_run(rep, parse_once)
        parsed, parse_loop = p.stdout.split()
        parses.append(p)
        R.setdefault("parses", []).append({"wall_s": p.wall, "cpu_s": p.cpu, "loop_s": float(parse_loop), "parsed_files": int(parsed)})
        drift = f"; {p.cpu / parses[0].cpu:.2f}x the first parse's CPU" if len(parses) > 1 else ""
        print(f"parse    {p.wall:8.2f} s  {fmt_rate(len(files), lines, p.wall)}  (parse loop {float(parse_loop):.2f} s; CPU {p.cpu:.2f} s{drift})")
        return p

    p = parse_again()
    R["parse"] = dict(R["parses"][0], rss_mb=p.rss_mb)

    def around(i: int, what: str) -> float:
        """The mean of the parses just before and just after run ``i`` (0: the first cold run)."""
        pair = parses[i : i + 2]
        return sum(getattr(x, what) for x in pair) / len(pair)

    def ratio(x):
        return x / (sum(q.wall for q in parses) / len(parses))

    # -- cold, one process; cold, N processes; warm -------------------------------------------
    def cold(jobs: int):
        def once():
            cache = tempfile.mkdtemp(dir=tmp)
            r = run(jaxlint_cmd(targets, "-j", str(jobs), "--cache-dir", cache), env)
            shutil.rmtree(cache, ignore_errors=True)
            return r

        return median_run(rep, once)

    c1 = cold(1)
    parse_again()
    nfind = len(json.loads(c1.stdout))
    R["findings"] = nfind
    # On a machine shared with other work the wall times stretch; CPU time much less so.
    c1_ratio, c1_cpu_ratio = c1.wall / around(0, "wall"), c1.cpu / around(0, "cpu")
    R["cold_1"] = {"wall_s": c1.wall, "ratio": c1_ratio, "cpu_s": c1.cpu, "cpu_ratio": c1_cpu_ratio, "rss_mb": c1.rss_mb}
    print(
        f"cold -j1 {c1.wall:8.2f} s  {fmt_rate(len(files), lines, c1.wall)}  {c1_ratio:5.2f}x parse  peak RSS {c1.rss_mb:.0f} MB (target < 300); "
        f"CPU {c1_cpu_ratio:.2f}x the parse's (wall target <= 1.2x; the parses before and after it)"
    )
    cN = cold(args.jobs)
    parse_again()
    cN_ratio = cN.wall / around(1, "wall")
    R["cold_n"] = {"wall_s": cN.wall, "ratio": cN_ratio, "rss_mb_main": cN.rss_mb}
    R["speedup"] = c1.wall / cN.wall
    print(
        f"cold -j{args.jobs} {cN.wall:8.2f} s  {fmt_rate(len(files), lines, cN.wall)}  {cN_ratio:5.2f}x parse; "
        f"{c1.wall / cN.wall:.1f}x faster than -j1 (target >= 9x at -j12 on 13 cores)"
    )
    # Peak RSS against the project's size: the first ~300 and ~1,000 files (discovery order)
    # and all of them, each a cold single-process run.  Memory must stay bounded by the largest
    # module, not grow with the number of files.
    rss_rows = []
    for n in (300, 1000):
        if n < len(files):
            sub = run(jaxlint_cmd(files[:n], "-j", "1", "--no-cache"), env)
            rss_rows.append({"files": n, "rss_mb": sub.rss_mb})
    rss_rows.append({"files": len(files), "rss_mb": c1.rss_mb})
    # The bound the memory should keep to: the module whose lint alone peaks highest.  A large
    # module is parsed a piece at a time, cut between top-level statements, so the candidates
    # are the largest module and those with the longest top-level statements.  The first files
    # (in discovery order) may hold none of them, so the growth from them also measures the
    # corpus' make-up; against the highest module alone it measures what the run keeps.
    largest = max(files, key=os.path.getsize)
    alone = []
    for path in [largest] + [p for p in longest_statements(files) if p != largest]:
        alone.append({"file": os.path.relpath(path, corpus), "rss_mb": run(jaxlint_cmd([path], "-j", "1", "--no-cache"), env).rss_mb})
    highest = max(alone, key=lambda a: a["rss_mb"])
    R["rss_growth"] = {
        "rows": rss_rows,
        "growth": c1.rss_mb / rss_rows[0]["rss_mb"],
        "largest_module": alone[0],
        "modules_alone": alone,
        "of_highest_module_alone": c1.rss_mb / highest["rss_mb"],
    }
    print(
        "rss      "
        + ", ".join(f"{r['files']} files {r['rss_mb']:.0f} MB" for r in rss_rows)
        + f"; growth {R['rss_growth']['growth']:.2f}x from the first to all (target < 1.3x)"
    )
    print(
        f"         alone: the largest module {alone[0]['rss_mb']:.0f} MB ({alone[0]['file']}); "
        f"the highest of it and the modules with the longest statements {highest['rss_mb']:.0f} MB ({highest['file']}): "
        f"all files take {c1.rss_mb / highest['rss_mb']:.2f}x it"
    )
    same = cN.stdout == c1.stdout

    cache = os.path.join(tmp, "warm-cache")
    first = run(jaxlint_cmd(targets, "-j", str(args.jobs), "--cache-dir", cache), env)
    w = median_run(max(3, rep), lambda: run(jaxlint_cmd(targets, "-j", str(args.jobs), "--cache-dir", cache), env))
    same = same and first.stdout == c1.stdout and w.stdout == c1.stdout
    R["warm"] = {"wall_s": w.wall, "of_cold_1": w.wall / c1.wall, "of_cold_n": w.wall / cN.wall, "ratio": ratio(w.wall), "cpu_s": w.cpu}
    R["outputs_identical"] = same
    if not same and args.json:  # keep the evidence next to the report
        for name, r in (("cold-1", c1), (f"cold-{args.jobs}", cN), ("warm-first", first), ("warm", w)):
            with open(f"{args.json}.{name}.out", "w") as fh:
                fh.write(r.stdout)
    print(
        f"warm     {w.wall:8.2f} s  {w.wall / c1.wall * 100:5.1f}% of cold -j1, {w.wall / cN.wall * 100:5.1f}% of cold -j{args.jobs} "
        f"(target <= 1% of cold -j1); CPU {w.cpu:.2f} s, {w.cpu / c1.cpu * 100:.1f}% of cold -j1's"
    )
    print(f"         output identical for -j1, -j{args.jobs}, cold and warm: {same}; {nfind} findings")

    # -- anchors: pyflakes and flake8 --select F on the same files ---------------------------------
    R["anchors"] = {}
    if not args.skip_flake8:
        for name, cmd in (
            ("pyflakes", [sys.executable, "-m", "pyflakes", *targets]),
            ("flake8 -j1", [sys.executable, "-m", "flake8", "--isolated", "--select", "F", "-j", "1", "--exit-zero", *targets]),
            (f"flake8 -j{args.jobs}", [sys.executable, "-m", "flake8", "--isolated", "--select", "F", "-j", str(args.jobs), "--exit-zero", *targets]),
        ):
            if run([sys.executable, "-c", f"import {name.split()[0]}"], env).returncode != 0:
                print(f"anchor   {name}: not installed")
                continue
            a = median_run(rep, lambda cmd=cmd: run(cmd, env))
            R["anchors"][name] = {"wall_s": a.wall, "ratio": ratio(a.wall)}
            print(f"anchor   {a.wall:8.2f} s  {ratio(a.wall):5.2f}x parse  {name}")

    # -- one file of a ~300-file package edited ---------------------------------------------
    pkg = os.path.abspath(args.package) if args.package else pick_package(targets)
    if pkg:
        work = os.path.join(tmp, "edit")
        shutil.copytree(pkg, os.path.join(work, os.path.basename(pkg)))
        pfiles = discover([os.path.join(work, os.path.basename(pkg))], Resolver(rules=RULES_BY_CODE).for_path).files
        cands = [f for f in pfiles if mentions_jax(f)]
        victim = max(cands, key=os.path.getsize) if cands else pfiles[0]
        pc = os.path.join(tmp, "edit-cache")
        cmd = jaxlint_cmd(["."], "-j", str(args.jobs), "--cache-dir", pc)
        pcold = run(cmd, env, cwd=work)
        edits = []
        for k in range(max(3, rep)):
            with open(victim, "a", encoding="utf-8") as fh:
                fh.write(f"\n# edited by the benchmark ({k})\n")
            edits.append(run(cmd, env, cwd=work))
        edits.sort(key=lambda r: r.wall)
        e = edits[len(edits) // 2]
        fresh = run(jaxlint_cmd(["."], "-j", str(args.jobs), "--no-cache"), env, cwd=work)
        eq = edits[-1].stdout == fresh.stdout
        R["one_edit"] = {
            "package": os.path.basename(pkg),
            "package_files": len(pfiles),
            "edited": os.path.relpath(victim, work),
            "edited_lines": count_lines([victim]),
            "cold_s": pcold.wall,
            "edit_s": e.wall,
            "of_cold": e.wall / pcold.wall,
            # On a machine shared with other work the wall times stretch; CPU time much less so.
            "cold_cpu_s": pcold.cpu,
            "edit_cpu_s": e.cpu,
            "findings_equal_cold": eq,
        }
        print(
            f"one edit {e.wall:8.2f} s  {e.wall / pcold.wall * 100:5.1f}% of cold {pcold.wall:.2f} s (target <= 15%)  "
            f"[{os.path.basename(pkg)}, {len(pfiles)} files, edited {os.path.relpath(victim, work)} "
            f"({R['one_edit']['edited_lines']} lines)]; findings equal a cache-less run: {eq}; CPU {e.cpu:.2f} s, "
            f"{e.cpu / pcold.cpu * 100:.1f}% of the cold run's"
        )

    # -- flake8 with the plugin ---------------------------------------------------------------
    if args.skip_flake8:
        R["flake8"] = None
    elif flake8_plugin_available(env):
        cfg = os.path.join(tmp, "flake8.cfg")
        with open(cfg, "w") as fh:
            fh.write("[flake8]\nselect = JAX\n")
            if not flake8_entry_point(env):  # not pip-installed: register the plugin locally
                fh.write(f"[flake8:local-plugins]\nextension =\n    JAX = jaxlint.flake8_plugin:JaxlintChecker\npaths = {src}\n")
        f8 = median_run(
            rep,
            lambda: run([sys.executable, "-m", "flake8", "--config", cfg, "--select", "JAX", "-j", str(args.jobs), "--exit-zero", *targets], env),
        )
        n8 = sum(1 for ln in f8.stdout.splitlines() if ": JAX" in ln)
        R["flake8"] = {"wall_s": f8.wall, "ratio": ratio(f8.wall), "findings": n8}
        print(f"flake8   {f8.wall:8.2f} s  {fmt_rate(len(files), lines, f8.wall)}  {ratio(f8.wall):5.2f}x parse  (-j{args.jobs}, {n8} JAX findings)")
    else:
        R["flake8"] = None
        print("flake8   skipped: flake8 or jaxlint.flake8_plugin is not importable")

    # -- one ~500-line file, as pre-commit calls it --------------------------------------------
    single = pick_single(files)
    if single:
        d = os.path.join(tmp, "single")
        os.makedirs(d)
        target = os.path.join(d, os.path.basename(single))
        shutil.copy(single, target)
        nl = count_lines([target])
        s_cold = median_run(args.single_repeat, lambda: run(jaxlint_cmd([target], "--no-cache"), env, cwd=d))
        sc = os.path.join(tmp, "single-cache")
        run(jaxlint_cmd([target], "--cache-dir", sc), env, cwd=d)
        s_warm = median_run(args.single_repeat, lambda: run(jaxlint_cmd([target], "--cache-dir", sc), env, cwd=d))
        s_py = median_run(args.single_repeat, lambda: run([sys.executable, "-c", "pass"], env))
        s_cst = median_run(args.single_repeat, lambda: run([sys.executable, "-c", "import libcst"], env))
        R["single"] = {
            "file": os.path.relpath(single, corpus),
            "lines": nl,
            "wall_s": s_cold.wall,
            "cached_wall_s": s_warm.wall,
            "python_start_s": s_py.wall,
            "import_libcst_s": s_cst.wall,
            "of_import_libcst": s_cold.wall / s_cst.wall,
        }
        print(
            f"single   {s_cold.wall:8.3f} s  wall, interpreter start included, {s_cold.wall / s_cst.wall:.2f}x `python -c 'import libcst'` "
            f"{s_cst.wall:.3f} s (target <= 1.2x); cached {s_warm.wall:.3f} s; "
            f"bare `python -c pass` {s_py.wall:.3f} s  [{os.path.relpath(single, corpus)}, {nl} lines]"
        )

    # -- a generated 5 MB module of many small jitted functions ---------------------------------
    big = os.path.join(tmp, "generated_5mb.py")
    with open(big, "w", encoding="utf-8") as fh:
        fh.write("import jax\nimport jax.numpy as jnp\n\n")
        i = 0
        while fh.tell() < 5_000_000:
            fh.write(f"\n@jax.jit\ndef f{i}(x, y):\n    z = jnp.sin(x) * y + {i}\n    if z.shape[0] > 2:\n        z = z + 1\n    return jnp.sum(z) / (y + 1.0)\n\n")
            i += 1
    g5 = run(jaxlint_cmd([big], "--no-cache"), env)
    budget_finding = any(f.get("code") == "JAX002" and "memory" in f.get("message", "") for f in json.loads(g5.stdout or "[]"))
    R["generated_5mb"] = {"wall_s": g5.wall, "rss_mb": g5.rss_mb, "functions": i, "memory_budget_finding": budget_finding}
    print(
        f"5 MB     {g5.wall:8.2f} s  peak RSS {g5.rss_mb:.0f} MB, {i} functions; "
        f"{'a memory budget finding' if budget_finding else 'linted'} (target < 500 MB, or a budget finding)"
    )

    # -- growth ---------------------------------------------------------------------------------
    big = sorted((f for f in files if mentions_jax(f)), key=os.path.getsize)[-3:]
    g = run([sys.executable, "-c", GROWTH_SCRIPT], env, stdin="\n".join(big))
    try:
        rows = json.loads(g.stdout)
    except ValueError:
        rows = []
    avg = c1.wall / lines
    growth = []
    for row in rows:
        per = row["lint_s"] / row["lines"]
        growth.append(dict(row, file=os.path.relpath(row["file"], corpus), per_line_vs_avg=per / avg, lint_vs_parse=row["lint_s"] / row["parse_s"]))
        print(
            f"growth   {os.path.relpath(row['file'], corpus)}: {row['lines']} lines, {row['lint_s']:.2f} s, "
            f"{per / avg:4.2f}x the corpus time per line (target <= 1.5x), {row['lint_s'] / row['parse_s']:.2f}x its parse"
        )
    R["growth"] = growth

    if args.json:
        with open(args.json, "w") as fh:
            json.dump(R, fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
