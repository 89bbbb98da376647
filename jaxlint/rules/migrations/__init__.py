"""JAX6xx: APIs that a JAX release removed (JAX601) or deprecated (JAX602).

Which applies depends on the JAX the code must run on (``target-jax``); the table of names is
``jaxlint.analysis.jax.jax_api_migrations``.
"""
