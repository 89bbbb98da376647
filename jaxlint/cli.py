"""The ``jaxlint`` command."""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from typing import List, Optional, Sequence

from jaxlint import __version__
from jaxlint.review import baseline, diffmode
from jaxlint.config import Config, ConfigError, load_config, with_overrides
from jaxlint.engine.cache import default_directory as default_cache_directory
from jaxlint.engine.discovery import not_a_file_reason, relpath
from jaxlint.engine.pipeline import lint_source
from jaxlint.engine.run import RunResult, lint_files
from jaxlint.findings import Finding
from jaxlint.review.fingerprint import remember_source
from jaxlint.formats import FORMATTERS
from jaxlint.rules import ALL_RULES, RULES_BY_CODE, rules_for


class UsageError(Exception):
    pass


def _codes(value: Optional[str]):
    if value is None:
        return None
    return tuple(c.strip().upper() for c in value.replace(" ", ",").split(",") if c.strip())


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="jaxlint",
        description="Find JAX trace-time bugs without running the code.",
        epilog="Exit status: 0 no findings, 1 findings, 2 usage or configuration error.",
    )
    p.add_argument("paths", nargs="*", help="files or folders to lint (default: .); '-' reads standard input")
    p.add_argument("--select", metavar="CODES", help="comma-separated code prefixes to enable (e.g. JAX1,JAX302)")
    p.add_argument("--ignore", metavar="CODES", help="comma-separated code prefixes to disable")
    p.add_argument("--extend-select", metavar="CODES", help="add to the configured selection")
    p.add_argument("--extend-ignore", metavar="CODES", help="add to the configured ignores")
    p.add_argument("--preview", action="store_true", default=None, help="also run rules in preview (their findings may still change)")
    p.add_argument("--format", default="text", help="output format: " + ", ".join(FORMATTERS))
    p.add_argument("--output-file", "-o", metavar="FILE", help="write the report to FILE instead of standard output")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    p.add_argument("--statistics", action="store_true", help="print a count of findings per code")
    p.add_argument("--show-fixes", action="store_true", help="print the fix advice under each finding (text format)")
    p.add_argument("--explain", metavar="CODE", help="print a rule's documentation and examples, then exit")
    p.add_argument("--list-rules", action="store_true", help="list every rule and exit")
    p.add_argument("--config", metavar="PYPROJECT", help="read [tool.jaxlint] from this file")
    p.add_argument("--stdin-filename", metavar="NAME", help="lint standard input, reporting it as NAME")
    p.add_argument("--quiet", "-q", action="store_true", help="no summary line on standard error")
    color = p.add_mutually_exclusive_group()
    color.add_argument("--color", dest="color", action="store_const", const=True, default=None, help="force colour")
    color.add_argument("--no-color", dest="color", action="store_const", const=False, help="never colour")
    p.add_argument(
        "--jobs", "-j", type=int, metavar="N", default=None, help="worker processes (default: the number of CPUs)"
    )
    p.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    p.add_argument("--cache-dir", metavar="DIR", help="result cache folder (default: .jaxlint_cache next to pyproject.toml, else in the working folder)")
    _add_dynamic_options(p)
    # Review modes: only what a change introduced (jaxlint/review/diffmode.py, jaxlint/review/baseline.py).
    p.add_argument("--diff", metavar="REV", help="lint only lines added or changed since git merge-base REV HEAD")
    p.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in FILE")
    p.add_argument("--write-baseline", metavar="FILE", help="record the current findings in FILE and report none")
    p.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    return p


def _add_dynamic_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "dynamic mode",
        "--dynamic marks each finding confirmed, refuted or unverified by tracing the code with JAX on CPU. "
        "It IMPORTS each file that has findings, which EXECUTES the module's top-level code (never its "
        "if __name__ == '__main__': block), in a separate process with a timeout. Use it only on code you trust. "
        "Needs: pip install 'jaxlint[dynamic]'.",
    )
    g.add_argument("--dynamic", action="store_true", help="confirm findings by tracing them with jax.make_jaxpr / jax.jit")
    g.add_argument(
        "--dynamic-timeout", type=float, default=60.0, metavar="SECONDS", help="time allowed per file (default: 60)"
    )
    g.add_argument("--dynamic-drop-refuted", action="store_true", help="leave refuted findings out of the report")


def _dynamic(findings: List[Finding], files: List[str], args, cfg: Config) -> List[Finding]:
    """Run dynamic mode over the findings (jaxlint.dynamic is imported only here)."""
    from jaxlint import dynamic

    if not dynamic.jax_available():
        raise DynamicUnavailable(f"--dynamic needs JAX: {dynamic.INSTALL_HINT}")
    if args.dynamic_timeout <= 0:
        raise UsageError("--dynamic-timeout must be positive")
    real = {relpath(f): f for f in files if f != "-"}
    progress = sys.stderr if sys.stderr.isatty() else None
    findings = dynamic.confirm(findings, real, timeout=args.dynamic_timeout, progress=progress, config=cfg)
    if not args.quiet:
        print(f"Dynamic check: {dynamic.summary(findings)}.", file=sys.stderr)
    if args.dynamic_drop_refuted:
        findings = dynamic.drop_refuted(findings)
    return findings


