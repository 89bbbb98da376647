"""How the worker imports a file: a module inside a package by its dotted name (its package's
``__init__`` runs first and its relative imports work, wherever the package is, an installed
library included), a plain file under a name of its own.  Never as ``__main__``."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys


def package_name(path):
    """(the folder above the outermost package, dotted name) of a module inside a package
    (a folder with ``__init__.py``); None for a plain file."""
    folder = os.path.dirname(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    if not os.path.isfile(os.path.join(folder, "__init__.py")) or not stem.isidentifier():
        return None
    parts = [stem] if stem != "__init__" else []
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        folder, pkg = os.path.split(folder)
        if not pkg.isidentifier():
            return None
        parts.insert(0, pkg)
    name = ".".join(parts)
    top = name.split(".")[0]
    if top in sys.modules and not _from_folder(sys.modules[top], folder):
        return None  # would shadow a module already imported (jax itself, the standard library)
    return folder, name


def _from_folder(module, folder) -> bool:
    """Whether ``module`` (a package already imported) is the one in ``folder``."""
    for p in getattr(module, "__path__", None) or ():
        if os.path.dirname(os.path.realpath(p)) == os.path.realpath(folder):
            return True
    return False


def module_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", stem) or stem in sys.modules or stem == "__main__":
        stem = "_jaxlint_dynamic_" + re.sub(r"\W", "_", stem)
    return stem


_IMPORTED = {}  # real path -> module, for the files this worker imported


def import_file(path):
    """The module of the file at ``path`` (a real path), imported once; raises what the
    module raises."""
    if path in _IMPORTED:
        return _IMPORTED[path]
    package = package_name(path)
    folder = package[0] if package else os.path.dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    if package:
        mod = importlib.import_module(package[1])
    else:
        name = module_name(path)
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            sys.modules.pop(name, None)
            raise
    _IMPORTED[path] = mod
    return mod
