# source: https://github.com/lenstronomy/JAXtronomy/commit/aadd592126d7f97d6db1f8234b140dea634d43ff
# category: B
# expect: ok
# via: partial-jit, static-argnums, method, helper
# sink: static-array
"""`LinearBasis.update_linear(self, param, i, kwargs_list)` was jitted with `i`, the running
offset into the linear-amplitude vector, marked static; the image fit calls it for the source
and then for the lens light, passing on the `i` the first call returned, which comes back from
jit as an array (a tracer under the outer jit), and a tracer cannot be a static argument.  The
fix keeps `i` traced and reads the amplitudes with `.at[i].get()` and `lax.dynamic_slice`."""
from functools import partial

from jax import jit, lax, numpy as jnp


class LinearBasis:
    def __init__(self, profile_type_list):
        self.profile_type_list = profile_type_list

    @partial(jit, static_argnums=(0,))
    def update_linear(self, param, i, kwargs_list):
        for k, model in enumerate(self.profile_type_list):
            if model in ["SERSIC", "SERSIC_ELLIPSE", "GAUSSIAN"]:
                kwargs_list[k]["amp"] = param.at[i].get()
                i += 1
            elif model in ["MULTI_GAUSSIAN"]:
                num_param = len(kwargs_list[k]["sigma"])
                kwargs_list[k]["amp"] = lax.dynamic_slice(param, [i], (num_param,))
                i += num_param
            else:
                raise ValueError("model type %s not valid!" % model)
        return kwargs_list, i


class ImageLinearFit:
    def __init__(self, source_model_list, lens_light_model_list):
        self.SourceModel = LinearBasis(source_model_list)
        self.LensLightModel = LinearBasis(lens_light_model_list)

    @partial(jit, static_argnums=(0,))
    def update_linear_kwargs(self, param, kwargs_lens, kwargs_source, kwargs_lens_light, kwargs_ps):
        i = 0
        kwargs_source, i = self.SourceModel.update_linear(param, i, kwargs_list=kwargs_source)
        kwargs_lens_light, i = self.LensLightModel.update_linear(param, i, kwargs_list=kwargs_lens_light)
        return kwargs_lens, kwargs_source, kwargs_lens_light, kwargs_ps


if __name__ == "__main__":
    fit = ImageLinearFit(["SERSIC_ELLIPSE"], ["SERSIC", "MULTI_GAUSSIAN"])
    param = jnp.array([3.0, 1.5, 0.2, 0.4, 0.6])
    kwargs_source = [{"R_sersic": 0.3, "n_sersic": 2.0}]
    kwargs_lens_light = [{"R_sersic": 1.0, "n_sersic": 4.0}, {"sigma": [0.1, 0.5, 1.0]}]
    out = fit.update_linear_kwargs(param, [{"theta_E": 1.0}], kwargs_source, kwargs_lens_light, [])
    print(out[1][0]["amp"], out[2][0]["amp"], out[2][1]["amp"])
