# source: https://github.com/sokrypton/ColabFold/commit/d47a537bac8171056078354ab085b357ee6f3ed8
# category: R
# expect: ok
# via: haiku, method, jit-call, helper, host-loop, dict-of-arrays
# sink: changing-shape
"""To compile AlphaFold once, ColabFold shares model_3's runner across models 3, 4, 5, 1 and 2
and swaps each model's parameters in before predicting; models 1 and 2 ship extra template
parameters, so their parameter trees differ from the compiled one and the jitted `apply` is
traced and compiled again.  The commit keeps only the parameters the compiled model uses.
(AlphaFold is not installed: the model and its parameter files are reduced here.)"""
import haiku as hk
import jax
import jax.numpy as jnp


def make_forward(use_templates):
    def _forward(batch):
        h = hk.Linear(8, name="evoformer")(batch["msa_feat"])
        if use_templates:
            h = h + hk.Linear(8, name="template_embedding")(batch["template_feat"])
        return {"plddt": jax.nn.sigmoid(hk.Linear(1, name="plddt_head")(h))[:, 0] * 100}
    return _forward


def get_model_haiku_params(model_name, batch):
    use_templates = model_name in ("model_1", "model_2")
    seed = int(model_name[-1])
    return hk.transform(make_forward(use_templates)).init(jax.random.PRNGKey(seed), batch)


class RunModel:
    def __init__(self, config, params):
        self.params = params
        transformed = hk.transform(make_forward(config["use_templates"]))

        def apply(params, rng, batch):
            return transformed.apply(params, rng, batch)

        self.apply = jax.jit(apply)

    def predict(self, feat, random_seed=0):
        return self.apply(self.params, jax.random.PRNGKey(random_seed), feat)


def load_models_and_params(batch, use_templates=False):
    models_need_compilation = [1, 3] if use_templates else [3]
    model_runner_and_params = []
    model_runner = None
    for model_number in [3, 4, 5, 1, 2]:
        if model_number in models_need_compilation:
            config = {"use_templates": use_templates}
            model_runner = RunModel(config, get_model_haiku_params(f"model_{model_number}", batch))
        model_name = f"model_{model_number}"
        params = get_model_haiku_params(model_name, batch)
        # keep only parameters of compiled model
        params_subset = {}
        for k in model_runner.params.keys():
            params_subset[k] = params[k]
        model_runner_and_params.append((model_name, model_runner, params_subset))
    return model_runner_and_params


def predict_structure(input_features, model_runner_and_params):
    for model_name, model_runner, params in model_runner_and_params:
        model_runner.params = params
        prediction_result = model_runner.predict(input_features)
        print(model_name, float(jnp.mean(prediction_result["plddt"])))


if __name__ == "__main__":
    batch = {"msa_feat": jnp.ones((12, 5)), "template_feat": jnp.ones((12, 3))}
    predict_structure(batch, load_models_and_params(batch))
