"""jaxlint: find JAX trace-time bugs without running the code.

The package is lazy: ``import jaxlint`` costs nothing beyond this file, and ``lint_source``,
``lint_files`` and ``Finding`` load the engine on first use (a short run, or a dynamic-mode
worker, imports only what it uses); so do its modules, read as attributes (``jaxlint.output``).
"""

from jaxlint.on_demand import submodules as _submodules
from jaxlint.versions import __version__

__all__ = ["Finding", "lint_source", "lint_files", "__version__"]

__getattr__ = _submodules(
    __name__,
    {
        "Finding": "jaxlint.findings",
        "lint_source": "jaxlint.engine.pipeline",
        "lint_files": "jaxlint.engine.run",
    },
)
