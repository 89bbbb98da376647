"""Review modes: only what a change introduced (--diff), and what a baseline does not record
(findings identified by their fingerprints, jaxlint.fingerprints).  Each is imported the first
time it is named (``jaxlint.review.baseline``): a run without the option does not load it."""

from jaxlint.on_demand import submodules as _submodules

__getattr__ = _submodules(__name__)
