"""``pytest --jaxlint``: the test suite runs unchanged, with jaxlint watching JAX, and at the end
jaxlint reports the trace-time bugs the tests showed (jaxlint.runtime), in any output format.

Installed with jaxlint as a pytest plugin (entry point ``jaxlint.pytest_plugin``), and inert
unless ``--jaxlint`` is given: importing this module imports neither JAX nor the analysis.
With plugin autoloading off, ``-p jaxlint.pytest_plugin --jaxlint`` loads it.

Each test is one scope: a call site that traces a function again within one test recompiles,
while tests that each call a function with their own shapes do not.  An error a test expects
(``pytest.raises``) is counted as intentional, not reported.
"""

from __future__ import annotations

import functools
import os

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("jaxlint", "trace-time bugs observed while the tests run")
    group.addoption("--jaxlint", action="store_true", help="observe JAX while the tests run and report the trace-time bugs seen")
    group.addoption("--jaxlint-format", default="text", metavar="FORMAT", help="output format of the report (as jaxlint's --output-format)")
    group.addoption("--jaxlint-output", metavar="FILE", help="write the report to FILE instead of the terminal")
    group.addoption("--jaxlint-baseline", metavar="FILE", help="report only findings not recorded in this jaxlint baseline")
    group.addoption("--jaxlint-check-leaks", action="store_true", help="also run under jax.checking_leaks (slower; a leak raises)")
    group.addoption("--jaxlint-check-stale", action="store_true", help="also compare jitted calls with the same calls run eagerly (runs their Python bodies twice)")
    group.addoption("--jaxlint-no-static", action="store_true", help="do not merge with the static analysis of the files")


def pytest_configure(config):
    if not config.getoption("jaxlint"):
        return
    # imported on use: the runtime mode imports JAX and the analysis, which the plugin does
    # without unless --jaxlint is given
    from jaxlint.runtime import observer as runtime_observer, report

    fmt = config.getoption("jaxlint_format")
    if fmt not in report.FORMATTERS:
        raise pytest.UsageError(f"--jaxlint-format: unknown format {fmt!r} (one of {', '.join(report.FORMATTERS)})")
    observer = runtime_observer.Observer([str(config.rootpath)], check_leaks=config.getoption("jaxlint_check_leaks"), check_stale=config.getoption("jaxlint_check_stale"))
    observer.start()
    config.stash[_stash_key()] = (observer, report)
    _expect_through_raises(observer)


@functools.lru_cache(maxsize=None)
def _stash_key():
    return pytest.StashKey()


def _stashed(config):
    """(the run's observer, the report module), or (None, None) without --jaxlint."""
    return config.stash.get(_stash_key(), (None, None))


def _expect_through_raises(observer) -> None:
    """``pytest.raises`` tells the observer which errors a test expected."""
    original = pytest.raises

    class Expecting:
        def __init__(self, context):
            self._context = context

        def __enter__(self):
            return self._context.__enter__()

        def __exit__(self, kind, value, tb):
            suppressed = self._context.__exit__(kind, value, tb)
            if suppressed and value is not None:
                observer.expected(value)
            return suppressed

        def __getattr__(self, name):
            return getattr(self._context, name)

    @functools.wraps(original)
    def raises(*args, **kwargs):
        if len(args) > 1:  # the call form: pytest.raises(Error, function, *arguments)
            info = original(*args, **kwargs)
            observer.expected(info.value)
            return info
        return Expecting(original(*args, **kwargs))

    pytest.raises = raises
    observer.undo_on_stop(lambda: setattr(pytest, "raises", original))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    observer = _stashed(item.config)[0]
    if observer is None:
        yield
        return
    observer.begin(item.nodeid)
    try:
        yield
    finally:
        observer.end()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    yield
    observer = _stashed(item.config)[0]
    if observer is not None and call.excinfo is not None:
        observer.failed(call.excinfo.value)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    observer, report = _stashed(config)
    if observer is None:
        return
    observer.stop()
    findings = report.observed_findings(list(observer.seen.values()))
    expected = sum(s.expected for s in observer.seen.values())
    if not config.getoption("jaxlint_no_static"):
        findings = report.merge_static(findings)
    terminalreporter.section("jaxlint")
    output = config.getoption("jaxlint_output")
    written = report.write_report(findings, config.getoption("jaxlint_format"), output, config.getoption("jaxlint_baseline"), stream=terminalreporter)
    n = len(written)
    summary = f"jaxlint: {n} finding{'s' if n != 1 else ''} observed"
    if output:
        summary += f", written to {os.path.relpath(output)}"
    if expected:
        summary += f"; {expected} error{'s' if expected != 1 else ''} expected by pytest.raises (not findings)"
    terminalreporter.write_line(summary)
