# source: https://github.com/PyAutoLabs/PyAutoFit/issues/1581
# category: A
# expect: ok
# via: vmap, method, class-attribute, helper
# sink: bool-ops
"""On the JAX path the model evaluates its assertions as a traced boolean with `xp.logical_and`
and the fitness folds it into the log likelihood with `xp.where`, so the vmapped fitness traces."""
import jax
import jax.numpy as jnp
import numpy as np


class FitException(Exception):
    pass


class Prior:
    def __init__(self, name):
        self.name = name

    def __lt__(self, other):
        return GreaterThanLessThanAssertion(self, other)


class GreaterThanLessThanAssertion:
    def __init__(self, lower, greater):
        self._left, self._right = lower, greater

    def instance_for_arguments(self, arguments, ignore_assertions=False, xp=np):
        return arguments[self._left] < arguments[self._right]


class Model:
    def __init__(self, priors):
        self.priors = priors
        self._assertions = []

    def add_assertion(self, assertion):
        self._assertions.append(assertion)

    def check_assertions(self, arguments):
        failed_assertions = [
            assertion
            for assertion in self._assertions
            if assertion is False or assertion is not True and not assertion.instance_for_arguments(arguments)
        ]
        if len(failed_assertions) > 0:
            raise FitException("assertion failed")

    def assertions_satisfied_from_vector(self, vector, xp=np):
        arguments = dict(zip(self.priors, vector))
        satisfied = xp.asarray(True)
        for assertion in self._assertions:
            satisfied = xp.logical_and(satisfied, assertion.instance_for_arguments(arguments, xp=xp))
        return satisfied

    def instance_from_vector(self, vector, ignore_assertions=False):
        arguments = dict(zip(self.priors, vector))
        if not ignore_assertions:
            self.check_assertions(arguments)
        return [arguments[p] for p in self.priors]


class Fitness:
    resample_figure_of_merit = -1e99

    def __init__(self, model, data, xp=jnp):
        self.model, self.data, self._xp = model, data, xp

    def call(self, parameters):
        xp = self._xp
        instance = self.model.instance_from_vector(parameters, ignore_assertions=True)
        satisfied = self.model.assertions_satisfied_from_vector(parameters, xp=xp)
        x = xp.linspace(0.0, 1.0, self.data.shape[0])
        model_data = sum(xp.exp(-0.5 * ((x - c) / 0.1) ** 2) for c in instance)
        log_likelihood = -0.5 * xp.sum((self.data - model_data) ** 2)
        return xp.where(satisfied, log_likelihood, self.resample_figure_of_merit)


if __name__ == "__main__":
    centre_0, centre_1 = Prior("centre_0"), Prior("centre_1")
    model = Model([centre_0, centre_1])
    model.add_assertion(centre_0 < centre_1)
    x = np.linspace(0.0, 1.0, 50)
    data = jnp.asarray(np.exp(-0.5 * ((x - 0.3) / 0.1) ** 2) + np.exp(-0.5 * ((x - 0.7) / 0.1) ** 2))
    fitness = Fitness(model, data)
    batched = jax.jit(jax.vmap(fitness.call))
    vectors = jnp.array([[0.3, 0.7], [0.7, 0.3], [0.2, 0.6]])
    print(batched(vectors))
