# source: https://github.com/tristanmanchester/tomojax/commit/493e2d3da440eb1656ae0348bd107200ddd3a613
# category: R
# expect: recompiles
# via: helper, factory-closure, jit-decorator, dataclass, lax-scan, host-loop
# sink: fresh-callable
"""The alignment loop's reconstruction step defined its Huber-TV FISTA core as a fresh `@jax.jit`
closure inside `_run_huber_fista_core` on every outer iteration, so each outer alignment
iteration traced and compiled the whole FISTA core again.  The commit moves it to one
module-level jitted function with the grid, detector and core config as static arguments.
(The projector and the pose model are reduced to a few array operations.)"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import lax


@dataclass(frozen=True)
class Grid:
    nx: int


@dataclass(frozen=True)
class Detector:
    nu: int


@dataclass(frozen=True)
class FistaCoreConfig:
    iters: int
    lambda_tv: float
    huber_delta: float
    L: float


def fista_tv_core_arrays(x0, T_all, det_grid, projections, grid, detector, cfg):
    def forward(x):
        return T_all @ x * det_grid[0][: detector.nu]

    def huber(z):
        a = jnp.abs(z)
        return jnp.where(a < cfg.huber_delta, 0.5 * z ** 2 / cfg.huber_delta, a - 0.5 * cfg.huber_delta)

    def loss_fn(x):
        data = 0.5 * jnp.sum((forward(x) - projections) ** 2)
        return data + cfg.lambda_tv * jnp.sum(huber(jnp.diff(x))), data

    def step(carry, _):
        x, z, t = carry
        g = jax.grad(lambda v: loss_fn(v)[0])(z)
        x_new = jnp.maximum(z - g / cfg.L, 0.0)
        t_new = 0.5 * (1 + jnp.sqrt(1 + 4 * t ** 2))
        z_new = x_new + ((t - 1) / t_new) * (x_new - x)
        return (x_new, z_new, t_new), loss_fn(x_new)[0]

    (x, _, _), losses = lax.scan(step, (x0, x0, jnp.float32(1.0)), None, length=cfg.iters)
    total, data = loss_fn(x)
    return x, losses, data, total - data


def _run_reconstruction_step(*, grid, detector, projections, det_grid, params5, x, cfg, L_prev):
    def _run_huber_fista_core():
        T_all = jnp.eye(detector.nu, grid.nx) * (1.0 + params5[:, None])
        core_cfg = FistaCoreConfig(iters=cfg["recon_iters"], lambda_tv=cfg["lambda_tv"],
                                   huber_delta=cfg["huber_delta"], L=float(L_prev))

        @jax.jit
        def run(x_in, T_in):
            return fista_tv_core_arrays(x_in, T_in, det_grid, projections, grid, detector, core_cfg)

        x_core, loss, data_loss, reg = run(x, T_all)  # <-- bug
        return x_core, {"loss": float(loss[-1]), "data_loss": float(data_loss)}

    return _run_huber_fista_core()


if __name__ == "__main__":
    grid, detector = Grid(nx=16), Detector(nu=16)
    truth = jnp.abs(jnp.sin(jnp.arange(16.0) / 3.0))
    projections = truth * 1.05
    det_grid = (jnp.ones(16), jnp.zeros(16))
    cfg = {"recon_iters": 20, "lambda_tv": 0.01, "huber_delta": 0.1}
    x = jnp.zeros(16)
    params5 = jnp.zeros(16)
    for outer_idx in range(1, 4):
        x, info = _run_reconstruction_step(grid=grid, detector=detector, projections=projections,
                                           det_grid=det_grid, params5=params5, x=x, cfg=cfg, L_prev=4.0)
        params5 = params5 + 0.01
        print(outer_idx, round(info["loss"], 5), round(info["data_loss"], 5))
