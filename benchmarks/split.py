"""The blind split of the real-code corpora: development (about 60%) and test (about 40%).

The unit is the source a case comes from: a repository for bug reports, a distribution for the
world corpus.  Both rules are fixed before anything is scored, and a new case of a known source
always falls on the side its source is on.

- World corpus: a hash of the unit (:func:`half`).
- Bug reports: once a test half has been scored at the end of a round, it becomes development,
  and the reports added afterwards make a fresh test half.  ``reports/dev-units.txt`` lists every
  source that had a case when the current test half was opened; a report from a listed source is
  development, any other is test (:func:`report_half`).  The first test half was the hash rule's.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

SALT = "jaxlint-split-1:"
TEST_PERCENT = 40


def unit_of_source(url: str) -> str:
    """``owner/repo`` for a GitHub address, else the address without scheme, ``www.``, query or
    fragment (lower case)."""
    u = url.strip().lower()
    u = re.sub(r"^[a-z]+://", "", u)
    u = re.sub(r"^www\.", "", u)
    u = u.split("#")[0].split("?")[0].rstrip("/")
    m = re.match(r"github\.com/([^/]+)/([^/]+)", u)
    if m:
        return f"{m.group(1)}/{m.group(2)}"
    return u


def half(unit: str) -> str:
    """``"test"`` or ``"dev"``."""
    digest = hashlib.sha256((SALT + unit.lower()).encode()).hexdigest()
    return "test" if int(digest[:8], 16) % 100 < TEST_PERCENT else "dev"


DEV_UNITS = Path(__file__).with_name("reports") / "dev-units.txt"


def report_half(unit: str) -> str:
    """``"dev"`` for a source listed in ``reports/dev-units.txt``, else ``"test"``."""
    with open(DEV_UNITS, encoding="utf-8") as f:
        known = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    return "dev" if unit.lower() in known else "test"
