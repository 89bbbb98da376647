"""What the worker's parts share: JAX, jax.numpy and NumPy (imported here, in the worker process
only: ``python -m jaxlint.dynamic.worker`` has chosen the CPU platform before anything imports
this module), the user's module the example values are built in, and the argument set the
running check built last (its source is named in the result).  One module holds them so that
every part reads the same ones."""

import jax
import jax.monitoring  # noqa: F401 - compilation events
import jax.numpy as jnp  # noqa: F401 - for the worker's parts (runtime.jnp)
import numpy as np  # noqa: F401 - for the worker's parts (runtime.np)

MODULE = None  # the imported user module
LAST_ARGSET = None  # the argument set the running check built last
