"""What the worker learns at run time and its parts share: JAX, jax.numpy and NumPy, imported
only once ``main`` has chosen the CPU platform (never when the package is imported), the user's
module the example values are built in, and the argument set the running check built last (its
source is named in the result).  One module holds them so that every part reads the same ones."""

jax = None
jnp = None
np = None
MODULE = None  # the imported user module
LAST_ARGSET = None  # the argument set the running check built last

