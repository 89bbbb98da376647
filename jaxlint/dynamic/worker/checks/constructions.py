"""The worker's check of an error raised while an object of the module's class is built (a
finding in ``__init__``: data in a static attribute of a Flax NNX module).

The class is built as the module's own code builds it: the arguments of its first
constructions in the driver code (jaxlint.dynamic.worker.drivers: the ``__main__`` block,
functions without required parameters, ``CASES`` lambdas) are captured, then the constructions
the engine read from the source.  Each is run with the finding's lines watched: the rule's error raised on
them confirms the finding; for an error that comes where the object is used (``at_use``: Flax
checks its attributes when the constructor returns), raised by the construction after the
lines ran.  A construction that runs the lines and returns refutes it.
"""

from __future__ import annotations

from jaxlint.dynamic.worker import drivers
from jaxlint.dynamic.worker.errors import expected_error, matches, short
from jaxlint.dynamic.worker.spans import LineTracker
from jaxlint.dynamic.worker.values import constructor_args

_CAPTURED = {}  # (path, class name): the driver code's constructions, captured once per class


def _constructions(mod, path, cls, check, notes):
    """(where, args, kwargs) for each way to build ``cls``: the driver code's, then the source's."""
    key = (path, cls.__name__)
    if key not in _CAPTURED:
        # Not the test functions of the package: a class's name is often another class's there
        # (``Config``), and running tests that build that one is slow and shows nothing.
        _CAPTURED[key] = drivers.capture(mod, path, cls, cls, [cls.__name__], tests=False)
    calls, why = _CAPTURED[key]
    notes.extend(why)
    for where, args, kwargs in calls:
        yield where, args, kwargs
    for ctor in check.get("ctors") or []:
        try:
            args, kwargs = constructor_args(ctor)
        except Exception as e:  # noqa: BLE001 - a global of the module missing
            notes.append(f"could not build the arguments of a construction of {cls.__name__}: {short(e)}")
            continue
        shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        yield f"{cls.__name__}({shown})", args, kwargs


def check(mod, path, check):
    name = check["cls"]
    cls = getattr(mod, name, None)
    if not isinstance(cls, type):
        return "unverified", f"class {name} is not defined at module level after import"
    line = check["line"]
    notes = []
    for where, args, kwargs in _constructions(mod, path, cls, check, notes):
        tracker = LineTracker(path, line, check["end_line"])
        err = None
        try:
            with tracker:
                cls(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - the user's code may raise anything
            err = e
        raised_here = err is not None and matches(err, check, path)
        raised_after = err is not None and check.get("at_use") and tracker.passed and expected_error(err, check.get("expect"))
        if raised_here or raised_after:
            return "confirmed", f"{short(err)} building {name} ({where})"
        if err is None and tracker.passed:
            return "refuted", f"building {name} ran line {line} without error ({where})"
        if err is not None:
            notes.append(f"building {name} ({where}) raised {short(err)}")
        else:
            notes.append(f"building {name} ({where}) did not run line {line}")
    if not notes:
        return "unverified", f"no code of the module builds {name}"
    return "unverified", notes[0]
