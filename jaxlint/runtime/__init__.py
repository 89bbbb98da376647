"""Findings from the user's own runs: ``pytest -p jaxlint.pytest_plugin`` and ``jaxlint run``.

Everything here runs in the user's process, beside their code, and only when they ask for it:
the static analysis never imports this package.  ``observer`` watches JAX (with ``effects``
and the opt-in ``stale`` check), ``sites`` places what it sees in the user's code and names the
rule, ``report`` turns it into findings.
"""
