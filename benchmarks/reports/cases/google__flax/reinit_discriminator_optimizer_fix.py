# source: https://github.com/google/flax/issues/5548
# category: R
# expect: ok
# via: flax-nnx, optax, jit-decorator, host-loop
# sink: fresh-callable
"""The discriminator and its nnx.Optimizer are still rebuilt every epoch, but around one optax
transformation made before the loop, so the graphdefs match and the epoch function compiles once."""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Discriminator(nnx.Module):
    def __init__(self, rngs):
        self.hidden = nnx.Linear(4, 8, rngs=rngs)
        self.out = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


@nnx.jit
def train_one_epoch(dis, dis_opt, batch):
    def loss_fn(dis):
        return jnp.mean(dis(batch) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(dis)
    dis_opt.update(dis, grads)
    return loss


if __name__ == "__main__":
    rngs = nnx.Rngs(0)
    batch = jnp.ones((16, 4))
    tx = optax.adam(1e-3)
    for epoch in range(3):
        dis = Discriminator(rngs=rngs)
        dis_opt = nnx.Optimizer(dis, tx, wrt=nnx.Param)
        loss = train_one_epoch(dis, dis_opt, batch)
        print(epoch, float(loss))
