# source: https://github.com/TonyZhou729/ABCMB/issues/17
# category: R
# expect: recompiles
# via: equinox, method, dict-of-arrays, jit-decorator, host-loop
# sink: changing-static
"""`add_derived_parameters` wraps the cosmological parameters in `jnp.array`, but the BBN
parameters `tau_n_fac`, `nuclear_rates_q` and `Delta_Neff_init` stay the Python floats the user
passed.  Inside the params dict they reach `eqx.filter_jit` as static values, so scanning a BBN
parameter compiles the background again for every value.  The fix wraps them as well."""
import equinox as eqx
import jax.numpy as jnp


class Model(eqx.Module):
    specs: dict

    def __init__(self, **kwargs):
        self.specs = {"bbn_type": kwargs.get("bbn_type", "linx")}

    def __call__(self, params={}):
        full_params = self.add_derived_parameters(params)
        return self.get_BG(full_params)  # <-- bug

    @eqx.filter_jit
    def get_BG(self, params):
        Neff = 3.044 + params["Delta_Neff_init"]
        YHe = 0.245 + 0.01 * (params["tau_n_fac"] - 1.0) + 0.001 * params["nuclear_rates_q"][0]
        rho_r = 1.0 + 0.2271 * Neff
        H0 = params["h"] * 100.0
        return H0 * jnp.sqrt(params["omega_b"] / params["h"] ** 2 + rho_r * 1e-5), YHe

    def add_derived_parameters(self, param_in):
        params = param_in.copy()
        params["h"] = jnp.array(params.get("h", 0.6736))
        params["omega_b"] = jnp.array(params.get("omega_b", 0.02237))
        params["omega_cdm"] = jnp.array(params.get("omega_cdm", 0.120))
        # BBN parameters, only converted when handed to LINX
        params["tau_n_fac"] = params.get("tau_n_fac", 1.0)
        params["nuclear_rates_q"] = params.get("nuclear_rates_q", [0.0, 0.0])
        params["Delta_Neff_init"] = params.get("Delta_Neff_init", 0.0)
        return params


if __name__ == "__main__":
    model = Model(bbn_type="linx")
    for tau_n_fac in (0.99, 1.0, 1.01):
        H, YHe = model({"h": 0.67, "tau_n_fac": tau_n_fac})
        print(tau_n_fac, float(H), float(YHe))
