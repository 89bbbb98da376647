"""The blind split of the real-code corpora: development (about 60%) and test (about 40%).

The unit is the source a case comes from: a repository for bug reports, a distribution for the
world corpus.  The rule is a hash of the unit, so it is fixed before anything is scored and a new
case of a known source always falls on the side its source is on.
"""

from __future__ import annotations

import hashlib
import re

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
