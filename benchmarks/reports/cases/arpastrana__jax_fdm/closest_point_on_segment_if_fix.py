# source: https://github.com/arpastrana/jax_fdm/commit/27e82c9d254aef0ad8c9cbf411805c428ed5df63
# category: A
# expect: ok
# via: jit-call, helper, lax-cond
# sink: python-if
"""closest_point_on_segment picked the nearest of the two end points and the projected point with
Python `if d1 > d or d2 > d:`; jitting it for the goal functions made the squared distances
tracers, and the comparison could not be turned into a bool."""
import jax.numpy as jnp
from jax import jit
from jax.lax import cond


def vector_projection(u, v):
    l2 = jnp.sum(v ** 2)
    x = (u @ jnp.transpose(v)) / l2
    return v * x


def closest_point_on_line(point, line):
    a, b = line
    ab = b - a
    ap = point - a
    return a + vector_projection(ap, ab)


def distance_point_point_sqrd(u, v):
    return jnp.sum(jnp.square(u - v))


def closest_point_on_segment(point, segment):
    a, b = segment
    p = closest_point_on_line(point, segment)

    d = distance_point_point_sqrd(a, b)
    d1 = distance_point_point_sqrd(a, p)
    d2 = distance_point_point_sqrd(b, p)

    def start_point():
        return a

    def end_point():
        return b

    def middle_point():
        return p

    def point_is_outside():
        return cond(d1 < d2, start_point, end_point)

    return cond(jnp.logical_or(d1 > d, d2 > d), point_is_outside, middle_point)


if __name__ == "__main__":
    segment = tuple(jnp.array(pt) for pt in ([1.0, 0.0, 0.0], [2.5, 0.0, 0.0]))
    test_points = [[2.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [5.0, -1.0, 0.0]]
    result_points = [[2.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.5, 0.0, 0.0]]

    for tpoint, rpoint in zip(test_points, result_points):
        cpoint = jit(closest_point_on_segment)(jnp.array(tpoint), segment)
        assert jnp.allclose(cpoint, jnp.array(rpoint)), f"got {cpoint} wanted {rpoint}"
        print(cpoint)
