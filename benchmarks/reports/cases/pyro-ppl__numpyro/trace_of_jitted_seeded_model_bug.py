# source: https://github.com/pyro-ppl/numpyro/blob/0b935d488056ae1775b4ab05cbe2812f51f21a4f/test/test_handlers.py#L345
# category: C
# expect: leaks
# via: jit-call, numpyro, wrapper
# sink: leaked-tracer
"""A `trace` handler is wrapped around a jitted, seeded model with nested plates; the handler
records each sample site's message while the model is being traced, so the trace kept outside
the jit holds the tracers of that trace (the test has to switch the leak checker off)."""
from jax import jit, random
import numpyro
import numpyro.distributions as dist
from numpyro import handlers


def model_nested_plates():
    with numpyro.plate("outer", 10):
        x = numpyro.sample("y", dist.Normal(0.0, 1.0))
        with numpyro.plate("inner", 5):
            numpyro.sample("x", dist.Normal(0.0, 1.0))
        numpyro.deterministic("z", x**2)


if __name__ == "__main__":
    jit_trace = handlers.trace(jit(handlers.seed(model_nested_plates, random.key(1)))).get_trace()  # <-- bug
    for name, site in sorted(jit_trace.items()):
        print(name, site["value"].shape)
