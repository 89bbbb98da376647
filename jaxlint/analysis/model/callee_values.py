"""What a callee expression holds, as the call targets follow it: a function reached with the
values bound ahead of the call (``Target``), an instance of a class of the module, or the class
itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo, Scope

if TYPE_CHECKING:  # annotations only: transforms builds the call targets
    from jaxlint.analysis.model.transforms import Application


class Passed(NamedTuple):
    """What lands on one parameter: an expression written in ``scope`` (inside ``call``, the
    call it is an argument of, or None for a value bound earlier, such as a partial's
    argument), or the receiver of a bound method (``expr`` None, ``receiver`` its class)."""

    expr: Optional[cst.BaseExpression]
    scope: Optional[Scope]
    call: Optional[cst.Call]
    receiver: Optional[ClassInfo] = None


class Target(NamedTuple):
    """A function a call reaches.  ``bound``: values for its leading positional parameters
    bound before the call (the receiver, a partial's arguments); ``keywords``: parameters a
    partial bound by name; ``closure``: the factory scope an inner def was returned from."""

    func: FuncInfo
    app: Optional[Application] = None
    bound: Tuple[Passed, ...] = ()
    keywords: Tuple[Tuple[str, Passed], ...] = ()
    closure: Optional[Scope] = None

    def same(self, other: "Target") -> bool:
        """The same callable with the same bindings (by the expressions that bound them)."""
        return (
            self.func is other.func
            and self.app is other.app
            and len(self.bound) == len(other.bound)
            and all(_same_passed(a, b) for a, b in zip(self.bound, other.bound))
            and len(self.keywords) == len(other.keywords)
            and all(k1 == k2 and _same_passed(a, b) for (k1, a), (k2, b) in zip(self.keywords, other.keywords))
        )


def _same_passed(a: Passed, b: Passed) -> bool:
    if a.expr is None or b.expr is None:
        return a.expr is None and b.expr is None and a.receiver is b.receiver
    return a.expr is b.expr


class Instance(NamedTuple):
    cls: ClassInfo
    built: Optional[cst.Call] = None  # the constructor call, with the scope it is in
    scope: Optional[Scope] = None


class Record(NamedTuple):
    """A named tuple of a library whose fields hold functions (``optax.GradientTransformation(
    init_fn, update_fn)``): ``fields`` its fields in order, ``built`` the constructor call."""

    fields: Tuple[str, ...]
    built: cst.Call
    scope: Scope


class ClassObject(NamedTuple):
    cls: ClassInfo
