"""Per-module facts the rules ask for, each computed once per module.  The costlier ones are
imported the first time a rule asks for them, named as attributes of this package
(``facts.static_objects``): a run whose rules never ask does not load them."""

from jaxlint.on_demand import submodules as _submodules

__getattr__ = _submodules(__name__)
