# source: https://github.com/Neural-Mechanics-Lab/folax/commit/a5a245092c981eae6eb288335af80bad7868cc94
# category: B
# expect: ok
# via: flax-nnx, method, list-of-arrays, jit-decorator, optax, host-loop
# sink: static-metadata
"""FoLax's MLP kept its layer parameters as a list of `(nnx.Param, nnx.Param)` tuples, filled in
a loop in `InitialNetworkParameters`.  The fix for Flax 0.12 starts the list as `nnx.List([])`
and marks each layer tuple with `nnx.data` (as the same change does where it replaces a layer), so
the Params are data of the module and the optimizer and the jitted training step see them.  (The activation and initialisation settings are reduced.)"""
import jax
import jax.numpy as jnp
import optax
from flax import nnx
from jax import random


class MLP(nnx.Module):
    def __init__(self, name, input_size, hidden_layers, output_size, use_bias=True):
        self.name = name
        self.in_features = input_size
        self.hidden_layers = hidden_layers
        self.out_features = output_size
        self.use_bias = use_bias
        self.InitialNetworkParameters()

    def InitialNetworkParameters(self):
        layer_sizes = [self.in_features] + self.hidden_layers + [self.out_features]
        keys = random.split(random.PRNGKey(0), len(layer_sizes) - 1)
        self.nn_params = nnx.List([])
        self.total_num_weights = 0
        for i, (in_dim, out_dim) in enumerate(zip(layer_sizes[:-1], layer_sizes[1:])):
            init_weights = random.normal(keys[i], (in_dim, out_dim)) / jnp.sqrt(in_dim)
            init_biases = jnp.zeros(out_dim)
            self.total_num_weights += init_weights.size
            if self.use_bias:
                self.nn_params.append(nnx.data((nnx.Param(init_weights), nnx.Param(init_biases))))
            else:
                self.nn_params.append(nnx.data((nnx.Param(init_weights),
                                                 nnx.Variable(jnp.zeros_like(init_biases)))))

    def Forward(self, x, nn_params):
        for (w, b) in nn_params[:-1]:
            x = jnp.tanh(x @ w + b)
        final_w, final_b = nn_params[-1]
        return x @ final_w + final_b

    def __call__(self, x):
        return self.Forward(x, self.nn_params)


@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)
    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


if __name__ == "__main__":
    model = MLP("fol_mlp", 2, [16, 16], 1)
    optimizer = nnx.Optimizer(model, optax.adam(1e-2), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 1.0, 64).reshape(32, 2)
    y = jnp.sin(x.sum(axis=1, keepdims=True))
    for step in range(3):
        print(step, train_step(model, optimizer, x, y))
