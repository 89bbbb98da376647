"""jaxlint: find JAX trace-time bugs without running the code.

The package is lazy: ``import jaxlint`` costs nothing beyond this file, and ``lint_source``,
``lint_files`` and ``Finding`` load the engine on first use (a short run, or a dynamic-mode
worker, imports only what it uses).
"""

from typing import Any, Callable, Dict

__version__ = "0.8.0"

_EXPORTS = {
    "Finding": "jaxlint.findings",
    "lint_source": "jaxlint.engine.pipeline",
    "lint_files": "jaxlint.engine.run",
}

__all__ = ["Finding", "lint_source", "lint_files", "__version__"]


def lazy_getattr(package: str, exports: Dict[str, str], namespace: Dict[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for ``package``: a name of ``exports`` is imported
    from its module on first use and kept in ``namespace``, the package's globals."""

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
