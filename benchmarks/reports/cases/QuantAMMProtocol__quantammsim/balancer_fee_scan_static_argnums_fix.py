# source: https://github.com/QuantAMMProtocol/quantammsim/commit/15b5cfabf8d98ef3d11615c5ddb4822af596a89f
# category: B
# expect: ok
# via: partial-jit, static-argnums, lax-scan, helper, jit-decorator
# sink: static-spec
"""quantammsim after the fix: `static_argnums=(5,)` names the asset count `n`, and `gamma`
is traced like the other fee parameters."""
from functools import partial

import jax.numpy as jnp
from jax import jit
from jax.lax import scan
from jax.tree_util import Partial


def optimal_trade_with_fees(prev_reserves, weights, prices, gamma, n):
    """Per-asset arbitrage trade towards the no-arbitrage band (fees shrink the trade)."""
    value = (prev_reserves * prices).sum()
    trades = []
    for i in range(n):
        target = value * weights[i] / prices[i]
        trades.append(gamma * (target - prev_reserves[i]))
    return jnp.stack(trades)


@partial(jit, static_argnums=(5,))
def _jax_calc_balancer_reserves_with_fees_scan_function_using_precalcs(
    carry_list,
    prices,
    weights,
    tokens_to_drop,
    active_trade_directions,
    n,
    gamma=0.997,
    arb_thresh=0.0,
    arb_fees=0.0,
):
    prev_reserves = carry_list[1]
    counter = carry_list[2]
    fees_are_being_charged = gamma != 1.0

    current_value = (prev_reserves * prices).sum()
    quoted_prices = current_value * weights / prev_reserves
    price_change_ratio = prices / quoted_prices
    price_product_change_ratio = jnp.prod(price_change_ratio**weights)
    reserves_ratios_from_price_change = price_product_change_ratio / price_change_ratio
    optimal_arb_trade_zero_fees = prev_reserves * reserves_ratios_from_price_change - prev_reserves
    optimal_arb_trade_fees = optimal_trade_with_fees(prev_reserves, weights, prices, gamma, n) * active_trade_directions

    optimal_arb_trade = jnp.where(fees_are_being_charged, optimal_arb_trade_fees, optimal_arb_trade_zero_fees)
    post_price_reserves = prev_reserves + optimal_arb_trade
    profit_to_arb = -(optimal_arb_trade * prices).sum() - arb_thresh
    arb_external_rebalance_cost = 0.5 * arb_fees * (jnp.abs(optimal_arb_trade) * prices).sum()
    reserves = jnp.where(profit_to_arb >= arb_external_rebalance_cost, post_price_reserves, prev_reserves)
    counter += 1
    return [prices, reserves, counter], reserves


@jit
def _jax_calc_balancer_reserves_with_fees_using_precalcs(initial_reserves, weights, prices, fees=0.003, arb_thresh=0.0, arb_fees=0.0):
    n_assets = weights.shape[0]
    gamma = 1.0 - fees
    scan_fn = Partial(
        _jax_calc_balancer_reserves_with_fees_scan_function_using_precalcs,
        weights=weights,
        gamma=gamma,
        arb_thresh=arb_thresh,
        arb_fees=arb_fees,
        n=n_assets,
        tokens_to_drop=jnp.zeros(n_assets, dtype=bool),
        active_trade_directions=jnp.ones(n_assets, dtype=prices.dtype),
    )
    carry_list_init = [prices[0], initial_reserves, 0]
    _, reserves = scan(scan_fn, carry_list_init, prices)
    return reserves


if __name__ == "__main__":
    t = jnp.arange(50, dtype=jnp.float32)
    prices = jnp.stack([2000.0 + 50.0 * jnp.sin(t / 5.0), 30000.0 + 400.0 * jnp.cos(t / 7.0)], axis=1)
    weights = jnp.array([0.5, 0.5], dtype=jnp.float32)
    initial_reserves = 1e6 * weights / prices[0]
    reserves = _jax_calc_balancer_reserves_with_fees_using_precalcs(
        initial_reserves, weights, prices, jnp.float32(0.003), jnp.float32(0.0), jnp.float32(0.0)
    )
    print(reserves.shape, float((reserves[-1] * prices[-1]).sum()))
