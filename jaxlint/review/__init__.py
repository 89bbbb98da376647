"""Review modes: only what a change introduced (--diff), what a baseline does not record, and
the fingerprints both (and the SARIF and GitLab formats) identify findings by."""
