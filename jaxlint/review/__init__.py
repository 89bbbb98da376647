"""Review modes: only what a change introduced (--diff), and what a baseline does not record
(findings identified by their fingerprints, jaxlint.fingerprints)."""
