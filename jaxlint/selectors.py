"""Rule selectors: the code prefixes of ``--select``, ``--ignore``, ``per-file-ignores`` and the
configuration keys.

A selector is ``ALL`` or a prefix of at least one real code (``JAX``, ``JAX1``, ``JAX10``,
``JAX101``).  Anything else is refused with a suggestion: a selector that matches nothing would
otherwise turn rules off (or on) silently, and a typo such as ``JAX1O1`` would leave CI green.

The rules stand above this module: what codes exist, and which rules are in preview, is read from
the rule table the caller passes in (jaxlint.rules.RULE_TABLE, or RULES_BY_CODE).
"""

from __future__ import annotations

from typing import Any, Iterable, List, Mapping, Optional, Tuple

from jaxlint.selection import ALL, DEFAULT

# Every rule by its code, each with its ``status`` (jaxlint.rules.RULES_BY_CODE holds them so).
RuleTable = Mapping[str, Any]


class SelectorError(ValueError):
    """An unknown selector; the message is one line, ready to print."""


def _prefixes(rules: RuleTable) -> List[str]:
    """Every prefix that selects something, shortest first (``JAX``, ``JAX0``, ..., ``JAX101``)."""
    out = set()
    for code in rules:
        for n in range(3, len(code) + 1):
            out.add(code[:n])
    return sorted(out, key=lambda p: (len(p), p))


def is_known(selector: str, rules: RuleTable) -> bool:
    return selector == ALL or any(code.startswith(selector) for code in rules)


def suggestion(selector: str, rules: RuleTable) -> Optional[str]:
    """The closest real selector, when one is close enough to be what was meant."""
    import difflib  # imported on use: only a mistaken selector needs it

    candidates = _prefixes(rules)
    same_length = [p for p in candidates if len(p) == len(selector)]
    for pool in (same_length, candidates):
        close = difflib.get_close_matches(selector, pool, n=1, cutoff=0.6)
        if close:
            return close[0]
    return None


def unknown_message(selector: str, rules: RuleTable) -> str:
    hint = suggestion(selector, rules)
    if hint:
        return f"unknown rule selector '{selector}' (did you mean '{hint}'?)"
    return f"unknown rule selector '{selector}' (see jaxlint --list-rules)"


def normalise(selector: str) -> str:
    return selector.strip().upper()


def validate(selectors: Iterable[str], where: str, rules: RuleTable) -> Tuple[str, ...]:
    """The selectors, upper-cased; raises SelectorError naming ``where`` for an unknown one."""
    out = []
    for raw in selectors:
        sel = normalise(raw)
        if not sel:
            # As ruff: an empty selector is refused, never read as "no selection" (which would
            # quietly run the default rules).
            raise SelectorError(f"{where}: empty rule selector '' (see jaxlint --list-rules)")
        if not is_known(sel, rules):
            raise SelectorError(f"{where}: {unknown_message(sel, rules)}")
        out.append(sel)
    return tuple(out)


def split(value: str) -> List[str]:
    """``"JAX1, JAX302 JAX4"`` -> ``["JAX1", "JAX302", "JAX4"]``."""
    return [v for v in value.replace(",", " ").split() if v]


def parse_option(value: Optional[str], option: str, rules: RuleTable) -> Optional[Tuple[str, ...]]:
    """A command-line option's selectors (None when the option was not given)."""
    if value is None:
        return None
    return validate(split(value) or [""], option, rules)


def needs_preview(selector: str, rules: RuleTable) -> bool:
    """Whether ``selector`` matches rules and all of them are in preview: without preview it
    enables nothing (``JAX304``, or a prefix of preview rules only)."""
    if selector in (ALL, DEFAULT):
        return False
    matched = [r for code, r in rules.items() if code.startswith(selector)]
    return bool(matched) and all(r.status == "preview" for r in matched)


def without_effect(configs, rules: RuleTable) -> List[str]:
    """The selectors that enable rules (``select``, ``extend-select``, from a file or the command
    line) in a configuration of ``configs`` without preview, and that select preview rules only:
    they change nothing, which is said rather than left silent (as ruff does).  In the order
    found, each once."""
    out: List[str] = []
    for cfg in configs:
        if cfg.preview:
            continue
        enabling = tuple(cfg.select) + tuple(s for enable, _ in cfg.layers for s in enable)
        for s in enabling:
            if s not in out and needs_preview(s, rules):
                out.append(s)
    return out
