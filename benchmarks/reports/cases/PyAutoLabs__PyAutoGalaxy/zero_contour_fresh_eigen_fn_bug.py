# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/434
# category: R
# expect: recompiles
# via: method, factory-closure, jit-decorator, static-argnums, pytree-class, grad, vmap, lax-scan
# sink: fresh-callable
"""`LensCalc._critical_curve_list_via_zero_contour` built a new eigenvalue closure (wrapped in a
`jax.tree_util.Partial`) and a new `ZeroSolver` on every call; the solver's jitted
`zero_contour_finder` keys its cache on both, so every critical-curve request compiled it again
(about 10 s each).  The pull request caches the `(f, solver)` pair on the `LensCalc` instance.
(jax_zero_contour is not installed: `ZeroSolver` is reduced here under its name.)"""
from functools import partial

import jax
import jax.numpy as jnp
from jax.tree_util import Partial


class ZeroSolver:
    def __init__(self, tol=1e-6, max_newton=5):
        self.tol, self.max_newton = tol, max_newton

    @partial(jax.jit, static_argnames=("self", "N"))
    def zero_contour_finder(self, f, init_guess, delta=0.05, N=16):
        grad_f = jax.grad(f)

        def newton(pos):
            def body(i, p):
                g = grad_f(p)
                return p - f(p) * g / jnp.maximum(jnp.dot(g, g), self.tol)
            return jax.lax.fori_loop(0, self.max_newton, body, pos)

        def step(pos, _):
            g = grad_f(pos)
            tangent = jnp.array([-g[1], g[0]]) / jnp.linalg.norm(g)
            new = newton(pos + delta * tangent)
            return new, new

        def trace(start):
            _, path = jax.lax.scan(step, newton(start), None, length=N)
            return path

        paths = jax.vmap(trace)(init_guess)
        return paths, jax.vmap(jax.vmap(f))(paths)


class LensCalc:
    def __init__(self, einstein_radius):
        self.einstein_radius = einstein_radius

    def deflections_yx_scalar(self, y, x, pixel_scales):
        r = jnp.sqrt(y ** 2 + x ** 2 + pixel_scales[0] ** 2)
        return jnp.stack([self.einstein_radius * y / r, self.einstein_radius * x / r])

    def _make_eigen_fn(self, kind, pixel_scales=(0.05, 0.05)):
        _deflections_yx_scalar = self.deflections_yx_scalar
        _sign = -1.0 if kind == "tangential" else 1.0

        def _f(pos):
            H = jnp.stack(jax.jacfwd(_deflections_yx_scalar, argnums=(0, 1))(pos[0], pos[1], pixel_scales))
            convergence = 0.5 * (H[0, 0] + H[1, 1])
            shear = jnp.sqrt((0.5 * (H[1, 1] - H[0, 0])) ** 2 + (0.5 * (H[0, 1] + H[1, 0])) ** 2)
            return 1.0 - convergence + _sign * shear

        return Partial(_f)

    def _critical_curve_list_via_zero_contour(self, kind, init_guess, pixel_scales=(0.05, 0.05),
                                              tol=1e-6, max_newton=5):
        init_guess = jnp.atleast_2d(jnp.asarray(init_guess))
        f = self._make_eigen_fn(kind=kind, pixel_scales=pixel_scales)
        solver = ZeroSolver(tol=tol, max_newton=max_newton)
        paths, _ = solver.zero_contour_finder(f, init_guess)  # <-- bug
        return [p for p in paths]

    def tangential_critical_curve_list_via_zero_contour_from(self, init_guess):
        return self._critical_curve_list_via_zero_contour("tangential", init_guess)


if __name__ == "__main__":
    lens_calc = LensCalc(einstein_radius=1.2)
    for quick_update in range(3):
        curves = lens_calc.tangential_critical_curve_list_via_zero_contour_from([[1.1, 0.2]])
        print(quick_update, float(jnp.mean(jnp.linalg.norm(curves[0], axis=-1))))
