#!/usr/bin/env python3
"""Write ``jaxlint/analysis/jax/numpy_array_makers.py``: the NumPy functions that return a NumPy
array, read from NumPy itself.

    python scripts/numpy_tables.py          # rewrite the table from the installed NumPy
    python scripts/numpy_tables.py --check  # exit 1 when the table differs from it

A function of the ``numpy`` namespace is an array maker when it returns an ``np.ndarray`` for
every one of a few plain inputs it accepts (a size, a shape, a scalar and a count, a list, a
nested list, two lists, a shape and a fill value), and accepts at least one: ``np.zeros(3)``,
``np.indices((2, 3))``, ``np.cumsum([1.0, 2.0])``, but not ``np.sum`` or ``np.exp``, which give
a NumPy scalar for a scalar.  Functions that touch files, print or change NumPy's settings
are not called.  The linter never imports NumPy: the table is data in the package, and a test
checks it against the NumPy it runs with.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import re
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated_table import write_or_check  # noqa: E402
TABLE = os.path.join(os.path.dirname(HERE), "jaxlint", "analysis", "jax", "numpy_array_makers.py")

# Not called: files, printing, NumPy's settings, classes in function clothing.
NOT_CALLED = re.compile(
    r"^(save|load|show|set|get|info|lookfor|source|test|who|from|memmap|tofile|genfromtxt|"
    r"recfrom|deprecate|disp|printoptions|seterr|errstate|asmatrix|mat$|bmat|matrix|vectorize|"
    r"frompyfunc|piecewise|nditer|nested_iters|ndindex|ndenumerate|broadcast|busday|is_busday|"
    r"datetime|einsum_path|add_newdoc|require)"
)
PROBES = [(3,), ((2, 3),), (2.0, 3), ([1.0, 2.0, 3.0],), ([[1.0, 2.0], [3.0, 4.0]],), ([1.0, 2.0], [3.0, 4.0]), ((2, 3), 1.0)]


def array_makers():
    import numpy as np

    out = []
    for name in sorted(dir(np)):
        if name.startswith("_") or NOT_CALLED.match(name):
            continue
        f = getattr(np, name)
        if not callable(f) or inspect.isclass(f) or inspect.ismodule(f):
            continue
        results = []
        for args in PROBES:
            try:
                with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                    warnings.simplefilter("ignore")
                    results.append(f(*args))
            except Exception:  # noqa: BLE001 - an input the function does not take
                continue
        if results and all(type(r) is np.ndarray for r in results):
            out.append(name)
    return np.__version__, out


def render(version, names) -> str:
    lines = [
        '"""NumPy functions that return a NumPy array (written by scripts/numpy_tables.py from NumPy',
        f'{version}; tests/unit/test_numpy_tables.py checks it against the installed NumPy)."""',
        "",
        f'NUMPY_VERSION = "{version}"',
        "",
        "NUMPY_ARRAY_MAKERS = frozenset(",
        "    {",
    ]
    lines += [f'        "{n}",' for n in names]
    lines += ["    }", ")", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    version, names = array_makers()
    text = render(version, names)
    checked = write_or_check(TABLE, text, argv)
    if checked is not None:
        return checked
    print(f"{len(names)} array makers from NumPy {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
