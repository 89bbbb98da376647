"""JAX5xx: code that runs without an error and computes the wrong thing."""
