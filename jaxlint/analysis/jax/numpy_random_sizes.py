"""Where NumPy's random samplers take the shape of what they draw: the position of ``size``
after the receiver, the same in ``np.random.Generator``, ``np.random.RandomState`` and the
``np.random`` module functions (tests/unit/test_numpy_random_sizes.py reads it back from
the installed NumPy's signatures).  ``rand`` and ``randn`` take the dimensions themselves as
their positional arguments."""

from typing import Optional

import libcst as cst

NUMPY_VERSION = "2.4.6"

# fmt: off
SIZE_POSITION = {
    "beta": 2, "binomial": 2, "chisquare": 1, "choice": 1, "dirichlet": 1, "exponential": 1,
    "f": 2, "gamma": 2, "geometric": 1, "gumbel": 2, "hypergeometric": 3, "integers": 2,
    "laplace": 2, "logistic": 2, "lognormal": 2, "logseries": 1, "multinomial": 2,
    "multivariate_hypergeometric": 2,
    "multivariate_normal": 2, "negative_binomial": 2, "noncentral_chisquare": 2,
    "noncentral_f": 3, "normal": 2, "pareto": 1, "poisson": 1, "power": 1, "randint": 2,
    "random": 0, "random_integers": 2, "random_sample": 0, "rayleigh": 1, "standard_cauchy": 0,
    "standard_exponential": 0, "standard_gamma": 1, "standard_normal": 0, "standard_t": 1, "tomaxint": 0,
    "triangular": 3, "uniform": 2, "vonmises": 2, "wald": 2, "weibull": 1, "zipf": 1,
}
# fmt: on

DIMENSIONS_AS_ARGUMENTS = frozenset({"rand", "randn"})

# What makes a NumPy random generator, whose methods are the samplers above.
GENERATOR_MAKERS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator"})


def size_argument(name: str, args) -> Optional[cst.BaseExpression]:
    """What sampler ``name`` called with ``args`` (after the receiver) is told to draw: its
    ``size``, by position or keyword, or for ``rand``/``randn`` the tuple of the dimensions
    given; None for no sampler, or none given (``size=None`` too): then it draws one scalar."""
    if name in DIMENSIONS_AS_ARGUMENTS:
        dims = [cst.Element(a.value) for a in args if a.keyword is None and not a.star]
        return cst.Tuple(dims) if dims else None
    if name not in SIZE_POSITION:
        return None
    positional = [a.value for a in args if a.keyword is None and not a.star]
    size = positional[SIZE_POSITION[name]] if len(positional) > SIZE_POSITION[name] else None
    size = size if size is not None else next((a.value for a in args if a.keyword is not None and a.keyword.value == "size"), None)
    return None if isinstance(size, cst.Name) and size.value == "None" else size
