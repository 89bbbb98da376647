# source: https://github.com/markusschmitt/vmc_jax/commit/2b9ae00350458b907323bbb460850010776e60e5
# category: B
# expect: raises
# via: flax-linen, pmap, static-argnums, method, lax-scan
# sink: static-unhashable
"""jVMC's TwoNets wrapper kept its amplitude and phase networks in a list field; NQS passes the
wrapped network to pmap as a static broadcasted argument, and a Flax module holding a list cannot
be hashed, so the first evaluation of the wave function fails."""
from functools import partial
from typing import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp

pmap_for_my_devices = partial(jax.pmap, devices=jax.devices())


class RBM(nn.Module):
    numHidden: int = 2
    bias: bool = False

    @nn.compact
    def __call__(self, s):
        layer = nn.Dense(self.numHidden, use_bias=self.bias)
        return jnp.sum(jnp.log(jnp.cosh(layer(2 * s.ravel() - 1))))


class TwoNets(nn.Module):
    net: Sequence[callable]

    def __call__(self, s):
        return self.net[0](s) + 1j * self.net[1](s)


class NQS:
    def __init__(self, net, batchSize=4, seed=1234):
        self.net = net
        self.batchSize = batchSize
        self.seed = seed
        self.parameters = None
        self._eval_net_pmapd = pmap_for_my_devices(self._eval, in_axes=(None, None, 0, None), static_broadcasted_argnums=(0, 3))

    def init_net(self, s):
        if self.parameters is None:
            self.parameters = self.net.init(jax.random.PRNGKey(self.seed), s[0, 0, ...])

    def __call__(self, s):
        self.init_net(s)
        return self._eval_net_pmapd(self.net, self.parameters, s, self.batchSize)  # <-- bug

    def _eval(self, net, params, s, batchSize):
        sb = s.reshape((-1, batchSize) + s.shape[1:])

        def scan_fun(c, x):
            return c, jax.vmap(lambda y: net.apply(params, y), in_axes=(0,))(x)

        res = jax.lax.scan(scan_fun, None, sb)[1]
        return res.reshape((-1,))


if __name__ == "__main__":
    L = 4
    model = TwoNets([RBM(numHidden=2), RBM(numHidden=3)])
    psi = NQS(model)
    configs = jnp.array([[[0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 1, 0]]] * jax.local_device_count())
    out = psi(configs)
    print(out.real, out.imag)
