"""Fixtures come as single modules or as package folders (linted, and run, together)."""

import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES_DIR = os.path.join(ROOT, "fixtures")


def rule_config(**settings):
    """The configuration the fixtures are linted with: every rule, preview rules included.  The
    markers say what each rule finds; which rules a plain run enables is the registry's
    business (``tests/unit/test_registry.py``)."""
    from jaxlint.config import Config

    return Config(preview=True, **settings)


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
            continue  # the result of a fix (tests/slow/test_fixes.py); it keeps the markers' comments
        if not any(f.startswith(p + os.sep) for p in packages):
            out.append((os.path.relpath(f, ROOT), [f]))
    return out


def oracle_units():
    """[(name, path, files)]: the units the oracle test runs, by the module of the unit that
    defines ``CASES`` (the marks of every file of the unit are checked against what it runs)."""
    out = []
    for name, files in units():
        for path in files:
            with open(path, encoding="utf-8") as fh:
                if "\nCASES = [" in fh.read():
                    out.append((name, path, files))
    return out


def lint_package(root, jobs=1, cache_dir=None, names=None):
    """The findings of one run over the modules of the package folder ``root`` (or ``names``
    in it), shown relative to the folder around it, as a user linting the package sees them."""
    from jaxlint.engine.run import lint_files

    files = [os.path.join(root, n) for n in (names or sorted(os.listdir(root))) if n.endswith(".py")]
    display = lambda p: os.path.relpath(p, os.path.dirname(root))  # noqa: E731
    return lint_files(files, rule_config(), jobs=jobs, cache_dir=cache_dir, display=display).findings


def finding_keys(findings):
    """(path, line, column, code) of each finding, in order."""
    return [(f.path, f.line, f.column, f.code) for f in findings]
