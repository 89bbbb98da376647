"""Traced code: the abstract values, the interpreter, and the events it publishes.  The
interpreter and its expression rules are named as attributes of this package
(``traced.interpreter``), which imports them on first use: a module that applies no transform
never interprets a traced function, and does not load them."""

from jaxlint.on_demand import submodules as _submodules

__getattr__ = _submodules(__name__)