class DynamicUnavailable(UsageError):
    pass


def _check_dynamic_available(args) -> None:
    if getattr(args, "dynamic", False):
        from jaxlint import dynamic

        if not dynamic.jax_available():
            raise DynamicUnavailable(f"--dynamic needs JAX: {dynamic.INSTALL_HINT}")


def explain(code: str) -> str:
    rule = RULES_BY_CODE.get(code.upper())
    if rule is None:
        raise UsageError(f"unknown rule code '{code}' (see jaxlint --list-rules)")
    return rule.explain()


def list_rules() -> str:
    return "".join(f"{r.code}  {r.name:28s} {r.summary()}\n" for r in ALL_RULES)


def effective_config(args, paths: Sequence[str]) -> Config:
    cfg = load_config(paths, args.config)
    select = _codes(args.select)
    ignore = _codes(args.ignore)
    cfg = with_overrides(cfg, select=select, ignore=ignore, preview=getattr(args, "preview", None))
    if args.extend_select:
        cfg = with_overrides(cfg, select=cfg.select + _codes(args.extend_select))
    if args.extend_ignore:
        cfg = with_overrides(cfg, ignore=cfg.ignore + _codes(args.extend_ignore))
    for c in cfg.select + cfg.ignore:
        if not c.startswith("JAX"):
            raise ConfigError(f"unknown code prefix '{c}': jaxlint codes start with JAX")
    return cfg


def lint_paths(paths: List[str], cfg: Config, args) -> RunResult:
    """The engine's one pipeline, with the command line's run options."""
    cache_dir = None
    if not getattr(args, "no_cache", False):
        cache_dir = getattr(args, "cache_dir", None) or default_cache_directory(cfg.root)
    rules = rules_for(cfg)
    return lint_files(
        paths,
        cfg,
        jobs=getattr(args, "jobs", None),
        cache_dir=cache_dir,
        display=relpath,
        stdin=lambda: _lint_stdin(args, cfg, rules),
    )


def _lint_stdin(args, cfg: Config, rules) -> List[Finding]:
    data = sys.stdin.buffer.read()
    name = args.stdin_filename or "-"
    display = relpath(name) if name != "-" else name
    remember_source(display, data)  # machine formats read lines for columns and fingerprints
    return lint_source(data, display, cfg, rules).findings


def use_color(args, stream) -> bool:
    if args.color is not None:
        return args.color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args, parser)
    except (UsageError, ConfigError) as e:
        print(f"jaxlint: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("jaxlint: interrupted", file=sys.stderr)
        return 130


def _run(args, parser) -> int:
    if args.explain:
        sys.stdout.write(explain(args.explain))
        return 0
    if args.list_rules:
        sys.stdout.write(list_rules())
        return 0
    if args.format not in FORMATTERS:
        raise UsageError(f"unknown format '{args.format}' (choose from {', '.join(FORMATTERS)})")
    paths = list(args.paths)
    if args.stdin_filename and not paths:
        paths = ["-"]
    if not paths:
        paths = ["."]
    cfg = effective_config(args, [p for p in paths if p != "-"])
    _check_dynamic_available(args)
    diff_scope = diffmode.scope_for(args)
    if diff_scope is not None:
        paths = diff_scope.files([p for p in args.paths if p != "-"])
    run = lint_paths(paths, cfg, args)
    files, missing, findings = run.files, run.missing, run.findings
    if diff_scope is not None:
        findings = diff_scope.filter(findings)
    findings = baseline.apply(args, findings)
    if getattr(args, "dynamic", False) and findings:
        findings = _dynamic(findings, files, args, cfg)

    out_stream = sys.stdout
    fh = None
    if args.output_file:
        fh = open(args.output_file, "w", encoding="utf-8", newline="\n")
        out_stream = fh
    try:
        fmt = FORMATTERS[args.format]
        if args.format == "text":
            text = fmt(findings, color=use_color(args, out_stream), show_fix=args.show_fixes)
        else:
            text = fmt(findings)
        out_stream.write(text)
        if args.statistics:
            counts = Counter(f.code for f in findings)
            stats = "".join(
                f"{counts[c]:<5d} {c} {RULES_BY_CODE[c].name if c in RULES_BY_CODE else ''}\n" for c in sorted(counts)
            )
            (sys.stdout if args.format == "text" and fh is None else sys.stderr).write(stats)
    finally:
        if fh is not None:
            fh.close()
    for m in missing:
        print(f"jaxlint: error: {m}: {not_a_file_reason(m)}", file=sys.stderr)
    if not args.quiet:
        nfiles = len({f.path for f in findings})
        if findings:
            print(
                f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} in {nfiles} file{'s' if nfiles != 1 else ''} "
                f"({len(files)} checked).",
                file=sys.stderr,
            )
        else:
            print(f"All checks passed ({len(files)} file{'s' if len(files) != 1 else ''} checked).", file=sys.stderr)
    if missing:
        return 2
    if findings and not args.exit_zero:
        return 1
    return 0
