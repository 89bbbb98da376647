"""JAX2xx: static arguments.

``static_argnums``/``static_argnames`` make a parameter part of the compilation cache key: it
must be hashable, and the spec must name real parameters.  References: ``jax.jit`` API docs;
"ValueError: Non-hashable static arguments are not supported".
"""
