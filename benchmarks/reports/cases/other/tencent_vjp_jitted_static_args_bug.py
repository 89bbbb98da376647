# source: https://cloud.tencent.com/developer/ask/sof/107366264
# category: B
# expect: raises
# via: jit-call, static-argnums, grad
# sink: static-unhashable
"""A function jitted with its last two arguments static is handed to `jax.vjp` together with all
four arguments; `vjp` traces the static ones too, and the jitted call then refuses the tracers
as unhashable static arguments."""
import jax
import jax.numpy as jnp
from jax import jit, vjp


def func(variational_params, e, A, B):
    mu, log_sigma = jnp.split(variational_params, 2)
    model_params = mu + jnp.exp(log_sigma) * e
    dlogp = -model_params / A**2 - B * jnp.tanh(model_params)
    return dlogp, model_params


func_jitted = jit(func, static_argnums=(2, 3))


if __name__ == "__main__":
    A = 2.0
    B = 0.5
    variational_params = jnp.linspace(-1.0, 1.0, 6)
    e = jax.random.normal(jax.random.PRNGKey(0), (3,))

    f_eval, vjp_function, aux_output = vjp(func_jitted, variational_params, e, A, B, has_aux=True)  # <-- bug
    print(vjp_function(aux_output)[0])
