"""JAX0xx: the linter reporting on itself.  These never come from the analysis."""
