"""Which rule codes a selection enables: ``select`` and ``ignore`` prefixes, the longest
matching one deciding (as in flake8 and ruff).  Plain strings in, no knowledge of the rules:
the registry and the configuration both stand on it."""

from __future__ import annotations

from typing import Iterable, Sequence, Tuple

ALL = "ALL"
# Stands for "the rules that are on by default" when only extend-select was given: the effective
# selection is then DEFAULT plus the extra selectors.
DEFAULT = "DEFAULT"


def matches(code: str, selector: str) -> bool:
    """``ALL`` or a prefix of the code.  ``DEFAULT`` is not a prefix: whether it selects a rule
    is the rule's own ``default_enabled``, which ``is_enabled`` is given."""
    return selector == ALL or code.startswith(selector)


def specificity(selector: str) -> int:
    """How specific a selector is: the longest matching selector decides, ``ALL`` least of all."""
    return 0 if selector in (ALL, DEFAULT) else len(selector)


def _strongest(code: str, selectors: Sequence[str]) -> int:
    """The specificity of the most specific selector of ``code`` (-1: none selects it)."""
    return max((specificity(p) for p in selectors if p != DEFAULT and matches(code, p)), default=-1)


def extend(select: Sequence[str], extra: Sequence[str]) -> Tuple[str, ...]:
    """``select`` plus ``extra``; with no ``select``, the default rules plus ``extra``."""
    if not extra:
        return tuple(select)
    return tuple(select or (DEFAULT,)) + tuple(extra)


def is_enabled(code: str, select: Sequence[str], ignore: Sequence[str], default: bool = True) -> bool:
    """The longest matching selector wins (as in flake8 and ruff); a tie goes to ``select``.
    Without a ``select``, rules that are on by default run."""
    # The default selection is weaker than any selector the user wrote, ``ALL`` included:
    # ``ignore = ["ALL"]`` turns every default rule off.
    implicit = -0.5
    s: float = _strongest(code, select)
    if default and DEFAULT in select:
        s = max(s, implicit)
    i = _strongest(code, ignore)
    if not select:
        s = implicit if default else -1
    if s == -1:
        return False
    return s >= i if i >= 0 else True


def any_matches(code: str, selectors: Iterable[str]) -> bool:
    return any(matches(code, s) for s in selectors)


def is_enabled_in_layers(
    code: str,
    select: Sequence[str],
    ignore: Sequence[str],
    layers: Sequence[Tuple[Sequence[str], Sequence[str]]] = (),
    default: bool = True,
) -> bool:
    """``is_enabled`` for the first layer, then each later layer that has no ``select`` of its
    own, as (enable, disable) selectors applied on top of the result so far (as ruff applies
    the command line on top of the configuration file): within a layer the longest matching
    selector decides, a tie going to enable; a layer none of whose selectors match changes
    nothing.  So ``--ignore ALL`` turns off a rule the file selects by its code."""
    on = is_enabled(code, select, ignore, default)
    for enable, disable in layers:
        s, i = _strongest(code, enable), _strongest(code, disable)
        if s >= 0 or i >= 0:
            on = s >= i
    return on
