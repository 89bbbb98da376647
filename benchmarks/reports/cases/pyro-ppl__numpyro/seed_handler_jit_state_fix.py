# source: https://github.com/pyro-ppl/numpyro/pull/1983
# category: C
# expect: ok
# via: jit-call, method, class-attribute, numpyro
# sink: attribute-write
"""The `seed` handler is stateless by default: calling a seeded function runs a fresh, stateful
copy of the handler, so the key split while a jitted model is traced stays on that copy and the
handler the user holds keeps its concrete key."""
import jax
from jax import jit, random

_HANDLER_STACK = []


class Messenger:
    def __init__(self, fn=None):
        self.fn = fn

    def __enter__(self):
        _HANDLER_STACK.append(self)
        return self

    def __exit__(self, *exc):
        _HANDLER_STACK.pop()

    def __call__(self, *args, **kwargs):
        with self:
            return self.fn(*args, **kwargs)


class seed(Messenger):
    stateful = False

    def __init__(self, fn=None, rng_seed=None):
        self.rng_key = rng_seed
        super().__init__(fn)

    def process_message(self, msg):
        if msg["type"] == "sample" and msg["kwargs"]["rng_key"] is None:
            self.rng_key, rng_key_sample = random.split(self.rng_key)
            msg["kwargs"]["rng_key"] = rng_key_sample

    def __call__(self, *args, **kwargs):
        if self.fn is not None and not self.stateful:
            cloned_seeded_fn = seed(self.fn, rng_seed=self.rng_key)
            cloned_seeded_fn.stateful = True
            return cloned_seeded_fn.__call__(*args, **kwargs)
        return super().__call__(*args, **kwargs)


def sample(name, loc, scale):
    msg = {"type": "sample", "name": name, "kwargs": {"rng_key": None}}
    for handler in reversed(_HANDLER_STACK):
        handler.process_message(msg)
    return loc + scale * random.normal(msg["kwargs"]["rng_key"])


def model():
    z = sample("z", 0.0, 1.0)
    return sample("x", z, 0.5)


if __name__ == "__main__":
    seeded = seed(model, rng_seed=random.PRNGKey(1))
    jitted = jit(seeded)
    print(jitted())
    print(jitted())
