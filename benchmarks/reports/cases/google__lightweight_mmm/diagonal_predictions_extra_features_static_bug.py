# source: https://github.com/google/lightweight_mmm/commit/37295bfbdbf0f5d67e3e4c439bdc1c3fe4e351ca
# category: B
# expect: raises
# via: partial-jit, static-argnums, vmap, helper, method
# sink: static-array
"""lightweight_mmm's `_generate_diagonal_predictions` listed `extra_features` among its
`static_argnames`; for a model fitted with extra features, `plot_response_curves` passes their
mean (a JAX array) there, and JAX cannot hash it as a static argument."""
import functools

import jax
import jax.numpy as jnp


class LightweightMMM:
    """A fitted media mix model: Hill-saturated media plus linear extra features."""

    def __init__(self, media, extra_features, trace):
        self.media = media
        self._extra_features = extra_features
        self.n_media_channels = media.shape[1]
        self.trace = trace

    def predict(self, media, extra_features=None, seed=None):
        half_max, slope = self.trace["half_max_effective_concentration"], self.trace["slope"]
        saturated = 1.0 / (1.0 + (media[None] / half_max[:, None, :]) ** -slope[:, None, :])
        pred = self.trace["intercept"][:, None] + jnp.einsum("std,sd->st", saturated, self.trace["coef_media"])
        if extra_features is not None:
            pred = pred + jnp.einsum("te,se->st", extra_features, self.trace["coef_extra_features"])
        return pred


@functools.partial(jax.jit, static_argnames=("media_mix_model"))
def _make_single_prediction(media_mix_model, mock_media, extra_features, seed):
    return media_mix_model.predict(
        media=jnp.expand_dims(mock_media, axis=0), extra_features=extra_features, seed=seed).mean(axis=0)


@functools.partial(
    jax.jit,
    static_argnames=("media_mix_model", "extra_features", "target_scaler"))
def _generate_diagonal_predictions(media_mix_model, media_values, extra_features, target_scaler,
                                   prediction_offset, seed):
    make_predictions = jax.vmap(fun=_make_single_prediction, in_axes=(None, 0, None, None))
    diag_media_values = jnp.eye(media_values.shape[0]) * media_values
    predictions = make_predictions(media_mix_model, diag_media_values, extra_features, seed) - prediction_offset
    if target_scaler:
        predictions = target_scaler.inverse_transform(predictions)
    return predictions


def plot_response_curves(media_mix_model, target_scaler=None, optimal_allocation_per_timeunit=None,
                         steps=50, percentage_add=0.2, seed=None):
    media = media_mix_model.media
    media_maxes = media.max(axis=0) * (1 + percentage_add)
    if media_mix_model._extra_features is not None:
        extra_features = jnp.expand_dims(media_mix_model._extra_features.mean(axis=0), axis=0)
    else:
        extra_features = None
    media_ranges = jnp.expand_dims(jnp.linspace(start=0, stop=media_maxes, num=steps), axis=0)
    make_predictions = jax.vmap(
        jax.vmap(_make_single_prediction, in_axes=(None, 0, None, None)), in_axes=(None, 0, None, None))
    diagonal = jnp.repeat(jnp.eye(media_mix_model.n_media_channels), steps, axis=0).reshape(
        media_mix_model.n_media_channels, steps, media_mix_model.n_media_channels)
    prediction_offset = media_mix_model.predict(
        media=jnp.zeros((1, *media.shape[1:])), extra_features=extra_features).mean(axis=0)
    mock_media = media_ranges * diagonal
    predictions = jnp.squeeze(a=make_predictions(media_mix_model, mock_media, extra_features, seed))
    predictions = jnp.transpose(predictions) - prediction_offset
    curves = {"predictions": predictions}
    if optimal_allocation_per_timeunit is not None:
        average_allocation = media_mix_model.media.mean(axis=0)
        curves["average"] = _generate_diagonal_predictions(  # <-- bug
            media_mix_model=media_mix_model,
            media_values=average_allocation,
            extra_features=extra_features,
            target_scaler=target_scaler,
            prediction_offset=prediction_offset,
            seed=seed)
        curves["optimal"] = _generate_diagonal_predictions(
            media_mix_model=media_mix_model,
            media_values=optimal_allocation_per_timeunit,
            extra_features=extra_features,
            target_scaler=target_scaler,
            prediction_offset=prediction_offset,
            seed=seed)
    return curves


if __name__ == "__main__":
    key_media, key_extra, key_trace = jax.random.split(jax.random.PRNGKey(1), 3)
    media = jax.random.uniform(key_media, (52, 3), dtype=jnp.float32, minval=0.5, maxval=2.0)
    extra_features = jax.random.normal(key_extra, (52, 2), dtype=jnp.float32)
    ks = jax.random.split(key_trace, 5)
    trace = {
        "intercept": 1.0 + 0.1 * jax.random.normal(ks[0], (4,)),
        "coef_media": jax.random.uniform(ks[1], (4, 3), minval=0.5, maxval=1.5),
        "half_max_effective_concentration": jax.random.uniform(ks[2], (4, 3), minval=0.8, maxval=1.2),
        "slope": jax.random.uniform(ks[3], (4, 3), minval=1.0, maxval=2.0),
        "coef_extra_features": 0.2 * jax.random.normal(ks[4], (4, 2)),
    }
    mmm = LightweightMMM(media, extra_features, trace)
    curves = plot_response_curves(mmm, steps=10, optimal_allocation_per_timeunit=jnp.array([1.2, 0.8, 1.5], dtype=jnp.float32))
    print(curves["predictions"].shape, [round(float(x), 4) for x in curves["average"].ravel()],
          [round(float(x), 4) for x in curves["optimal"].ravel()])
