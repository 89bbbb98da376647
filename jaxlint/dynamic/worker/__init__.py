"""The worker process of ``jaxlint --dynamic``: ``python -m jaxlint.dynamic.worker PLAN OUT``.

It imports one user module (under its own name, never as ``__main__``), then carries out the
checks of the plan and appends one JSON line per event to OUT, so that whatever it finished
before a hang or a crash is kept.  This is the only part of jaxlint that imports JAX or user
code, and everything in this folder runs in that process only.  Of the rest of jaxlint it
imports only what uses the standard library alone: ``jaxlint.dynamic`` itself (the package
``__init__``, which loads the planning side only when ``confirm`` is called) and
``jaxlint.dynamic.processes`` for ``kill_group`` (the fork server kills its children's process
groups as the engine kills a worker's).

On Linux the engine starts one fork server (``server``: JAX imported once, a child process
forked per file) instead of a worker per file.

Its parts: ``entry`` (the process: import the module, run the checks, write the events),
``imports`` (how a file is imported: by its dotted name inside a package), ``runtime`` (JAX and
the user's module, once imported), ``values`` (the example arguments), ``drivers`` (arguments
captured from the module's own driver code), ``targets`` (the function objects a check runs),
``made_in`` (a function made inside another one, found by its code), ``running`` (one call,
traced or not), ``spans`` (which lines of the file run), ``counting`` and ``interceptors``
(traces, compilations and the calls of jitted functions), ``errors`` and ``notes`` (how an
outcome is told), and ``checks`` (one module per kind of check).
"""
