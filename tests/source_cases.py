"""Small sources given as test cases: what jaxlint reports on each, against its ``# error:``
markers, and what each does when it runs under JAX (runs, or raises the error named)."""

import textwrap
from typing import Optional, Tuple

import pytest

from jaxlint import lint_source
from jaxlint.config import Config
from markers import actual, describe, expected_markers


def text_of(src: str) -> str:
    return textwrap.dedent(src).lstrip("\n")


def assert_marked(src: str, family: str) -> None:
    """The findings whose code starts with ``family`` (``--preview``) are the marked ones."""
    text = text_of(src)
    findings = [f for f in lint_source(text, "example.py", Config(preview=True)).findings if f.code.startswith(family)]
    want, _ = expected_markers(text)
    assert actual(findings) == want, describe(actual(findings) ^ want, findings)


def assert_runs_as(src: str, error: Optional[Tuple[str, str]]) -> None:
    """Run the source as a module: it runs (``error`` None), or raises the exception named
    ``error[0]`` with ``error[1]`` in its message."""
    code = compile(text_of(src), "example.py", "exec")
    if error is None:
        exec(code, {"__name__": "example"})
        return
    with pytest.raises(Exception) as raised:
        exec(code, {"__name__": "example"})
    assert type(raised.value).__name__ == error[0] and error[1] in str(raised.value), repr(raised.value)
