"""The worker process of ``jaxlint --dynamic``: ``python -m jaxlint.dynamic.worker PLAN OUT``.

It imports one user module (under its own name, never as ``__main__``), then carries out the
checks of the plan and appends one JSON line per event to OUT, so that whatever it finished
before a hang or a crash is kept.  This is the only part of jaxlint that imports JAX or user
code, and everything in this folder runs in that process only.  Of the rest of jaxlint it
imports only what uses the standard library alone: ``jaxlint.dynamic`` itself (the package
``__init__``, which loads the planning side only when ``confirm`` is called),
``jaxlint.dynamic.processes`` for ``kill_group`` (the fork server kills its children's process
groups as the engine kills a worker's), ``jaxlint.rules.prevents`` for the rules' errors and
``jaxlint.runtime.effects`` for the names a statement reads.

On Linux the engine starts one fork server (``server``: JAX imported once, a child process
forked per file) instead of a worker per file.
"""
