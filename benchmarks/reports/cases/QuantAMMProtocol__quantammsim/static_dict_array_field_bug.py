# source: https://github.com/QuantAMMProtocol/quantammsim/commit/b6f84a26547a2e5dd283c0aa73f2a7beb09dd111
# category: B
# expect: raises
# via: partial-jit, static-argnums, helper, dict-of-arrays, jit-decorator
# sink: static-array
"""quantammsim builds the static `static_dict` of its jitted `forward_pass` by copying the run
fingerprint; the simulation endpoint's fingerprint carries `initial_weights_logits` as a JAX
array, which leaks into the `NestedHashabledict`, so hashing the static argument fails."""
from functools import partial

import jax
import jax.numpy as jnp
from jax import jit


class NestedHashabledict(dict):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, value in self.items():
            if isinstance(value, dict):
                self[key] = NestedHashabledict(value)

    def __key(self):
        def make_hashable(v):
            if isinstance(v, list):
                return tuple(make_hashable(x) for x in v)
            elif isinstance(v, dict):
                return tuple(sorted((k, make_hashable(val)) for k, val in v.items()))
            return v
        return tuple((k, make_hashable(v)) for k, v in sorted(self.items()))

    def __hash__(self):
        try:
            return hash(self.__key())
        except TypeError as e:
            for k, v in self.items():
                try:
                    hash((k, v))
                except TypeError:
                    print(f"Unhashable item found - Key: {k}, Value type: {type(v)}")
            raise e

    def __eq__(self, other):
        if not isinstance(other, dict):
            return False
        return self.__key() == NestedHashabledict(other).__key()


# Fields that are only used during training setup, not in forward passes
_TRAINING_ONLY_FIELDS = frozenset({
    "optimisation_settings",
    "startDateString",
    "endDateString",
    "freq",
})


def create_static_dict(run_fingerprint, bout_length, overrides=None):
    static = {k: v for k, v in run_fingerprint.items() if k not in _TRAINING_ONLY_FIELDS}
    if "tokens" in static:
        static["tokens"] = tuple(static["tokens"])
    static["bout_length"] = bout_length
    if "run_type" not in static:
        static["run_type"] = "normal"
    if overrides:
        static.update(overrides)
    return NestedHashabledict(static)


class BalancerPool:
    def calculate_reserves(self, params, prices, static_dict):
        weights = jax.nn.softmax(params["initial_weights_logits"])
        price_change_ratio = prices[1:] / prices[:-1]
        ratios = jnp.prod(price_change_ratio**weights, axis=-1, keepdims=True) / price_change_ratio
        initial_reserves = static_dict["initial_pool_value"] * weights / prices[0]
        cum = jnp.cumprod(ratios, axis=0)
        return jnp.concatenate([initial_reserves[None], initial_reserves * cum], axis=0)


@partial(jit, static_argnums=(3, 4))
def forward_pass(params, start_index, prices, pool=None, static_dict=None):
    bout_length = static_dict["bout_length"]
    n_assets = static_dict["n_assets"]
    local_prices = jax.lax.dynamic_slice(prices, (start_index, 0), (bout_length, n_assets))
    reserves = pool.calculate_reserves(params, local_prices, static_dict)
    if static_dict["return_val"] == "reserves":
        return reserves
    return (reserves * local_prices).sum(-1)


def run_pool_simulation(run_fingerprint, prices):
    params = {"initial_weights_logits": jnp.asarray(run_fingerprint["initial_weights_logits"])}
    static_dict = create_static_dict(run_fingerprint, bout_length=prices.shape[0] - 1)
    return forward_pass(params, 0, prices, pool=BalancerPool(), static_dict=static_dict)  # <-- bug


if __name__ == "__main__":
    t = jnp.arange(60, dtype=jnp.float32)
    prices = jnp.stack([2500.0 + 80.0 * jnp.sin(t / 6.0), jnp.ones_like(t)], axis=1)
    run_fingerprint = {
        "tokens": ["ETH", "USDC"],
        "n_assets": 2,
        "rule": "balancer",
        "initial_pool_value": 60000000.0,
        "fees": 0.0,
        "return_val": "value",
        "startDateString": "2023-01-01 00:00:00",
        "initial_weights_logits": jnp.array([-0.69314718, -0.69314718], dtype=jnp.float32),
    }
    values = run_pool_simulation(run_fingerprint, prices)
    print(values.shape, float(values[0]), float(values[-1]))
