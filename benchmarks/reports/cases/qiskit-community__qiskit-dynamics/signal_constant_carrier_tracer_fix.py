# source: https://github.com/qiskit-community/qiskit-dynamics/pull/247
# category: A
# expect: ok
# via: method, jit-decorator
# sink: python-if
"""Qiskit Dynamics' Signal constructor wraps its Python test `carrier_freq == 0.0` in a try block, so
a Signal built inside a jitted function with a traced carrier frequency is simply not marked
constant."""
import jax
import jax.numpy as jnp


class Signal:
    def __init__(self, envelope, carrier_freq=0.0, phase=0.0):
        self._is_constant = False
        self.carrier_freq = carrier_freq
        self.phase = phase
        if isinstance(envelope, jax.Array):
            # if envelope is constant and the carrier is zero, this is a constant signal
            try:
                # try block is for catching JAX tracer errors
                if carrier_freq == 0.0:
                    self._is_constant = True
            except Exception:
                pass
            self._envelope = lambda t: envelope * jnp.ones_like(t)
        else:
            self._envelope = envelope

    def __call__(self, t):
        if self._is_constant:
            return self._envelope(t)
        return self._envelope(t) * jnp.cos(2 * jnp.pi * self.carrier_freq * t + self.phase)


@jax.jit
def signal_sum(freq):
    sig = Signal(jnp.array(0.5), carrier_freq=freq)
    return jnp.sum(sig(jnp.linspace(0.0, 1.0, 11)))


if __name__ == "__main__":
    print(signal_sum(5.0))
