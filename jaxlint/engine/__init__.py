"""The engine: everything between source text and findings.

``source`` reads and decodes files and holds the cheap gates; ``pipeline`` lints one module;
``positions`` computes node ranges for the files with findings; ``discovery``, ``runner`` and
``cache`` lint many files; ``cross_module`` is the cross-module phase; ``run`` is the one pipeline
for many files (discovery, runner, cache, cross-module phase); ``fixing`` runs the fix rounds.

The names below, and the engine's modules, are loaded on first use, so importing one engine
module does not pull in the analysis and the rules.
"""

from __future__ import annotations

from jaxlint.on_demand import submodules as _submodules

_EXPORTS = {
    "lint_source": "jaxlint.engine.pipeline",
    "read_and_lint": "jaxlint.engine.pipeline",
    "lint_files": "jaxlint.engine.run",
}

__all__ = sorted(_EXPORTS)

__getattr__ = _submodules(__name__, _EXPORTS)
