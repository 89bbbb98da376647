"""The ``jaxlint`` command."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import io
import os
import sys
import tempfile
from typing import List, Optional, Sequence

import jaxlint
from jaxlint import __version__, engine, selectors
from jaxlint import rules as registry  # its names load on first use: the rules import LibCST
from jaxlint.config import Config, ConfigError, Overrides, Resolver
from jaxlint.engine.cache import default_directory
from jaxlint.engine.discovery import discover, not_a_file_reason, package_context
from jaxlint.engine.run import lint_files
from jaxlint.findings import Finding
from jaxlint.fingerprints import remember_source
from jaxlint.formats import FORMATTERS, TEXT_FORMATS
from jaxlint.formats.text import fix_summary, format_statistics
from jaxlint.paths import relpath

# The rest is named where it is used, as an attribute of its package, which imports it then
# (jaxlint.on_demand): a plain run, as pre-commit makes it, loads the engine and its own output
# format, not the fix rounds, review modes, report files, the dynamic mode or the server.


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, like every other bad input
        self.exit(2, f"jaxlint: error: {message} (see jaxlint --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
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
    p.add_argument(
        "--output-format",
        "--format",
        dest="format",
        default="text",
        metavar="FORMAT",
        help="output format: " + ", ".join(FORMATTERS) + " (text: full on a terminal, concise otherwise)",
    )
    p.add_argument("--output-file", "-o", metavar="FILE", help="write the report to FILE instead of standard output")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when there are findings")
    p.add_argument("--statistics", action="store_true", help="print a count of findings per code")
    p.add_argument("--show-advice", action="store_true", help="print the fix advice under each finding as a help: line (text format)")
    _add_fix_options(p)
    p.add_argument("--explain", metavar="CODE", help="print a rule's documentation and examples, then exit")
    p.add_argument("--list-rules", action="store_true", help="list every rule and exit (--format json for a machine-readable list)")
    p.add_argument(
        "--config", metavar="FILE", help="use this pyproject.toml or jaxlint.toml for every file (default: the closest one above each file)"
    )
    p.add_argument("--isolated", action="store_true", help="ignore every configuration file")
    p.add_argument("--show-settings", metavar="FILE", help="print the settings that apply to FILE, then exit")
    p.add_argument("--show-files", action="store_true", help="print the files that would be linted, then exit")
    p.add_argument(
        "--no-respect-gitignore",
        dest="respect_gitignore",
        action="store_false",
        help="also lint files that git ignores (.gitignore, .git/info/exclude)",
    )
    p.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply exclude settings to files named on the command line too (what the pre-commit hook does)",
    )
    p.add_argument(
        "--package-context",
        action="store_true",
        help="also read the other modules of each named file's package, for cross-module findings, "
        "and report the named files only (what the pre-commit hook does)",
    )
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


def _add_fix_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("fixes", "Rules with a known rewrite fix their findings (jaxlint/fixes); unsafe fixes may change behaviour.")
    g.add_argument("--fix", action="store_true", help="apply safe fixes, writing the files in place (with --stdin-filename: the fixed source to standard output)")
    g.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="with --fix, exit 1 when a fix was applied, even if no findings remain",
    )
    g.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --fix-diff, also apply the unsafe fixes")
    g.add_argument("--fix-diff", action="store_true", help="print the unified diff of the fixes without writing anything")
    g.add_argument("--show-fixes", action="store_true", help="list the fixes applied and those available")
    g.add_argument("--add-noqa", action="store_true", help="add '# noqa: CODE' to the line of every finding, then exit")


def _add_dynamic_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "dynamic mode",
        "--dynamic marks each finding confirmed, refuted or unverified by tracing the code with JAX on CPU. "
        "It IMPORTS each file that has findings, which EXECUTES the module's top-level code, in a separate process "
        "with a timeout; to build arguments it may also run the assignments of the if __name__ == '__main__': block "
        "and the statements that lead to the call (never its other statements), and functions without required "
        "parameters that call the entry point, up to that call. Use it only on code you trust. "
        "Needs JAX next to jaxlint: python -m pip install 'jax>=0.4.30'.",
    )
    g.add_argument("--dynamic", action="store_true", help="confirm findings by tracing them with jax.make_jaxpr / jax.jit")
    g.add_argument(
        "--dynamic-timeout", type=float, default=60.0, metavar="SECONDS", help="time allowed per file (default: 60)"
    )
    g.add_argument("--dynamic-drop-refuted", action="store_true", help="leave refuted findings out of the report")


def _dynamic(findings: List[Finding], files: List[str], args, config_for=None) -> List[Finding]:
    """Run dynamic mode over the findings."""
    dynamic = jaxlint.dynamic
    if args.dynamic_timeout <= 0:
        raise UsageError("--dynamic-timeout must be positive")
    real = {relpath(f): f for f in files if f != "-"}
    progress = sys.stderr if sys.stderr.isatty() else None
    findings = dynamic.confirm(findings, real, timeout=args.dynamic_timeout, progress=progress, config_for=config_for)
    if not args.quiet:
        print(f"Dynamic check: {dynamic.summary(findings)}.", file=sys.stderr)
    if args.dynamic_drop_refuted:
        findings = dynamic.drop_refuted(findings)
    return findings


def explain(code: str) -> str:
    rule = registry.RULES_BY_CODE.get(code.upper())
    if rule is None:
        raise UsageError(f"unknown rule code '{code}' (see jaxlint --list-rules)")
    return rule.explain()


def list_rules(fmt: str = "text") -> str:
    if fmt == "json":
        return jaxlint.formats.rule_list.rule_json()
    if fmt not in TEXT_FORMATS:
        raise UsageError(f"--list-rules prints text or json, not '{fmt}'")
    return jaxlint.formats.rule_list.rule_table()


def make_resolver(args) -> Resolver:
    overrides = Overrides(
        select=selectors.parse_option(args.select, "--select", registry.RULE_TABLE),
        ignore=selectors.parse_option(args.ignore, "--ignore", registry.RULE_TABLE),
        extend_select=selectors.parse_option(args.extend_select, "--extend-select", registry.RULE_TABLE) or (),
        extend_ignore=selectors.parse_option(args.extend_ignore, "--extend-ignore", registry.RULE_TABLE) or (),
        preview=getattr(args, "preview", None),
    )
    return Resolver(args.config, getattr(args, "isolated", False), overrides, rules=registry.RULE_TABLE)


def lint_paths(
    files: List[str], config_for, args, sources=None, facts: Optional[bool] = None, cache_dir: Optional[str] = None
) -> List[Finding]:
    """The engine's one pipeline (jaxlint.engine.run) over discovered files, with the command
    line's run options; ``config_for(path)`` gives each file's settings.  ``sources``: contents
    to lint instead of the files' (path -> bytes: the fix rounds' text); ``facts``: whether to
    derive the dynamic mode's facts (default: under ``--dynamic``); ``cache_dir``: the result
    cache to use instead of the one the options name."""
    first = config_for(next((f for f in files if f != "-"), "."))
    if cache_dir is None and not getattr(args, "no_cache", False):
        cache_dir = getattr(args, "cache_dir", None) or default_directory(first.root)
    named = files
    if getattr(args, "package_context", False):
        files = list(files) + package_context(files, config_for, getattr(args, "respect_gitignore", True))
    run = lint_files(
        (),
        config_for,
        files=files,
        jobs=getattr(args, "jobs", None),
        cache_dir=cache_dir,
        display=lambda path, cwd=os.getcwd(): relpath(path, cwd),
        stdin=lambda c, r: _lint_stdin(args, c, r),
        facts=bool(getattr(args, "dynamic", False)) if facts is None else facts,
        sources=sources,
    )
    if files is not named:
        shown = {relpath(f) if f != "-" else _stdin_name(args) for f in named}
        return [f for f in run.findings if f.path in shown]
    return run.findings


def _lint_stdin(args, cfg: Config, rules) -> List[Finding]:
    data = sys.stdin.buffer.read()
    display = _stdin_name(args)
    remember_source(display, data)  # machine formats read lines for columns and fingerprints
    return engine.pipeline.lint_source(data, display, cfg, rules, facts=bool(getattr(args, "dynamic", False))).findings


def _stdin_name(args) -> str:
    """The path standard input's findings report: its --stdin-filename, shown relative."""
    return relpath(args.stdin_filename) if args.stdin_filename else "-"


