"""The table of NumPy samplers' ``size`` positions is NumPy's own signatures."""

import inspect

import pytest

np = pytest.importorskip("numpy")

from jaxlint.analysis.jax.numpy_random_sizes import DIMENSIONS_AS_ARGUMENTS, SIZE_POSITION  # noqa: E402


def _size_positions(cls):
    out = {}
    for name in dir(cls):
        if name.startswith("_"):
            continue
        try:
            params = list(inspect.signature(getattr(cls, name)).parameters)
        except (TypeError, ValueError):
            continue
        if "size" in params:
            out[name] = params.index("size") - 1  # after self
    return out


def test_size_positions_are_numpys():
    generator, legacy = _size_positions(np.random.Generator), _size_positions(np.random.RandomState)
    for name, position in SIZE_POSITION.items():
        assert position == generator.get(name, legacy.get(name)), name
        assert name not in legacy or legacy[name] == position, name
    # every sampler that takes a size is listed
    assert set(generator) | set(legacy) == set(SIZE_POSITION)
    # the module functions are the legacy generator's
    assert np.random.choice(10, 4).shape == (4,) and np.random.uniform(0.0, 1.0, 5).shape == (5,)


def test_size_is_the_shape_drawn():
    rng, legacy = np.random.default_rng(0), np.random.RandomState(0)
    assert rng.choice(10, 4).shape == (4,) and legacy.choice(10, 4).shape == (4,)
    assert rng.normal(0.0, 1.0, (3, 2)).shape == (3, 2)
    assert all(getattr(legacy, n)(3, 2).shape == (3, 2) for n in DIMENSIONS_AS_ARGUMENTS)
