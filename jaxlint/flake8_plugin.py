"""flake8 plugin: the same findings as the ``jaxlint`` command, reported through flake8.

The plugin is a thin face over :func:`jaxlint.engine.lint_source`; it does no analysis of its
own.  Three points where flake8's conventions differ from jaxlint's:

* Columns: flake8 adds 1 to the column a plugin yields, so the plugin yields the 0-based column
  and ``flake8`` prints the same column as ``jaxlint``.
* ``# noqa``: flake8 applies it (and honours ``--disable-noqa``), so the engine is asked not to.
  Filtering here as well would make ``--disable-noqa`` a lie.  Only what flake8 does not know
  is applied here: a file-level ``# jaxlint: noqa`` (``# flake8: noqa`` is flake8's own).
* Selection: flake8's ``--select`` / ``--ignore`` / ``per-file-ignores`` filter what the plugin
  reports.  The jaxlint configuration closest to each file (as for the ``jaxlint`` command, its
  globs relative to its own folder, whatever flake8's working folder) still decides which rules run
  and how the analysis sees the code (``extra-jit-decorators``), so both tools agree on a project.

A syntax error is reported by flake8 itself (E999) before any plugin runs.  A configuration
jaxlint cannot read is a plugin failure, which flake8 reports in one line of its own.
"""

from __future__ import annotations

import os
from typing import Dict, Iterator, Optional, Sequence, Tuple

from jaxlint import __version__
from jaxlint.config import Config, ConfigError, load_config
from jaxlint.engine.discovery import relpath
from jaxlint.engine.pipeline import lint_source
from jaxlint.engine.source import mentions_jax

# flake8 lints many files of the same folders; pyproject.toml is read once per folder.
_CONFIGS: Dict[str, Config] = {}


def _config_for(filename: str) -> Config:
    # For standard input ``filename`` is flake8's --stdin-display-name ("stdin" by default).
    folder = os.path.dirname(os.path.abspath(filename))
    cfg = _CONFIGS.get(folder)
    if cfg is None:
        cfg = load_config([folder])
        _CONFIGS[folder] = cfg
    return cfg


class ConfigurationFailure(Exception):
    """A jaxlint configuration error as flake8 shows it: flake8 prints the ``repr`` of the
    exception a plugin raised, so the repr is the one-line message (file, table, key, problem)."""

    def __repr__(self) -> str:
        return str(self)


class JaxlintChecker:
    name = "jaxlint"
    version = __version__

    def __init__(self, tree, filename: str, lines: Optional[Sequence[str]] = None) -> None:
        # ``tree`` (flake8's ast) is requested only because flake8 runs a plugin once per file
        # when it asks for it; jaxlint parses with LibCST, and only files that mention jax.
        self.filename = filename
        self.lines = lines
        # Read here, not in run(): flake8 reports an exception raised while it creates the checker
        # as a plugin failure, in one line, but shows one raised while it iterates the results as
        # a traceback.
        try:
            self.config = _config_for(filename)
        except ConfigError as e:
            raise ConfigurationFailure(str(e)) from None

    def _source(self) -> str:
        if self.lines is not None:
            return "".join(self.lines)
        with open(self.filename, "rb") as fh:
            return fh.read().decode("utf-8", "surrogateescape")

    def run(self) -> Iterator[Tuple[int, int, str, type]]:
        text = self._source()
        config = self.config
        # The cheap text gate: no LibCST parse for a file that never mentions jax.
        if not mentions_jax(text, config.extra_jit_decorators):
            return
        findings = lint_source(text, relpath(self.filename), config, noqa=False, facts=False).findings
        for f in findings:
            yield f.line, f.column - 1, f"{f.code} {f.message}", type(self)
