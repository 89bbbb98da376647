# source: https://github.com/pyro-ppl/numpyro/pull/1983
# category: C
# expect: leaks
# via: jit-call, method, class-attribute, numpyro
# sink: attribute-write
"""NumPyro's `seed` handler split its key and stored the new key on itself at every sample site;
jitting a seeded model (`jit(handlers.seed(model, key))`) stored a tracer on the handler, so the
handler kept a leaked key after the trace (the tracer-leak tests flagged it)."""
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
    def __init__(self, fn=None, rng_seed=None):
        self.rng_key = rng_seed
        super().__init__(fn)

    def process_message(self, msg):
        if msg["type"] == "sample" and msg["kwargs"]["rng_key"] is None:
            self.rng_key, rng_key_sample = random.split(self.rng_key)  # <-- bug
            msg["kwargs"]["rng_key"] = rng_key_sample


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
