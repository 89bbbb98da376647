# source: https://github.com/AI-Hypercomputer/maxdiffusion/commit/de4566506f6d1a6d3d441d540b42d6052967cc77
# category: B
# expect: raises
# via: partial-jit, static-argnums, method, flax-nnx, lax-scan
# sink: static-unhashable
"""LTX2Pipeline passed `tuple(self.config.logical_axis_rules)` as a static argument of the jitted
`run_diffusion_loop`; the rules come from a YAML config as lists, so the tuple held lists and JAX
refused to hash it.  (A small NNX module and scheduler stand in for the pipeline's.)"""
from functools import partial

import jax
import jax.numpy as jnp
from flax import nnx
from flax.linen import partitioning as nn_partitioning


class Denoiser(nnx.Module):
    def __init__(self, rngs):
        self.proj = nnx.Linear(8, 8, rngs=rngs)

    def __call__(self, latents, t):
        return self.proj(latents) * t


def scheduler_step(noise_pred, t, latents):
    return latents - 0.1 * noise_pred


@partial(jax.jit, static_argnames=("scan_layers", "scheduler_step", "logical_axis_rules"))
def run_diffusion_loop(graphdef, state, timesteps_jax, latents_jax, scan_layers, scheduler_step, logical_axis_rules):
    transformer = nnx.merge(graphdef, state)

    def scan_body(latents, t):
        with nn_partitioning.axis_rules(logical_axis_rules):
            noise_pred = transformer(latents, t)
        return scheduler_step(noise_pred, t, latents), None

    latents, _ = jax.lax.scan(scan_body, latents_jax, timesteps_jax)
    return latents


class Config:
    # as loaded from the YAML config: a list of [logical, mesh] pairs
    logical_axis_rules = [["activation_batch", "data"], ["activation_embed", "tensor"]]


class LTX2Pipeline:
    def __init__(self, config):
        self.config = config
        self.transformer = Denoiser(nnx.Rngs(0))
        self.scan_layers = True

    def __call__(self, latents, num_steps):
        graphdef, state = nnx.split(self.transformer)
        timesteps_jax = jnp.linspace(1.0, 0.0, num_steps, dtype=jnp.float32)
        return run_diffusion_loop(  # <-- bug
            graphdef, state, timesteps_jax, latents, self.scan_layers, scheduler_step,
            tuple(self.config.logical_axis_rules),
        )


if __name__ == "__main__":
    pipe = LTX2Pipeline(Config())
    out = pipe(jnp.ones((2, 8)), 4)
    print(out.shape, float(out.sum()))
