"""Scaffold a new rule: ``python scripts/new_rule.py JAX110 traced-thing traced_values``.

Writes the three files a rule touches, and nothing else names it:

* ``jaxlint/rules/<family>/<name>.py``: the ``Rule`` subclass with every field to fill in,
  ``status = "preview"``;
* ``fixtures/<name>.py``: a runnable module with ``CASES`` for the oracle test and a line
  marked ``# error: CODE``, which fails the fixture test until the rule reports it;
* the rule's row in the table of ``README.md``, in code order.

``--root`` is the repository to write into (default: the one this script is in).
"""

from __future__ import annotations

import argparse
import os
import re
import sys

CODE_RE = re.compile(r"JAX\d{3}")
NAME_RE = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
TABLE_ROW_RE = re.compile(r"^\| (JAX\d{3}) \|")

RULE_TEMPLATE = '''"""{code}: {name}."""

from __future__ import annotations

from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class {cls}(Rule):
    """
    What it does
        Flags ...

    Why is this bad?
        ...

    Example
        ...

    Use instead
        ...

    References
        https://docs.jax.dev/en/latest/
    """

    code = "{code}"
    name = "{name}"
    message = "... `{{var}}` in {{where}}"
    fix = "..."
    # what JAX does on the flagged line (jaxlint/rules/prevents.py); the severity, the dynamic
    # check and the oracle test follow from it
    prevents = raises(ErrorPattern("TypeError"))
    status = "preview"
    bad = []
    good = []
'''

FIXTURE_TEMPLATE = '''"""{code} ({name}): ..."""

import jax
import jax.numpy as jnp


@jax.jit
def flagged(x):
    return x  # error: {code}


def run_flagged():
    return flagged(jnp.ones(3))


CASES = [run_flagged]
'''


def _module_name(name: str) -> str:
    return name.replace("-", "_")


def _class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def _table_order(code: str):
    """The table lists the rules by code, the linter's own JAX0xx codes last."""
    return (code.startswith("JAX0"), code)


def _add_table_row(readme: str, code: str, name: str) -> str:
    """The README's rule table with a row for ``code``, in the table's order."""
    lines = readme.split("\n")
    rows = [i for i, line in enumerate(lines) if TABLE_ROW_RE.match(line)]
    if not rows:
        raise SystemExit("README.md has no rule table")
    if any(TABLE_ROW_RE.match(lines[i]).group(1) == code for i in rows):
        raise SystemExit(f"README.md already lists {code}")
    at = rows[-1] + 1
    for i in rows:
        if _table_order(TABLE_ROW_RE.match(lines[i]).group(1)) > _table_order(code):
            at = i
            break
    lines.insert(at, f"| {code} | {name} | ... | ... |")
    return "\n".join(lines)


def _write_new(path: str, text: str) -> None:
    if os.path.exists(path):
        raise SystemExit(f"{path} exists already")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


def scaffold(root: str, code: str, name: str, family: str) -> list:
    if not CODE_RE.fullmatch(code):
        raise SystemExit(f"{code!r} is not a code like JAX110")
    if not NAME_RE.fullmatch(name):
        raise SystemExit(f"{name!r} is not a rule name like traced-thing")
    family_dir = os.path.join(root, "jaxlint", "rules", family)
    if not os.path.isfile(os.path.join(family_dir, "__init__.py")):
        raise SystemExit(f"no rule family {family!r} in {os.path.join(root, 'jaxlint', 'rules')}")
    fields = {"code": code, "name": name, "cls": _class_name(name)}
    rule_path = os.path.join(family_dir, _module_name(name) + ".py")
    fixture_path = os.path.join(root, "fixtures", _module_name(name) + ".py")
    readme_path = os.path.join(root, "README.md")
    with open(readme_path, encoding="utf-8") as fh:
        readme = _add_table_row(fh.read(), code, name)
    for path in (rule_path, fixture_path):
        if os.path.exists(path):
            raise SystemExit(f"{path} exists already")
    _write_new(rule_path, RULE_TEMPLATE.format(**fields))
    _write_new(fixture_path, FIXTURE_TEMPLATE.format(**fields))
    with open(readme_path, "w", encoding="utf-8") as fh:
        fh.write(readme)
    return [rule_path, fixture_path, readme_path]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("code", help="JAX and three digits; the hundreds digit is the family's")
    p.add_argument("name", help="reads as the flagged pattern, in kebab case (traced-if)")
    p.add_argument("family", help="the family package under jaxlint/rules (traced_values, static_args, ...)")
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = p.parse_args(argv)
    for path in scaffold(args.root, args.code, args.name, args.family):
        print(os.path.relpath(path, args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
