"""Rules: ``base`` says what a rule is, ``registry`` finds them all, and each family package
(``meta`` JAX0xx, ``traced_values`` JAX1xx, ``static_args`` JAX2xx, ``frozen`` JAX3xx,
``recompile`` JAX4xx, ...) holds one rule per module.

The registry's names are loaded on first use: importing a rule module (or ``base``) does not
import every other rule.
"""

from __future__ import annotations

_REGISTRY_NAMES = ("ALL_RULES", "RULES_BY_CODE", "selected_rules", "rules_for", "is_enabled")

__all__ = list(_REGISTRY_NAMES)


def __getattr__(name: str):
    if name not in _REGISTRY_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from jaxlint.rules import registry

    value = getattr(registry, name)
    globals()[name] = value
    return value
