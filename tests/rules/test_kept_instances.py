"""JAX307 on an instance whose bound method is jitted and kept in a dict on it, called through
the dict by another method.  The fixture fixtures/mutated_statics.py runs the attribute form
under JAX; the dynamic check does not follow a call through a dict entry, so this form is
checked here."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source

SOURCE = """
import jax
import jax.numpy as jnp


class Scorer:
    def __init__(self, target):
        self.fns = {"score": jax.jit(self._score)}
        self.target = target

    def _score(self, x):
        return jnp.sum(x - self.target)

    def predict(self, x):
        return self.fns[{key!r}](x)

    def retarget(self, target):
        self.target = target


scorer = Scorer(1.0)
first = scorer.predict(jnp.ones(2))
scorer.retarget(5.0)
second = scorer.predict(jnp.ones(2))
"""


def stale(key):
    src = textwrap.dedent(SOURCE.replace("{key!r}", repr(key)))
    return [f.line for f in lint_source(src, "m.py", rule_config()).findings if f.code == "JAX307"]


def test_jit_kept_in_a_dict_entry_and_called_by_a_method():
    assert stale("score") == [18]  # the write in retarget()


def test_another_entry_of_the_dict_is_not_the_jitted_function():
    assert stale("other") == []
