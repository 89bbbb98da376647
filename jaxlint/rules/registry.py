"""The rule registry: every ``Rule`` subclass defined in the family packages under
``jaxlint/rules/`` (one rule per module), found by walking the packages, sorted by code.

A new rule is a new module in its family's folder; nothing else names it.
"""

from __future__ import annotations

import importlib
import os
from typing import Dict, List, Sequence, Type

from jaxlint.rules.base import Rule
from jaxlint.rules.measured import below_bar
from jaxlint.selection import is_enabled, is_enabled_in_layers  # noqa: F401 (is_enabled: re-exported by jaxlint.rules)

RULES_PACKAGE = "jaxlint.rules"
STATUSES = ("stable", "preview")


class RegistryError(Exception):
    """Two rules share a code, or a rule module defines no rule or several."""


def _listing(package, packages: bool) -> List[str]:
    """The names of ``package``'s subpackages, or of its modules, sorted: one folder listing
    (pkgutil.iter_modules costs a ``stat`` per entry, and its import)."""
    entries = os.scandir(package.__path__[0])
    if packages:
        return sorted(e.name for e in entries if e.is_dir() and os.path.isfile(os.path.join(e.path, "__init__.py")))
    return sorted(e.name[:-3] for e in entries if e.name.endswith(".py") and e.name != "__init__.py")


def discover_rules(package: str = RULES_PACKAGE) -> List[Type[Rule]]:
    """Every rule of the family subpackages of ``package``, sorted by code."""
    root = importlib.import_module(package)
    found: Dict[str, Type[Rule]] = {}
    for family in _listing(root, packages=True):
        fam = importlib.import_module(f"{package}.{family}")
        for name in _listing(fam, packages=False):
            if name.startswith("_"):
                continue
            module = importlib.import_module(f"{fam.__name__}.{name}")
            rules = [
                obj
                for obj in vars(module).values()
                if isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule and obj.__module__ == module.__name__
            ]
            if len(rules) != 1:
                raise RegistryError(f"{module.__name__} defines {len(rules)} rules; a rule module defines exactly one")
            rule = rules[0]
            if not rule.code:
                raise RegistryError(f"{module.__name__}.{rule.__name__} has no code")
            if rule.code in found:
                other = found[rule.code]
                raise RegistryError(f"{rule.code} is defined twice: {other.__module__} and {module.__name__}")
            if rule.status not in STATUSES:
                raise RegistryError(f"{rule.code}: status must be one of {', '.join(STATUSES)}, not {rule.status!r}")
            if below_bar(rule.code):
                # Wrong too often on libraries it had never seen (rules/measured.py): the rule
                # stays in preview until a new measurement says it earned its default.
                rule.status = "preview"
            found[rule.code] = rule
    return [found[c] for c in sorted(found)]


ALL_RULES: List[Type[Rule]] = discover_rules()

RULES_BY_CODE: Dict[str, Type[Rule]] = {r.code: r for r in ALL_RULES}


def selected_rules(
    select: Sequence[str] = (), ignore: Sequence[str] = (), preview: bool = False, layers: Sequence = ()
) -> List[Type[Rule]]:
    """Rules enabled by select/ignore prefixes (the longest matching prefix wins, as in flake8).

    A preview rule runs only with ``preview``, even when selected by its code (as in Ruff):
    preview rules may still change, and a team opts in to that."""
    out = []
    for r in ALL_RULES:
        if r.status == "preview" and not preview:
            continue
        if is_enabled_in_layers(r.code, select, ignore, layers, r.default_enabled):
            out.append(r)
    return out


def rules_for(config) -> List[Type[Rule]]:
    """The rules a run with this configuration enables."""
    return selected_rules(config.select, config.ignore, config.preview, getattr(config, "layers", ()))