def _is_terminal(stream) -> bool:
    return hasattr(stream, "isatty") and stream.isatty()


def use_color(args, stream) -> bool:
    if args.color is not None:
        return args.color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return _is_terminal(stream)


def main(argv: Optional[Sequence[str]] = None) -> int:
    _exit_without_freeing()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["server"]:
        return _server(argv[1:])
    if argv[:1] == ["run"]:
        return _run_script(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _run(args, parser)
    except (UsageError, ConfigError, selectors.SelectorError) as e:
        print(f"jaxlint: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("jaxlint: interrupted", file=sys.stderr)
        return 130


def _exit_without_freeing() -> None:
    """At exit, the interpreter frees the objects of every module one by one and collects the
    cycles among them (each class and function is one): measured, a seventh of the CPU time of
    a run over one file.  Frozen (out of the collector's reach), they are left to the system.
    Registered once, it runs only as the process exits: a caller of ``main`` loses nothing."""
    global _exit_registered
    if not _exit_registered:
        atexit.register(gc.freeze)
        _exit_registered = True


_exit_registered = False


def _server(argv) -> int:
    """``jaxlint server``: the language server (needs the ``server`` extra)."""
    try:
        server_main = jaxlint.server.main
    except ImportError as e:
        # From the clone: the package index's ``jaxlint`` is another project.
        print(f"jaxlint: error: the language server needs pygls and lsprotocol: in a clone of jaxlint, pip install '.[server]' ({e})", file=sys.stderr)
        return 2
    return server_main(argv)


def _run_script(argv) -> int:
    """``jaxlint run script.py [args]``: the script runs with jaxlint watching (needs JAX)."""
    try:
        # imported on use: the runtime mode imports JAX, which only `jaxlint run` needs
        from jaxlint.runtime.script import main as run_main
    except ImportError as e:
        print(f"jaxlint: error: jaxlint run needs JAX in the same environment ({e})", file=sys.stderr)
        return 2
    return run_main(argv)


def _run(args, parser) -> int:
    if args.explain:
        sys.stdout.write(explain(args.explain))
        return 0
    if args.list_rules:
        sys.stdout.write(list_rules(args.format))
        return 0
    if args.format not in FORMATTERS:
        raise UsageError(f"unknown format '{args.format}' (choose from {', '.join(FORMATTERS)})")
    paths = list(args.paths)
    if args.stdin_filename:
        if any(p != "-" for p in paths):
            # As ruff does: standard input is what gets linted; saying so beats guessing.
            print("jaxlint: warning: --stdin-filename lints standard input; the paths given are ignored", file=sys.stderr)
        paths = ["-"]
    if not paths:
        paths = ["."]
    resolver = make_resolver(args)
    if args.show_settings:
        sys.stdout.write(show_settings(resolver.for_path(args.show_settings)))
        return 0
    if args.dynamic and not jaxlint.dynamic.jax_available():
        raise UsageError(f"--dynamic needs JAX: {jaxlint.dynamic.INSTALL_HINT}")
    diff_scope = None
    if args.diff is not None:
        diff_scope = jaxlint.review.diffmode.scope_for(args.diff, args.paths)
        paths = diff_scope.files([p for p in args.paths if p != "-"])
    found = discover(paths, _config_for(resolver, args), args.respect_gitignore, args.force_exclude, args.stdin_filename)
    files, missing = found.files, found.missing
    resolver.note_files(files)
    if paths == ["-"] and not files and args.fix and not args.fix_diff:
        # Standard input excluded by --force-exclude: an editor that pipes its buffer through
        # ``--fix`` gets the buffer back unchanged, never an empty one.
        sys.stdout.buffer.write(sys.stdin.buffer.read())
        return 0
    for w in found.warnings:
        print(f"jaxlint: warning: {w}", file=sys.stderr)
    for e in found.errors:
        print(f"jaxlint: error: {e}", file=sys.stderr)
    if args.show_files:
        sys.stdout.write("".join(relpath(f) + "\n" for f in files))
        for m in missing:
            print(f"jaxlint: error: {m}: {not_a_file_reason(m)}", file=sys.stderr)
        return 2 if missing or found.errors else 0
    _warn_preview_selections(map(_config_for(resolver, args), files or paths or ["."]))
    fh = None
    if args.output_file:
        jaxlint.output.check_report_path(args.output_file, list(files) + [p for p in args.paths if os.path.isfile(p)], args.stdin_filename)
        fh = io.StringIO()  # written to the file after linting (jaxlint.output)
    status = _lint_and_report(args, files, missing, found.errors, resolver, diff_scope, fh)
    if fh is not None:
        jaxlint.output.write_report(args.output_file, fh.getvalue())
    return status


def show_settings(cfg: Config) -> str:
    """``--show-settings``: the settings, and the rules they enable."""
    return cfg.describe() + "enabled rules          " + ", ".join(r.code for r in registry.rules_for(cfg)) + "\n"


def _warn_preview_selections(configs) -> None:
    """A rule in preview runs only with preview, even when selected by its code (as in ruff);
    selecting it without preview is said on standard error, once per selector."""
    for s in selectors.without_effect(dict.fromkeys(configs), registry.RULE_TABLE):
        print(f"jaxlint: warning: selection `{s}` has no effect because preview is not enabled (use --preview)", file=sys.stderr)


def _config_for(resolver: Resolver, args):
    """Each path's settings; standard input takes those of its --stdin-filename."""

    def config_for(path: str) -> Config:
        if path == "-" and args.stdin_filename:
            return resolver.for_path(args.stdin_filename)
        return resolver.for_path(path)

    return config_for


def _lint_and_report(args, files, missing, errors, resolver, diff_scope, fh) -> int:
    config_for = _config_for(resolver, args)
    fixed = None
    if args.fix or args.fix_diff:
        fixrun = jaxlint.fix_command
        if files == ["-"]:
            cfg = config_for("-")
            return fixrun.fix_stdin(sys.stdin.buffer.read(), _stdin_name(args), cfg, registry.rules_for(cfg), args)
        # The fix rounds lint the run as the report does (the cross-module phase, the package
        # context): what is marked fixable is what gets fixed.  Each round lints the whole run
        # again; under --no-cache a cache that lives for this command alone spares the files
        # a round did not change.
        fixing = [f for f in files if f != "-"]
        with tempfile.TemporaryDirectory(prefix="jaxlint-fix-") if args.no_cache else contextlib.nullcontext() as rounds_cache:
            fixed = engine.fixing.fix_files(
                fixing, relpath, config_for, write=not args.fix_diff, unsafe=args.unsafe_fixes,
                lint=lambda sources: lint_paths(fixing, config_for, args, sources=sources, facts=False, cache_dir=rounds_cache),
            )
        for name, reason in fixed.refused:
            print(f"jaxlint: error: {name}: fixes not applied, the result would not parse ({reason})", file=sys.stderr)
        for name, reason in fixed.failed:
            print(f"jaxlint: error: {name}: cannot write the fixed file, left unchanged: {reason}", file=sys.stderr)
        if args.fix_diff:
            sys.stdout.write("".join(fixed.diffs))
            if not args.quiet:
                print(fixrun.summary(len(fixed.fixed), fixed.unsafe_more, applied=False), file=sys.stderr)
            return 1 if fixed.diffs else 0
    findings = lint_paths(files, config_for, args)
    findings.sort(key=Finding.sort_key)
    if diff_scope is not None:
        findings = diff_scope.filter(findings)
    if args.baseline or args.write_baseline:
        findings = jaxlint.review.baseline.apply(findings, args.baseline, args.write_baseline)
    if getattr(args, "dynamic", False) and findings:
        findings = _dynamic(findings, files, args, config_for)
    if args.add_noqa:
        real = {relpath(f): f for f in files if f != "-"}
        failed = []
        added, nfiles = engine.noqa_comments.add_noqa_to_files(findings, real.get, failed)
        for name, reason in failed:
            print(f"jaxlint: error: {name}: cannot write the file, left unchanged: {reason}", file=sys.stderr)
        print(f"Added {added} noqa comment{'s' if added != 1 else ''} to {nfiles} file{'s' if nfiles != 1 else ''}.", file=sys.stderr)
        return 2 if failed else 0

    out_stream = fh if fh is not None else sys.stdout
    out_stream.write(_report_text(findings, args, out_stream))
    if args.statistics and args.format not in TEXT_FORMATS:
        sys.stderr.write(format_statistics(findings, args.unsafe_fixes))  # standard output holds the report
    if args.show_fixes:
        listing = jaxlint.fix_command.show_fixes(fixed.fixed if fixed else [], findings, fixed is not None, args.unsafe_fixes)
        (sys.stdout if args.format in TEXT_FORMATS and fh is None else sys.stderr).write(listing)
    for m in missing:
        print(f"jaxlint: error: {m}: {not_a_file_reason(m)}", file=sys.stderr)
    nerrors = len(missing) + len(errors) + (len(fixed.failed) if fixed is not None else 0)
    if not args.quiet:
        _print_summary(findings, len(files), nerrors, fixed, args)
    if nerrors:
        return 2
    if args.exit_zero:
        return 0
    if findings or (args.exit_non_zero_on_fix and fixed is not None and fixed.changed):
        return 1
    return 0


def _report_text(findings, args, out_stream) -> str:
    """The report in the chosen format; the text formats in full on a terminal (or when
    asked), concise otherwise, and only the statistics table under --statistics."""
    fmt = FORMATTERS[args.format]
    if args.format in TEXT_FORMATS and args.statistics:
        text = format_statistics(findings, args.unsafe_fixes)  # the table only, as in ruff
    elif args.format in TEXT_FORMATS:
        full = args.format == "full" or (args.format == "text" and _is_terminal(out_stream))
        text = FORMATTERS["full" if full else "concise"](
            findings, color=use_color(args, out_stream), show_fix=args.show_advice, unsafe_fixes=args.unsafe_fixes
        )
    else:
        text = fmt(findings, unsafe_fixes=args.unsafe_fixes)
    return text


def _print_summary(findings, nchecked: int, nerrors: int, fixed, args) -> None:
    """The closing lines on standard error: how many findings, files and errors, and what
    --fix did or could do."""
    nfiles = len({f.path for f in findings})
    if findings:
        print(
            f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} in {nfiles} file{'s' if nfiles != 1 else ''} "
            f"({nchecked} checked).",
            file=sys.stderr,
        )
    elif nerrors:
        # Never "All checks passed" after an error line: a path was not linted.
        print(f"No findings ({nchecked} file{'s' if nchecked != 1 else ''} checked), {nerrors} error{'s' if nerrors != 1 else ''}.", file=sys.stderr)
    else:
        print(f"All checks passed ({nchecked} file{'s' if nchecked != 1 else ''} checked).", file=sys.stderr)
    if fixed is None and args.format in TEXT_FORMATS:
        fixable = fix_summary(findings, args.unsafe_fixes)
        if fixable:
            print(fixable, file=sys.stderr)
    if fixed is not None:
        fixed_count, more = len(fixed.fixed), 0 if args.unsafe_fixes else engine.fixing.unsafe_fixable(findings)
        print(jaxlint.fix_command.summary(fixed_count, more), file=sys.stderr)
