# source: https://github.com/magnusdk/vbeam/commit/405161a8ddadec8a89af2e415390814854b86c9a
# category: A
# expect: ok
# via: jit-call, pytree-class, dataclass, method, helper
# sink: bool-ops
"""SectorScan.cartesian_bounds found the right-most corner of the scan arcs with Python's
builtin max(); with the JAX backend active and the scan passed into a jitted function, the
corner coordinates were tracers and max() had to compare them as Python bools."""
from dataclasses import dataclass

import jax
import jax.numpy as np  # vbeam.fastmath.numpy with the JAX backend active


@jax.tree_util.register_dataclass
@dataclass
class SectorScan:
    azimuths: np.ndarray
    depths: np.ndarray

    @property
    def bounds(self):
        return (self.azimuths[0], self.azimuths[-1], self.depths[0], self.depths[-1])

    @property
    def cartesian_bounds(self):
        min_az, max_az, min_d, max_d = self.bounds
        quarter_turn = np.pi / 2
        half_turn = np.pi
        # Return (left, right, top, bottom)
        return (
            -_right_bound(min_az + quarter_turn, max_az + quarter_turn, min_d, max_d),
            _right_bound(min_az - quarter_turn, max_az - quarter_turn, min_d, max_d),
            -_right_bound(min_az + half_turn, max_az + half_turn, min_d, max_d),
            _right_bound(min_az, max_az, min_d, max_d),
        )


def _right_bound(min_azimuth, max_azimuth, min_depth, max_depth):
    cos_min, cos_max = np.cos(min_azimuth), np.cos(max_azimuth)
    sin_min, sin_max = np.sin(min_azimuth), np.sin(max_azimuth)

    # Get the maximum x coordinate of the corners of both the inner and outer arc.
    max_corner_x = np.max(
        np.array([cos_min * min_depth, cos_max * min_depth, cos_min * max_depth, cos_max * max_depth])
    )

    return np.where(
        (max_azimuth - min_azimuth) < np.pi,
        np.where(np.logical_and(sin_min < 0, sin_max > 0), max_depth, max_corner_x),
        np.where(np.logical_or(sin_min < 0, sin_max > 0), max_depth, max_corner_x),
    )


@jax.jit
def scan_convert_extent(scan: SectorScan):
    min_x, max_x, min_z, max_z = scan.cartesian_bounds
    return np.array([min_x, max_x, min_z, max_z])


if __name__ == "__main__":
    scan = SectorScan(np.linspace(-0.6, 0.6, 64), np.linspace(0.0, 0.08, 128))
    print(scan_convert_extent(scan))
