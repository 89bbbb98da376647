"""``jaxlint run script.py [args]``: runs a script as ``python script.py [args]`` would, with
the observer watching, and reports what it saw when the script ends."""

from __future__ import annotations

import argparse
import builtins
import os
import sys
import traceback
import types
from typing import List, Sequence

from jaxlint.formats import FORMATTERS
from jaxlint.runtime.observer import Observer
from jaxlint.runtime.report import merge_static, observed_findings, write_report


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, as the jaxlint command says it
        self.exit(2, f"jaxlint run: error: {message} (see jaxlint run --help)\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="jaxlint run",
        description="Run a Python script and report the trace-time bugs JAX showed while it ran.",
        epilog="Exit status: 1 when there are findings, else the script's own.",
    )
    p.add_argument("script", help="the script to run, as python would run it")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    p.add_argument("--output-format", "--format", dest="format", default="text", choices=sorted(FORMATTERS), metavar="FORMAT")
    p.add_argument("--output-file", "-o", metavar="FILE", help="write the report to FILE")
    p.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in FILE")
    p.add_argument("--check-leaks", action="store_true", help="also run under jax.checking_leaks (slower; a leak raises)")
    p.add_argument("--check-stale", action="store_true", help="also compare jitted calls with the same calls run eagerly (runs their Python bodies twice)")
    p.add_argument("--no-static", action="store_true", help="do not merge with the static analysis of the files")
    return p


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    script = os.path.abspath(args.script)
    if not os.path.isfile(script):
        print(f"jaxlint run: error: {args.script}: no such file", file=sys.stderr)
        return 2
    observer = Observer([os.getcwd(), os.path.dirname(script)], check_leaks=args.check_leaks, check_stale=args.check_stale)
    status = _run(script, args.args, observer)
    findings = observed_findings(list(observer.seen.values()))
    if not args.no_static:
        findings = merge_static(findings)
    written = write_report(findings, args.format, args.output_file, args.baseline)
    return 1 if written else status


def _run(script: str, script_args: List[str], observer) -> int:
    """Runs ``script`` as ``__main__``; its exit status (1 for an uncaught error, whose
    traceback is printed as Python prints it)."""
    saved_argv, saved_path, saved_main = sys.argv[:], sys.path[:], sys.modules.get("__main__")
    sys.argv = [script] + list(script_args)
    sys.path.insert(0, os.path.dirname(script))
    # The script's module is ``__main__`` in sys.modules while it runs and when the scope ends,
    # as under ``python script.py``: its globals are where escaped tracers are looked for.
    main = types.ModuleType("__main__")
    main.__file__ = script
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    status = 0
    observer.start()
    observer.begin(os.path.basename(script))
    try:
        with open(script, "rb") as fh:
            code = compile(fh.read(), script, "exec")
        exec(code, main.__dict__)
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException as e:  # the script's own error: Python would print it and exit 1
        tb = e.__traceback__
        while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != script:
            tb = tb.tb_next  # from the script's own frame on, as Python shows it
        traceback.print_exception(type(e), e, tb or e.__traceback__)
        observer.failed(e)
        status = 1
    finally:
        observer.end()
        observer.stop()
        sys.argv, sys.path[:] = saved_argv, saved_path
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
    return status
