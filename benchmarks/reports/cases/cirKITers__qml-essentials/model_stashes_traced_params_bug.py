# source: https://github.com/cirKITers/qml-essentials/blob/c375f94f6bd2923be2d9a33ed6452154b949f88f/qml_essentials/model.py
# category: C
# expect: raises
# via: method, helper, jit-call, grad
# sink: attribute-write
"""`Model._params_validation` and `_enc_params_validation` store whatever parameters the call
receives on the model; under `jax.jit` those are tracers, so a later call that falls back to
`model.enc_params` feeds the leaked tracer into the circuit and raises UnexpectedTracerError."""
from typing import Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax import grad


class Model:
    def __init__(self, n_qubits, n_layers, random_seed=1000):
        self.n_qubits = n_qubits
        self.n_layers = n_layers
        rng = np.random.default_rng(random_seed)
        self.params = jnp.array(rng.uniform(0, 2 * np.pi, (1, n_layers, 3 * n_qubits)))
        self.enc_params = jnp.ones((n_layers, n_qubits, 1))

    @property
    def params(self) -> jnp.ndarray:
        return self._params

    @params.setter
    def params(self, value: jnp.ndarray) -> None:
        if len(value.shape) == 2:
            value = value.reshape(1, *value.shape)
        self._params = value

    @property
    def enc_params(self) -> jnp.ndarray:
        return self._enc_params

    @enc_params.setter
    def enc_params(self, value: jnp.ndarray) -> None:
        self._enc_params = value

    def _params_validation(self, params: Optional[jnp.ndarray]) -> jnp.ndarray:
        if params is not None:
            if len(params.shape) == 2:
                params = jnp.expand_dims(params, axis=0)
            self.params = params
        else:
            params = self.params
        return params

    def _enc_params_validation(self, enc_params: Optional[jnp.ndarray]) -> jnp.ndarray:
        if enc_params is None:
            enc_params = self.enc_params
        else:
            self.enc_params = jnp.array(enc_params)  # <-- bug
        return enc_params

    def _variational(self, params, inputs, enc_params):
        # one RX encoding and RY/RZ rotations per qubit and layer, read out as <Z>
        angles = jnp.zeros(self.n_qubits)
        for layer in range(self.n_layers):
            w = params[:, layer].reshape(-1, self.n_qubits, 3)
            angles = angles + enc_params[layer, :, 0] * inputs[:, None] + w[..., 0] + w[..., 1]  # <-- bug
        return jnp.cos(angles)

    def __call__(self, params=None, inputs=None, enc_params=None, execution_type="expval",
                 force_mean=False):
        return self._forward(params=params, inputs=inputs, enc_params=enc_params,
                             execution_type=execution_type, force_mean=force_mean)

    def _forward(self, params=None, inputs=None, enc_params=None, execution_type="expval",
                 force_mean=False):
        params = self._params_validation(params)
        enc_params = self._enc_params_validation(enc_params)
        inputs = jnp.zeros(1) if inputs is None else jnp.atleast_1d(inputs)
        result = self._variational(params, inputs, enc_params)
        return jnp.mean(result, axis=-1) if force_mean else result


if __name__ == "__main__":
    model = Model(n_qubits=2, n_layers=1, random_seed=1000)
    params = jnp.array(model.params)
    enc_params = jnp.array(model.enc_params)

    cost = jax.jit(
        lambda p, e: jnp.sum(
            model(params=p, enc_params=e, inputs=jnp.array([0.0]), execution_type="expval",
                  force_mean=True)
        )
    )
    print("cost:", cost(params, enc_params))
    print("cost again:", cost(params, enc_params))
    g = grad(lambda p: jnp.sum(model(params=p, inputs=jnp.array([0.0]))))(params)
    print("grad:", g)
