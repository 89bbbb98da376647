# source: https://github.com/pyro-ppl/numpyro/pull/2162
# category: C
# expect: leaks
# via: wrapper, dict-of-arrays, jit-call, helper
# sink: in-place-update
"""Under `substitute`, a `mutable` site received the very dict passed in `data`; the model's module
updated that state dict in place while NUTS traced the potential, so the caller's state dict
ended up holding tracers (a tracer leak with NNX modules with mutable state)."""
import jax
import jax.numpy as jnp

_HANDLER_STACK = []


class substitute:
    def __init__(self, fn, data):
        self.fn, self.data = fn, data

    def __call__(self, *args, **kwargs):
        _HANDLER_STACK.append(self)
        try:
            return self.fn(*args, **kwargs)
        finally:
            _HANDLER_STACK.pop()

    def process_message(self, msg):
        value = self.data.get(msg["name"])
        if value is not None:
            msg["value"] = value


def _apply_stack(msg):
    for handler in reversed(_HANDLER_STACK):
        handler.process_message(msg)
    return msg


def mutable(name, init_value):
    msg = _apply_stack({"type": "mutable", "name": name, "value": None})
    return init_value if msg["value"] is None else msg["value"]


def param(name, init_value):
    msg = _apply_stack({"type": "param", "name": name, "value": None})
    return init_value if msg["value"] is None else msg["value"]


def model(x):
    w = param("w", jnp.ones(2))
    nn_state = mutable("nn_state", {"mean": jnp.zeros(2)})
    h = x * w
    nn_state.update(mean=0.9 * nn_state["mean"] + 0.1 * jnp.mean(h, axis=0))  # <-- bug
    return -jnp.sum((h - nn_state["mean"]) ** 2)


if __name__ == "__main__":
    x = jnp.arange(6.0).reshape(3, 2)
    state = {"nn_state": {"mean": jnp.zeros(2)}}
    potential_fn = jax.jit(lambda w: substitute(model, data={"w": w, **state})(x))
    print(potential_fn(jnp.array([0.5, -0.5])))
    print(potential_fn(jnp.array([1.0, 2.0])))
