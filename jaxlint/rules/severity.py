"""How serious a rule's findings are, derived from what the rule prevents.

Every face reads it from here: SARIF levels, LSP diagnostics, GitHub annotations, rdjson, the
text colours, ``--list-rules`` and the GitLab report.  The severity answers one question a
reviewer has: does this code fail where it runs?

* ``error``: it fails.  JAX raises (``raises``: while tracing, when the jitted function is
  applied or called, or when a leaked tracer is used afterwards), or Python does (a file that
  does not parse).
* ``warning``: it runs, and misbehaves or will need work: a wrong or stale result, an effect
  frozen at trace time, a recompilation, a deprecation, an error that depends on something
  besides the code (the JAX release it targets: a migration), and the linter's own notes on
  suppression comments and on its own failures.
"""

from __future__ import annotations

ERROR = "error"
WARNING = "warning"


def rule_severity(rule) -> str:
    p = rule.prevents
    if p.kind == "raises" and not p.depends_on:
        return ERROR
    if p.kind == "none" and p.errors:
        return ERROR  # Python raises (the file does not parse): nothing else in it was checked
    return WARNING

