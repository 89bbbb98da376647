"""What the worker learns at run time and its parts share: JAX, jax.numpy and NumPy, imported
only once ``main`` has chosen the CPU platform (never when the package is imported), the user's
module the example values are built in, and the argument set the running check built last (its
source is named in the result).  One module holds them so that every part reads the same ones."""

import sys

jax = None
jnp = None
np = None
MODULE = None  # the imported user module
LAST_ARGSET = None  # the argument set the running check built last


def package():
    """The worker package (jaxlint.dynamic.worker), which the checks kept beside it in
    jaxlint.dynamic (conventions, constructions, main_block) are given as ``w`` for its helpers:
    looked up here, since the package imports the modules that call this (an import would be a
    cycle)."""
    return sys.modules[__name__.rpartition(".")[0]]
