"""flake8 plugin: the ``jaxlint`` command's findings, reported through flake8, except the
cross-module ones (flake8 hands a plugin one file at a time).

The plugin is a thin face over :func:`jaxlint.engine.pipeline.lint_cached`; it does no analysis of its
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

Results are cached in the ``jaxlint`` command's cache folder (``.jaxlint_cache`` next to the
configuring pyproject.toml), keyed by the file's content, path and settings, so a file flake8
saw before is not analysed again.  The entries are the plugin's own (its findings keep the
``# noqa`` comments for flake8); ``--jaxlint-cache-dir`` moves them, ``--jaxlint-no-cache``
turns the cache off.
"""

from __future__ import annotations

import os
from typing import Dict, Iterator, Optional, Sequence, Tuple

from jaxlint.versions import __version__
from jaxlint.config import Config, ConfigError, load_config
from jaxlint.engine.cache import Cache, default_directory
from jaxlint.paths import relpath
from jaxlint.engine.pipeline import lint_cached
from jaxlint.engine.source import mentions_jax
from jaxlint.rules import RULES_BY_CODE, rules_for

# flake8 lints many files of the same folders; pyproject.toml is read once per folder.
_CONFIGS: Dict[str, Config] = {}


def _config_for(filename: str) -> Config:
    # For standard input ``filename`` is flake8's --stdin-display-name ("stdin" by default).
    folder = os.path.dirname(os.path.abspath(filename))
    cfg = _CONFIGS.get(folder)
    if cfg is None:
        cfg = load_config([folder], rules=RULES_BY_CODE)
        _CONFIGS[folder] = cfg
    return cfg


# One cache per folder and settings; flake8 creates a checker per file.
_CACHES: Dict[Tuple[str, str], Cache] = {}
# Set from flake8's options (parse_options): None for the default folder, "" for no cache.
_CACHE_DIR: Optional[str] = None


def _cache_for(config: Config, rules) -> Optional[Cache]:
    directory = _CACHE_DIR if _CACHE_DIR is not None else default_directory(config.root)
    if not directory:
        return None
    # The findings before ``# noqa`` (flake8 applies it): not the command's entries.
    settings = config.key() + "\nnoqa: left to flake8"
    cache = _CACHES.get((directory, settings))
    if cache is None:
        cache = _CACHES[(directory, settings)] = Cache(directory, settings, [r.code for r in rules])
    return cache


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

    @staticmethod
    def add_options(manager) -> None:
        manager.add_option("--jaxlint-cache-dir", metavar="DIR", parse_from_config=True, help="jaxlint's result cache folder (default: .jaxlint_cache next to pyproject.toml)")
        manager.add_option("--jaxlint-no-cache", action="store_true", parse_from_config=True, help="do not read or write jaxlint's result cache")

    @staticmethod
    def parse_options(options) -> None:
        global _CACHE_DIR
        if getattr(options, "jaxlint_no_cache", False):
            _CACHE_DIR = ""
        else:
            _CACHE_DIR = getattr(options, "jaxlint_cache_dir", None) or None

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
        shown = relpath(self.filename)
        rules = rules_for(config)
        for f in lint_cached(text, shown, config, rules, _cache_for(config, rules), noqa=False):
            yield f.line, f.column - 1, f"{f.code} {f.message}", type(self)
