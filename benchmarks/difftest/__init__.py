"""The differential test of jaxlint against JAX: generated programs, run and linted."""
