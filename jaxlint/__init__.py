"""jaxlint: find JAX trace-time bugs without running the code.

The package is lazy: ``import jaxlint`` costs nothing beyond this file, and ``lint_source``,
``lint_files`` and ``Finding`` load the engine on first use (a short run, or a dynamic-mode
worker, imports only what it uses).
"""

import importlib

from jaxlint.versions import __version__

_EXPORTS = {
    "Finding": "jaxlint.findings",
    "lint_source": "jaxlint.engine.pipeline",
    "lint_files": "jaxlint.engine.run",
}

__all__ = ["Finding", "lint_source", "lint_files", "__version__"]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
