"""jaxlint: find JAX trace-time bugs without running the code."""

__version__ = "0.1.0"

from jaxlint.findings import Finding  # noqa: E402
from jaxlint.engine.pipeline import lint_paths, lint_source  # noqa: E402

__all__ = ["Finding", "lint_source", "lint_paths", "__version__"]
