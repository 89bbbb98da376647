# source: https://github.com/magnusdk/vbeam/commit/337820e3bd1ae5b608965781e8d5ad7bcc9d06c0
# category: A
# expect: raises
# via: jit-call, vmap, pytree-class, dataclass, method
# sink: python-if
"""PlaneWaveTransmitApodization validated its array bounds in __post_init__ with np.all(...);
the traceable dataclass is rebuilt through its constructor when JAX unflattens it inside a
jitted beamformer, so the checks ran on traced bounds and `if not ...` needed a Python bool."""
from dataclasses import dataclass
from typing import Tuple

import jax
import jax.numpy as np  # vbeam.fastmath.numpy with the JAX backend active


def traceable_dataclass(data_fields=()):
    def inner(cls):
        cls = dataclass(cls)
        jax.tree_util.register_pytree_node(
            cls,
            lambda obj: ([getattr(obj, f) for f in data_fields], cls),
            lambda cls, children: cls(**dict(zip(data_fields, children))),
        )
        return cls
    return inner


@traceable_dataclass(("array_bounds",))
class PlaneWaveTransmitApodization:
    # array_bounds relative to the sender
    array_bounds: Tuple[np.ndarray, np.ndarray]

    def __post_init__(self):
        """Validate the array bounds."""
        if len(self.array_bounds) not in [2, 4]:
            raise ValueError("Expected either left/right or left/right/front/back array bounds")
        if not np.all(np.stack(self.array_bounds)[..., -1] == 0):  # <-- bug
            raise NotImplementedError("Currently require all array-bounds to have 0-depth")
        if not np.all(np.abs(np.mean(np.array(self.array_bounds[:2]), axis=0)) < 1e-6):
            raise NotImplementedError("Currently require left/right array-bounds to be centered")

    def __call__(self, sender_position, point_position, azimuth):
        point_position = point_position - sender_position
        x_projected = point_position[0] - np.sin(azimuth) * point_position[2] / np.cos(azimuth)
        array_width = np.linalg.norm(self.array_bounds[1] - self.array_bounds[0])
        return (np.abs(x_projected / array_width) <= 0.5).astype(np.float32)


@jax.jit
def beamform(apodization, sender_position, points, azimuth):
    return jax.vmap(apodization, in_axes=(None, 0, None))(sender_position, points, azimuth)


if __name__ == "__main__":
    apod = PlaneWaveTransmitApodization((np.array([-0.01, 0.0, 0.0]), np.array([0.01, 0.0, 0.0])))
    points = np.stack([np.linspace(-0.02, 0.02, 9), np.zeros(9), np.full(9, 0.03)], axis=-1)
    print(beamform(apod, np.zeros(3), points, 0.1))
