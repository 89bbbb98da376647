"""The names file the migration lookup reads first is the release table's own list of old names
(benchmarks/jax_history.py writes both)."""

import json

from jaxlint.analysis.jax import jax_api_migrations as t


def test_the_names_file_lists_the_tables_old_names():
    with open(t.TABLE_FILE, encoding="utf-8") as fh:
        entries = json.load(fh)["entries"]
    with open(t.NAMES_FILE, encoding="utf-8") as fh:
        assert fh.read() == t.names_text(entries)
