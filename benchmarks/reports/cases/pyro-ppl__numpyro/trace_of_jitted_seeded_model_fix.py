# source: https://github.com/pyro-ppl/numpyro/blob/0b935d488056ae1775b4ab05cbe2812f51f21a4f/test/test_handlers.py#L345
# category: C
# expect: ok
# via: jit-call, numpyro, wrapper
# sink: leaked-tracer
"""The `trace` handler runs inside the jitted function and only the recorded values are returned,
so the sites' values leave the jit as outputs instead of as tracers kept in a trace dictionary."""
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


@jit
def traced_values(key):
    trace = handlers.trace(handlers.seed(model_nested_plates, key)).get_trace()
    return {name: site["value"] for name, site in trace.items()}


if __name__ == "__main__":
    jit_values = traced_values(random.key(1))
    for name, value in sorted(jit_values.items()):
        print(name, value.shape)
