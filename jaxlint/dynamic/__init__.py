"""``jaxlint --dynamic``: confirm static findings by tracing the code with JAX.

Safety model: for every file with findings, a separate worker process (``python -m
jaxlint.dynamic.worker``, or on Linux a child forked from one server process that imported JAX
once) imports the file as a module -- which executes its top-level code, but not as
``__main__`` -- and then traces the functions behind the findings with ``jax.make_jaxpr`` /
``jax.jit`` on CPU.  To build arguments it may run the module's driver code up to the call of
the entry point (jaxlint.dynamic.worker.drivers): the ``__main__`` block's assignments and the
statements that lead to the call, never its other statements.  Each worker has a timeout; an
import error, a crash, a hang or a ``sys.exit`` only makes that file's findings ``unverified``.

Last, a file whose findings the checks could not verify (its functions are reached only through
its own driver: nested in ``main()``, fed by objects the driver builds) but which imported
cleanly is run as a script, as ``python file.py`` would run it, under ``jaxlint run``, with the
same timeout: a finding is confirmed when that run shows the same bug on its line.  This runs
the whole ``__main__`` block.

The folders say which side of the process boundary a module runs on: ``worker/`` runs in the
user's process (it imports the user's module and JAX); the rest of this folder plans and
collects in jaxlint's own, never importing either.  ``protocol`` (the plan and the events, as
types) and ``processes`` use the standard library only, for both sides.  This package's own
``__init__`` is imported by the worker too, so it stays light: the planning modules load on
first use.  The static rules never import this package.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, TextIO, Union

from jaxlint.findings import Finding

if TYPE_CHECKING:
    from jaxlint.dynamic.processes import ForkServer

INSTALL_HINT = "python -m pip install 'jax>=0.4.30' (from a clone of jaxlint: python -m pip install '.[dynamic]')"
DEFAULT_TIMEOUT = 60.0
STATUSES = ("confirmed", "refuted", "unverified")


def jax_available() -> bool:
    """Whether JAX can be imported, found without importing it."""
    try:
        return importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib") is not None
    except (ImportError, ValueError):
        return False


def confirm(
    findings: Sequence[Finding],
    real_paths: Dict[str, str],
    timeout: float = DEFAULT_TIMEOUT,
    progress: Optional[TextIO] = None,
    jobs: Optional[int] = None,
    config_for=None,
    fork: Union[bool, "ForkServer", None] = None,
) -> List[Finding]:
    """Return the findings with ``dynamic`` set.  ``real_paths`` maps a finding's path to the file.

    The checks are planned from the findings' own facts (derived by the engine with the run's
    configuration), so the files are not read or parsed again here -- except, for a finding
    whose traced entry point is in another file, that file (``config_for(path)``: its
    configuration), to describe the entry point (jaxlint.dynamic.remote).  ``fork``: whether the
    files' processes are forked from one server that imported JAX (None: where that is safe;
    jaxlint.dynamic.processes), or an open ``ForkServer`` to fork them from (used while it
    serves the current environment; otherwise this call starts its own)."""
    # The planning side imports the rules and the engine; the worker process imports this
    # package too (its own is jaxlint.dynamic.worker) and must not: loaded on first use here.
    from jaxlint.dynamic.confirming import confirm_findings

    return confirm_findings(findings, real_paths, timeout, progress, jobs, config_for, fork)


def summary(findings: Sequence[Finding]) -> str:
    c = Counter((f.dynamic or {}).get("status") for f in findings)
    return f"{c['confirmed']} confirmed, {c['refuted']} refuted, {c['unverified']} unverified"


def drop_refuted(findings: Sequence[Finding]) -> List[Finding]:
    return [f for f in findings if (f.dynamic or {}).get("status") != "refuted"]
