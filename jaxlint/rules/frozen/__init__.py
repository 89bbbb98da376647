"""JAX3xx: values and effects frozen at trace time.

``jax.jit`` runs the Python function once per input signature and replays the compiled result.
Everything the Python code read from outside its arguments is baked in as a constant, and every
side effect happens once, while tracing.  References: JAX docs, "JIT mechanics: tracing and
static variables" and "Pure functions" in "Common gotchas".
"""
