"""Findings from the user's own runs: ``pytest -p jaxlint.pytest_plugin`` and ``jaxlint run``.

Everything here runs in the user's process, beside their code, and only when they ask for it:
the static analysis never imports this package.

* :mod:`jaxlint.runtime.sites` finds the user's line in a stack and tells which rule a JAX
  error or a cache miss at that line belongs to, from the rules' own ``prevents`` records and
  the syntax around the line.
* :mod:`jaxlint.runtime.observer` watches a run through what JAX itself offers: its
  explanations of tracing-cache misses, its error classes, and the tracers left in the user's
  modules when a trace is over.
* :mod:`jaxlint.runtime.effects` compares the user's state around each trace: the writes that
  run once per compilation, and the statements that make them.
* :mod:`jaxlint.runtime.stale` is the opt-in check of stale values, a jitted call against the
  same call run eagerly.
* :mod:`jaxlint.runtime.report` turns what was seen into findings, merges them with the static
  analysis of the same files, and writes them in any output format.
"""
