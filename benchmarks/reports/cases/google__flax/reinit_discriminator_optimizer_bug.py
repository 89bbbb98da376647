# source: https://github.com/google/flax/issues/5548
# category: R
# expect: recompiles
# via: flax-nnx, optax, jit-decorator, host-loop
# sink: fresh-callable
"""A GAN-style loop rebuilds its discriminator and its nnx.Optimizer at the start of every epoch,
with a fresh optax.adam(...) each time; the optax transformation is static in the optimizer's
graphdef and compares by identity, so the nnx.jit'd epoch function compiles again every epoch."""
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
    for epoch in range(3):
        dis = Discriminator(rngs=rngs)
        dis_opt = nnx.Optimizer(dis, optax.adam(1e-3), wrt=nnx.Param)
        loss = train_one_epoch(dis, dis_opt, batch)  # <-- bug
        print(epoch, float(loss))
