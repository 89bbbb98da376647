"""JAX warns about a deprecated module attribute once per process: its module ``__getattr__``
is wrapped in ``functools.cache``.  Tests that observe the warning forget it first."""

import sys


def forget_deprecation_warnings() -> None:
    for name, mod in list(sys.modules.items()):
        if name == "jax" or name.startswith("jax."):
            getattr_ = getattr(mod, "__dict__", {}).get("__getattr__")
            clear = getattr(getattr_, "cache_clear", None)
            if clear is not None:
                clear()
