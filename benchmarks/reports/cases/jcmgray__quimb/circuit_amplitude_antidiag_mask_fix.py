# source: https://github.com/jcmgray/quimb/issues/220
# category: A
# expect: ok
# via: method, helper, jit-call
# sink: boolean-mask
"""The jitted circuit amplitude is asked for with `simplify_sequence="R"`, which leaves out the
anti-diagonal search and its data-dependent boolean mask, so the function traces."""
import itertools

import jax
import jax.numpy as jnp


def infer_backend(x):
    return "jax" if isinstance(x, jax.Array) else "numpy"


def do(fn, *args, like=None, **kwargs):
    return getattr(jnp, fn)(*args, **kwargs)


def find_antidiag_axes(x, atol=1e-12):
    shape = x.shape
    if len(shape) < 2:
        return None
    backend = infer_backend(x)
    indxrs = do("indices", shape, like=backend)
    for i, j in itertools.combinations(range(len(shape)), 2):
        di, dj = shape[i], shape[j]
        if di != dj:
            continue
        if do("allclose", x[indxrs[i] != dj - 1 - indxrs[j]], 0.0,
              atol=atol, like=backend):
            return (i, j)
    return None


def ry(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]])


class Circuit:
    def __init__(self, N):
        self.N = N
        self.gates = []

    def apply_gate(self, name, theta, qubit):
        self.gates.append((name, theta, qubit))

    def _tensors(self, b):
        psi = [jnp.array([1.0, 0.0]) for _ in range(self.N)]
        for _, theta, q in self.gates:
            psi[q] = ry(theta) @ psi[q]
        return [jnp.outer(jnp.eye(2)[int(c)], p) for c, p in zip(b, psi)]

    def amplitude(self, b, simplify_sequence="ADCRS"):
        tensors = self._tensors(b)
        for method in simplify_sequence:
            if method == "A":
                for t in tensors:
                    find_antidiag_axes(t)
        return jnp.prod(jnp.stack([t.sum() for t in tensors]))


def amp(params, n=3):
    circ = Circuit(n)
    for q in range(n):
        circ.apply_gate("RY", params[q], q)
    return circ.amplitude("1" * n, simplify_sequence="R")


if __name__ == "__main__":
    params = jnp.linspace(0.1, 0.9, 3)
    print(jax.jit(amp)(params))
