"""What JAX and NumPy do, as data: API tables, signatures, removed and deprecated APIs."""
