# source: https://github.com/efradeca/vae-fdm/blob/34c9155625c89415264e2732b848229df8073351/tests/test_regression.py
# category: C
# expect: raises
# via: equinox, partial-jit, grad, factory-closure, host-loop
# sink: in-place-update
"""train_step_vae copies loss_params only one level deep before injecting the annealed beta, so
the traced beta is written into the nested "vae" dict shared with the compute_loss partial, and
calling that same loss unjitted after training fails with an escaped tracer."""
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jrn
import optax
from jax import vmap


class VariationalAutoEncoder(eqx.Module):
    encoder: eqx.nn.Linear
    decoder: eqx.nn.Linear

    def __init__(self, dim, latent, key):
        k1, k2 = jrn.split(key)
        self.encoder = eqx.nn.Linear(dim, 2 * latent, key=k1)
        self.decoder = eqx.nn.Linear(latent, dim, key=k2)

    def __call__(self, x, key):
        mean, logvar = jnp.split(vmap(self.encoder)(x), 2, axis=-1)
        z = mean + jnp.exp(0.5 * logvar) * jrn.normal(key, mean.shape)
        return vmap(self.decoder)(z), mean, logvar


def compute_loss_vae(model, structure, x, loss_fn, loss_params, aux_data=True, key=None):
    key = jrn.PRNGKey(0) if key is None else key
    x_hat, mean, logvar = model(x, key)
    rec = loss_fn(x_hat, x)
    kl = -0.5 * jnp.mean(1.0 + logvar - mean ** 2 - jnp.exp(logvar))
    loss = rec + loss_params["vae"]["beta"] * kl  # <-- bug
    return (loss, {"loss": loss, "kl": kl}) if aux_data else loss


def build_loss_function(beta_max=1.0):
    mse = lambda a, b: jnp.mean((a - b) ** 2)  # noqa: E731
    return partial(compute_loss_vae, loss_fn=mse, loss_params={"vae": {"beta": 0.0, "beta_max": beta_max}})


def generator(key):
    return jrn.normal(key, (6,))


def train_step_vae(model, structure, optimizer, generator, opt_state, *, loss_fn, batch_size, key, beta):
    data_key, model_key = jrn.split(key)
    x = vmap(generator)(jrn.split(data_key, batch_size))

    def vae_loss_wrapper(model, structure, x, aux_data=True):
        _loss_params = dict(loss_fn.keywords.get("loss_params", {}))
        _loss_params.setdefault("vae", {})
        _loss_params["vae"]["beta"] = beta  # <-- bug
        return compute_loss_vae(model, structure, x, loss_fn.keywords["loss_fn"], _loss_params,
                                aux_data=aux_data, key=model_key)

    (loss, loss_vals), grads = eqx.filter_value_and_grad(vae_loss_wrapper, has_aux=True)(
        model, structure, x, aux_data=True)
    updates, opt_state = optimizer.update(grads, opt_state)
    return loss_vals, eqx.apply_updates(model, updates), opt_state


def train_model(model, structure, optimizer, generator, *, loss_fn, num_steps, batch_size, key):
    opt_state = optimizer.init(eqx.filter(model, eqx.is_array))
    beta_max = loss_fn.keywords["loss_params"]["vae"]["beta_max"]
    train_step_fn = eqx.filter_jit(partial(train_step_vae, loss_fn=loss_fn))
    for step in range(num_steps):
        key, _ = jrn.split(key)
        beta = jnp.float32(beta_max * min(1.0, step / max(num_steps - 1, 1)))
        loss_vals, model, opt_state = train_step_fn(model, structure, optimizer, generator, opt_state,
                                                    batch_size=batch_size, key=key, beta=beta)
    return model, loss_vals


if __name__ == "__main__":
    key = jrn.PRNGKey(0)
    mk, gk = jrn.split(key)
    compute_loss = build_loss_function()
    model = VariationalAutoEncoder(6, 2, mk)
    trained, _ = train_model(model, None, optax.adam(1e-3), generator, loss_fn=compute_loss,
                             num_steps=2, batch_size=4, key=gk)
    xyz = vmap(generator)(jrn.split(gk, 2))
    loss, aux = compute_loss(trained, None, xyz)  # <-- bug
    print(float(loss))
