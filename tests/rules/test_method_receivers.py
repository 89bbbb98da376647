"""A method handed to a transform is read only when the receiver's class is known; otherwise
the analysis says nothing about it (unknown, never traced)."""

import textwrap

from fixture_units import rule_config
from jaxlint.engine.pipeline import lint_source

GATE = """
import jax
import jax.numpy as jnp


class Hard:
    def level(self):
        return 1.0

    def apply(self, x):
        if self.level() > 0:
            return x
        return -x


class Soft(Hard):
    def level(self):
        return jnp.tanh(1.0)
"""


# the line of ``if self.level() > 0:``, where a traced ``level()`` fails
IF_LINE = GATE.splitlines().index("        if self.level() > 0:") + 1


def _codes(body: str):
    text = GATE + textwrap.dedent(body)
    return sorted((f.line, f.code) for f in lint_source(text, config=rule_config()).findings)


def test_a_receiver_built_from_the_subclass_reaches_its_override():
    assert _codes(
        """
        gate = Soft()
        fast = jax.jit(gate.apply)
        """
    ) == [(IF_LINE, "JAX101")]


def test_receivers_the_module_does_not_pin_down_are_not_read():
    # Two classes on two paths, a parameter without annotation, a loop variable, a value
    # returned by a function: the method could be either, or anything.
    assert _codes(
        """
        def pick(flag):
            gate = Hard() if flag else Soft()
            return gate

        def choose(flag):
            if flag:
                gate = Hard()
            else:
                gate = Soft()
            return jax.jit(gate.apply)

        def given(gate):
            return jax.jit(gate.apply)

        def looped(gates):
            for gate in gates:
                jax.jit(gate.apply)

        def returned(flag):
            return jax.jit(pick(flag).apply)
        """
    ) == []


def test_an_attribute_written_with_two_classes_is_unknown():
    assert _codes(
        """
        class Owner:
            def __init__(self, soft):
                self.gate = Hard()
                if soft:
                    self.gate = Soft()
                self.fast = jax.jit(self.gate.apply)
        """
    ) == []


def test_an_attribute_set_in_init_names_its_class():
    assert _codes(
        """
        class Owner:
            def __init__(self):
                self.gate = Soft()

            def compile(self):
                return jax.jit(self.gate.apply)
        """
    ) == [(IF_LINE, "JAX101")]


def test_an_attribute_set_from_an_annotated_parameter_names_its_class():
    assert _codes(
        """
        class Owner:
            def __init__(self, gate: Soft):
                self.gate = gate
                self.fast = jax.jit(self.gate.apply)
        """
    ) == [(IF_LINE, "JAX101")]
    assert _codes(
        """
        class Owner:
            def __init__(self, gate):
                self.gate = gate
                self.fast = jax.jit(self.gate.apply)
        """
    ) == []


def test_a_parallel_assignment_binds_each_receiver():
    assert _codes(
        """
        hard, gate = Hard(), Soft()
        fast = jax.jit(gate.apply)
        """
    ) == [(IF_LINE, "JAX101")]


def test_swapped_receivers_are_either_class():
    # each name holds one class before the swap and the other after it: either, so unknown
    assert _codes(
        """
        gate, other = Hard(), Soft()
        gate, other = other, gate
        fast = jax.jit(gate.apply)
        slow = jax.jit(other.apply)
        """
    ) == []
