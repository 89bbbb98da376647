"""Every rule fires on a fixture that the oracle test runs under JAX: a rule whose marks no
case runs is checked against its own examples only, never against JAX."""

from fixture_units import oracle_units
from markers import expected_markers

from jaxlint.rules import ALL_RULES
from jaxlint.rules.registry import STATUSES

# Rules with no marked line in a fixture the oracle runs, and why none can be.
WITHOUT_ORACLE_FIXTURE = {
    "JAX001": "a file that does not parse cannot run",
    "JAX002": "a jaxlint bug, not a behaviour of the code",
    "JAX003": "about a noqa comment, which JAX never sees; the rule's examples test it",
    "JAX004": "about a noqa comment, which JAX never sees; the rule's examples test it",
    "JAX603": (
        "whether JAX raises depends on what else the process imported (its prevents' depends_on), "
        "and the oracle's process has loaded the submodules other fixtures use"
    ),
}


def _oracle_marked_codes():
    codes = set()
    for _name, _path, files in oracle_units():
        for f in files:
            with open(f, encoding="utf-8") as fh:
                codes |= {code for _line, code in expected_markers(fh.read())[0]}
    return codes


def test_every_rule_is_marked_in_a_fixture_the_oracle_runs():
    marked = _oracle_marked_codes()
    missing = {r.code for r in ALL_RULES if r.status in STATUSES and r.code not in marked}
    assert missing == set(WITHOUT_ORACLE_FIXTURE), (
        f"no fixture line that the oracle runs is marked with {sorted(missing - set(WITHOUT_ORACLE_FIXTURE))}; "
        f"now marked, so no longer exceptions: {sorted(set(WITHOUT_ORACLE_FIXTURE) - missing)}"
    )
