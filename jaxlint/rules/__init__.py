"""Rules: ``base`` says what a rule is, ``registry`` finds them all, and each family package
(``meta`` JAX0xx, ``traced_values`` JAX1xx, ``static_args`` JAX2xx, ``frozen`` JAX3xx,
``recompile`` JAX4xx, ...) holds one rule per module.

The registry's names are loaded on first use: importing a rule module (or ``base``) does not
import every other rule.  ``RULE_TABLE`` is ``RULES_BY_CODE`` read on first use too: the faces
hand it to the settings, which read it only to check a selector, so a run without one (a run
the cache answers) imports no rule.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from jaxlint.on_demand import submodules as _submodules

_REGISTRY_NAMES = ("ALL_RULES", "RULES_BY_CODE", "selected_rules", "rules_for", "is_enabled")

__all__ = list(_REGISTRY_NAMES) + ["RULE_TABLE"]

# The registry imports every rule, and with them LibCST: only when one of its names is read.
__getattr__ = _submodules(__name__, {name: "jaxlint.rules.registry" for name in _REGISTRY_NAMES})


class _RulesOnFirstRead(Mapping):
    """Every rule by its code, loaded from the registry the first time anything is asked."""

    def _table(self) -> Mapping[str, Any]:
        return __getattr__("RULES_BY_CODE")

    def __getitem__(self, code: str) -> Any:
        return self._table()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


RULE_TABLE: Mapping[str, Any] = _RulesOnFirstRead()
