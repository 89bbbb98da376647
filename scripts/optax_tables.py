#!/usr/bin/env python3
"""Write ``jaxlint/analysis/jax/optax_transforms.py``: what optax's transformation constructors
make, read from optax itself.

    python scripts/optax_tables.py          # rewrite the table from the installed optax
    python scripts/optax_tables.py --check  # exit 1 when the table differs from it

A public function (or ``functools.partial`` of one: ``nadam``) of the ``optax`` namespace is a constructor when, called with its required
arguments (a number each, and one ``optax.identity()`` for ``*transforms``), it returns a
``GradientTransformation``.  For each one the table says:

* whether ``init`` of a parameter tree gives a state that holds arrays (``adam``: counts and
  moments; ``sgd`` without momentum keeps only empty states).  Such a state cannot be hashed,
  so it cannot be a static argument;
* which parameters that default to None make the state hold arrays when given a number
  (``sgd``'s ``momentum``).

Every constructor's result is a new pair of closures, so two calls never give equal keys.

It also lists optax's named tuples whose fields hold functions (``GradientTransformation``'s
``init`` and ``update``, as their annotations say): ``tx.update(...)`` of one built in the
module calls the function given for that field.

The linter never imports optax: the table is data in the package, and a test checks a sample
against the optax it runs with.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated_table import write_or_check  # noqa: E402
TABLE = os.path.join(os.path.dirname(HERE), "jaxlint", "analysis", "jax", "optax_transforms.py")


def _params():
    import jax.numpy as jnp

    return {"w": jnp.ones((256, 200)), "b": jnp.ones((200,))}


def _build(f):
    """``f`` called with its required arguments, and those arguments; None when it is not a
    transformation constructor."""
    import optax

    sig = inspect.signature(f)
    required = {p.name: 0.1 for p in sig.parameters.values() if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    star = [optax.identity()] if any(p.kind == p.VAR_POSITIONAL for p in sig.parameters.values()) else []
    try:
        tx = f(*star, **required)
    except Exception:  # noqa: BLE001 - arguments it does not take: not probed
        return None
    return (tx, required) if isinstance(tx, optax.GradientTransformation) else None


def _holds_arrays(tx) -> bool:
    import jax

    try:
        state = tx.init(_params())
    except Exception:  # noqa: BLE001
        return False
    return any(hasattr(leaf, "shape") for leaf in jax.tree.leaves(state))


def _stateful_with(f, required) -> tuple:
    out = []
    for p in inspect.signature(f).parameters.values():
        if p.default is None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            try:
                tx = f(**required, **{p.name: 0.9})
            except Exception:  # noqa: BLE001 - not a number
                continue
            if _holds_arrays(tx):
                out.append(p.name)
    return tuple(out)


def transforms(names=None):
    import optax

    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in sorted(dir(optax)) if names is None else names:
            f = getattr(optax, name)
            if name.startswith("_") or not (inspect.isfunction(f) or isinstance(f, functools.partial)):
                continue
            built = _build(f)
            if built is None:
                continue
            tx, required = built
            stateful = _holds_arrays(tx)
            out[name] = (stateful, () if stateful else _stateful_with(f, required))
    return optax.__version__, out


def records():
    """NamedTuple classes of the ``optax`` namespace whose fields are annotated as functions
    (a ``Callable`` or a callable protocol): name -> all their fields."""
    import collections.abc
    import typing

    import optax

    out = {}
    for name in sorted(dir(optax)):
        cls = getattr(optax, name)
        if name.startswith("_") or not (inspect.isclass(cls) and issubclass(cls, tuple) and hasattr(cls, "_fields")):
            continue
        try:
            hints = typing.get_type_hints(cls)
        except Exception:  # noqa: BLE001 - an annotation that names what optax does not export
            continue
        if any(getattr(hints.get(f), "_is_protocol", False) or typing.get_origin(hints.get(f)) is collections.abc.Callable for f in cls._fields):
            out[name] = tuple(cls._fields)
    return out


def render(version, table, named_tuples) -> str:
    lines = [
        '"""What optax\'s transformation constructors make (written by scripts/optax_tables.py from',
        f'optax {version}; tests/unit/test_optax_tables.py checks a sample against the installed optax).',
        "",
        "name -> (whether ``init`` gives a state holding arrays, the parameters that default to None",
        'and make it hold arrays when given)."""',
        "",
        "from typing import Dict, Tuple",
        "",
        f'OPTAX_VERSION = "{version}"',
        "",
        "OPTAX_TRANSFORMS: Dict[str, Tuple[bool, Tuple[str, ...]]] = {",
    ]
    lines += [f'    "{n}": {table[n]!r},' for n in sorted(table)]
    lines += ["}", "", "# named tuples whose fields hold functions: name -> their fields", "OPTAX_RECORDS: Dict[str, Tuple[str, ...]] = {"]
    lines += [f'    "{n}": {named_tuples[n]!r},' for n in sorted(named_tuples)]
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    version, table = transforms()
    checked = write_or_check(TABLE, render(version, table, records()), argv)
    if checked is not None:
        return checked
    print(f"{len(table)} transformation constructors from optax {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
