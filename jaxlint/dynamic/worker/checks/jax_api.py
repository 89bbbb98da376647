"""JAX601/JAX602, a removed or deprecated JAX name: reached as code reaches it in the installed
JAX, watching for DeprecationWarnings.  Needs nothing of the user's module."""

from __future__ import annotations

import importlib
import sys
import warnings

from jaxlint.dynamic.worker import runtime


def _reach_jax_name(qualified):
    """(found, DeprecationWarnings) reaching ``qualified`` as code does: import the longest
    module prefix, then the attributes."""
    parts = qualified.split(".")
    # JAX warns once per process (its module __getattr__ is functools.cache'd); forget that, so
    # that a second finding of the same name sees the warning too.
    for modname, module in list(sys.modules.items()):
        if modname == "jax" or modname.startswith("jax."):
            clear = getattr(getattr(module, "__dict__", {}).get("__getattr__"), "cache_clear", None)
            if clear is not None:
                clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = False
        for n in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:n]))
            except ImportError:
                continue
            found = True
            for attr in parts[n:]:
                try:
                    obj = getattr(obj, attr)
                except AttributeError:
                    found = False
                    break
            break
    return found, [w for w in caught if issubclass(w.category, DeprecationWarning)]


def check_jax_api(check):
    """JAX601/JAX602: the old name is absent / warns in the installed JAX."""
    name = check.get("name")
    if not name:
        return "unverified", "the finding does not name the API"
    found, warned = _reach_jax_name(name)
    version = runtime.jax.__version__
    if check["code"] == "JAX601":
        if not found:
            return "confirmed", f"JAX {version} has no {name}"
        if warned:
            return "unverified", f"JAX {version} still has {name} (deprecated); it is removed in {check.get('removed_in')}"
        return "refuted", f"JAX {version} has {name}"
    if warned:
        return "confirmed", f"{name} warns with a DeprecationWarning in JAX {version}"
    if not found:
        return "confirmed", f"JAX {version} no longer has {name}"
    return "refuted", f"{name} does not warn in JAX {version}"
