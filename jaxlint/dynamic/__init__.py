"""``jaxlint --dynamic``: confirm static findings by tracing the code with JAX.

Safety model: each file with findings is imported (its top-level code runs, never as
``__main__``) in a worker process of its own, or a child forked from one server that imported
JAX once, and the functions behind its findings are traced on CPU.  To build arguments the
worker may run the module's driver code up to the call of the entry point
(jaxlint.dynamic.worker.drivers).  A file whose findings stay unverified but which imported
cleanly is last run as a script under ``jaxlint run``, which runs its whole ``__main__`` block.
Every process has a timeout: an import error, a crash, a hang or a ``sys.exit`` leaves that
file's findings ``unverified``.

``worker/`` runs in the user's process (it imports the user's module and JAX); the rest plans
and collects in jaxlint's own and imports neither.  ``protocol`` and ``processes`` use the
standard library only, for both sides, and this ``__init__``, which the worker imports too,
loads the planning modules on first use.  The static rules never import this package.
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
    """The findings with ``dynamic`` set.  ``real_paths`` maps a finding's path to the file.

    The checks are planned from the findings' facts, so no file is parsed again, except the
    file of a traced entry point in another file (``config_for(path)``: its configuration;
    jaxlint.dynamic.remote).  ``fork``: whether the files' processes are forked from one server
    that imported JAX (None: where that is safe), or an open ``ForkServer`` to fork them from
    (used while it serves the current environment)."""
    # The planning side imports the rules and the engine, which the worker must not load.
    from jaxlint.dynamic.confirming import confirm_findings

    return confirm_findings(findings, real_paths, timeout, progress, jobs, config_for, fork)


def summary(findings: Sequence[Finding]) -> str:
    c = Counter((f.dynamic or {}).get("status") for f in findings)
    return f"{c['confirmed']} confirmed, {c['refuted']} refuted, {c['unverified']} unverified"


def drop_refuted(findings: Sequence[Finding]) -> List[Finding]:
    return [f for f in findings if (f.dynamic or {}).get("status") != "refuted"]
