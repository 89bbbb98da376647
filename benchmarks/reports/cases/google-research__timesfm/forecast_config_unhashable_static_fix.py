# source: https://github.com/google-research/timesfm/commit/25bb4f20e8f69c8d220a59611cf41b0f298977e1
# category: B
# expect: ok
# via: dataclass, partial-jit, static-argnums, method, factory-closure
# sink: static-unhashable
"""TimesFM after the fix: `ForecastConfig` is a frozen dataclass, hashable by value, so it can
be the static `fc` of the jitted decode steps."""
import dataclasses
import functools

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class ForecastConfig:
    max_context: int = 0
    max_horizon: int = 0
    normalize_inputs: bool = False
    per_core_batch_size: int = 1
    infer_is_positive: bool = True


def revin(x, mu, sigma, reverse=False):
    if reverse:
        return x * sigma + mu
    return (x - mu) / jnp.where(sigma < 1e-6, 1.0, sigma)


@functools.partial(jax.jit, static_argnames=("fc",))
def _before_model_decode(fc, inputs, masks):
    """All Jax steps before model decode call."""
    if fc.infer_is_positive:
        is_positive = jnp.all(inputs >= 0, axis=-1, keepdims=True)
    else:
        is_positive = None
    if fc.normalize_inputs:
        mu = jnp.mean(inputs, axis=-1, keepdims=True)
        sigma = jnp.std(inputs, axis=-1, keepdims=True)
        inputs = revin(inputs, mu, sigma, reverse=False)
    else:
        mu, sigma = None, None
    b = fc.per_core_batch_size
    inputs = inputs.reshape((-1, b) + inputs.shape[1:])
    masks = masks.reshape((-1, b) + masks.shape[1:])
    return inputs, masks, is_positive, mu, sigma


class TinyDecoder:
    """Stands in for the TimesFM transformer: repeats the mean of the last patch."""

    p = 8

    @functools.partial(jax.jit, static_argnums=(0, 1))
    def compiled_decode(self, horizon, inputs, masks):
        last = jnp.where(masks[..., -self.p :], 0.0, inputs[..., -self.p :]).mean(axis=-1, keepdims=True)
        return jnp.broadcast_to(last, inputs.shape[:-1] + (horizon,))


class TimesFM_2p5_200M_flax:
    def __init__(self):
        self.model = TinyDecoder()

    def compile(self, forecast_config):
        self.forecast_config = forecast_config

        def compiled_decode_kernel(fc, horizon, inputs, masks):
            inputs = jnp.array(inputs, dtype=jnp.float32)
            masks = jnp.array(masks, dtype=jnp.bool_)
            to_trim = fc.max_horizon - horizon
            inputs, masks, is_positive, mu, sigma = _before_model_decode(
                fc, inputs, masks
            )
            out = self.model.compiled_decode(fc.max_horizon, inputs, masks)
            out = out.reshape((-1,) + out.shape[2:])
            if fc.normalize_inputs:
                out = revin(out, mu, sigma, reverse=True)
            if fc.infer_is_positive:
                out = jnp.where(is_positive, jnp.maximum(out, 0.0), out)
            out = np.array(out)
            if to_trim > 0:
                out = out[..., :-to_trim]
            return out

        self.compiled_decode = functools.partial(compiled_decode_kernel, self.forecast_config)

    def forecast(self, horizon, inputs):
        ctx = self.forecast_config.max_context
        padded = np.zeros((len(inputs), ctx), dtype=np.float32)
        masks = np.ones((len(inputs), ctx), dtype=bool)
        for i, series in enumerate(inputs):
            series = np.asarray(series, dtype=np.float32)[-ctx:]
            padded[i, ctx - len(series) :] = series
            masks[i, ctx - len(series) :] = False
        return self.compiled_decode(horizon, padded, masks)


if __name__ == "__main__":
    model = TimesFM_2p5_200M_flax()
    model.compile(
        ForecastConfig(max_context=32, max_horizon=16, normalize_inputs=True, per_core_batch_size=2)
    )
    point_forecast = model.forecast(
        horizon=12,
        inputs=[np.linspace(0, 1, 40), np.sin(np.linspace(0, 20, 24))],
    )
    print(point_forecast.shape, np.round(point_forecast[:, :3], 4).tolist())
