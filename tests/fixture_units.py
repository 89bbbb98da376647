"""Fixtures come as single modules or as package folders (linted, and run, together)."""

import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES_DIR = os.path.join(ROOT, "fixtures")


def units():
    """[(name, [files])]: each package folder is one unit, every other .py file its own."""
    out = []
    packages = set()
    for init in sorted(glob.glob(os.path.join(FIXTURES_DIR, "**", "__init__.py"), recursive=True)):
        pkg = os.path.dirname(init)
        if os.path.dirname(pkg) in packages:
            continue
        packages.add(pkg)
        files = sorted(glob.glob(os.path.join(pkg, "**", "*.py"), recursive=True))
        out.append((os.path.relpath(pkg, ROOT), files))
    for f in sorted(glob.glob(os.path.join(FIXTURES_DIR, "**", "*.py"), recursive=True)):
        if f.endswith(".out.py"):
            continue  # the result of a fix (tests/test_fixes.py); it keeps the markers' comments
        if not any(f.startswith(p + os.sep) for p in packages):
            out.append((os.path.relpath(f, ROOT), [f]))
    return out
