"""JAX1xx: a traced value used where Python needs a concrete one.

Under ``jax.jit`` (and every other abstract trace) arguments are tracers: they have a shape and
a dtype but no value.  Python control flow, ``int()``/``float()``, NumPy and shape arguments need
a value, so JAX raises at trace time.  References: JAX docs, "Control flow and logical operators
with JIT" and "Errors" (TracerBoolConversionError, ConcretizationTypeError,
TracerIntegerConversionError, TracerArrayConversionError, NonConcreteBooleanIndexError).
"""
