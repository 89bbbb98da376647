"""Host-mode values reaching a static parameter (JAX202): the interpreter of eager code, and the
paths the fixture files cannot show (a ``__main__`` block is never run by the oracle)."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source

HEADER = """\
from functools import partial
import dataclasses
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def tile(x, reps):
    return jnp.tile(x, reps)
"""


def findings(body):
    text = HEADER + textwrap.dedent(body)
    return [(f.line, f.column, f.code) for f in lint_source(text, "example.py", rule_config()).findings if f.code == "JAX202"]


def line_of(body, marker):
    text = HEADER + textwrap.dedent(body)
    return next(i for i, line in enumerate(text.splitlines(), 1) if marker in line)


def test_main_block_reassignment():
    body = """
    if __name__ == "__main__":
        reps = 2
        tile(jnp.ones(3), reps)
        reps = jnp.array([1, 2])
        tile(jnp.ones(3), reps)  # here
    """
    assert findings(body) == [(line_of(body, "# here"), 23, "JAX202")]


def test_branches_that_disagree_are_unknown():
    body = """
    def main(flag):
        reps = 2
        if flag:
            reps = [1, 2]
        tile(jnp.ones(3), reps)
    """
    assert findings(body) == []


def test_branches_that_agree():
    body = """
    def main(flag):
        if flag:
            reps = [1, 2]
        else:
            reps = [3]
        tile(jnp.ones(3), reps)  # here
    """
    assert findings(body) == [(line_of(body, "# here"), 23, "JAX202")]


def test_a_path_that_returns_is_left_out():
    body = """
    def main(flag):
        reps = [1, 2]
        if flag:
            reps = 2
        else:
            return None
        return tile(jnp.ones(3), reps)
    """
    assert findings(body) == []


def test_loop_rebinding_reaches_the_next_iteration():
    body = """
    def main():
        reps = 2
        for _ in range(3):
            tile(jnp.ones(3), reps)
            reps = [1, 2]
    """
    # the first iteration passes an int, the next a list: not surely unhashable
    assert findings(body) == []


def test_lambda_reads_the_latest_binding():
    body = """
    reps = [1, 2]
    run = lambda: tile(jnp.ones(3), reps)
    reps = 2
    """
    assert findings(body) == []


def test_comprehension_variable_shadows_the_scope():
    body = """
    def main():
        r = [1, 2]
        return [tile(jnp.ones(3), r) for r in (1, 2)]
    """
    assert findings(body) == []


def test_global_read_from_a_function():
    body = """
    SIZES = [1, 2]


    def main():
        return tile(jnp.ones(3), SIZES)  # here
    """
    assert findings(body) == [(line_of(body, "# here"), 30, "JAX202")]


def test_wrapper_of_a_wrapper():
    body = """
    def inner(x, reps):
        return tile(x, reps)  # here


    def outer(x, reps):
        return inner(x, reps)


    outer(jnp.ones(3), [1, 2])
    """
    assert findings(body) == [(line_of(body, "# here"), 20, "JAX202")]


def test_wrapper_that_rebinds_its_parameter_is_not_followed():
    body = """
    def wrap(x, reps):
        reps = tuple(reps)
        return tile(x, reps)


    wrap(jnp.ones(3), [1, 2])
    """
    assert findings(body) == []


def test_method_wrapper_called_on_an_instance():
    body = """
    class Runner:
        def run(self, x, reps):
            return tile(x, reps)  # here


    Runner().run(jnp.ones(3), [1, 2])
    """
    assert findings(body) == [(line_of(body, "# here"), 24, "JAX202")]


def test_custom_hash_and_plain_classes_hash():
    body = """
    class Spec:
        def __eq__(self, other):
            return True

        def __hash__(self):
            return 0


    class Plain:
        pass


    @dataclasses.dataclass(eq=False)
    class NoEq:
        n: int = 1


    tile(jnp.ones(3), Spec())
    tile(jnp.ones(3), Plain())
    tile(jnp.ones(3), NoEq())
    """
    assert findings(body) == []


def test_unhashable_classes():
    body = """
    @dataclasses.dataclass
    class Spec:
        n: int = 1


    class Child(Spec):
        pass


    @dataclasses.dataclass(unsafe_hash=True)
    class Holder:
        items: list = dataclasses.field(default_factory=list)


    tile(jnp.ones(3), Spec())  # one
    tile(jnp.ones(3), Child())  # two
    tile(jnp.ones(3), Holder())  # three
    """
    assert findings(body) == [
        (line_of(body, "# one"), 19, "JAX202"),
        (line_of(body, "# two"), 19, "JAX202"),
        (line_of(body, "# three"), 19, "JAX202"),
    ]


def test_class_with_a_base_from_elsewhere_is_not_known():
    body = """
    import collections


    class Spec(collections.UserDict):
        pass


    tile(jnp.ones(3), Spec())
    """
    assert findings(body) == []


def test_result_of_a_jitted_function():
    body = """
    @jax.jit
    def init(x):
        return x * 2


    def main():
        reps = init(jnp.ones(2))
        return tile(jnp.ones(3), reps)  # here
    """
    assert findings(body) == [(line_of(body, "# here"), 30, "JAX202")]


def test_message_names_the_parameter_function_and_origin():
    text = HEADER + textwrap.dedent(
        """
        def wrap(x, reps):
            return tile(x, reps)


        sizes = [1, 2]
        wrap(jnp.ones(3), sizes)
        """
    )
    (f,) = [f for f in lint_source(text, "example.py", rule_config()).findings if f.code == "JAX202"]
    built = text.splitlines().index("sizes = [1, 2]") + 1
    assert f.message == f"A list (built at line {built}) is passed for static parameter `reps` of tile() through wrap()"
    assert f.facts.parameter == "reps" and f.facts.value_kind == "list" and f.facts.entry == "tile"
    assert f.related and f.related[0]["line"] == built


def test_lambda_without_rebinding():
    body = """
    reps = [1, 2]
    run = lambda: tile(jnp.ones(3), reps)  # here
    """
    assert findings(body) == [(line_of(body, "# here"), 33, "JAX202")]


def test_comprehension_reads_the_scope_for_other_names():
    body = """
    def main():
        r = [1, 2]
        return [tile(jnp.ones(3), r) for _ in (1, 2)]  # here
    """
    assert findings(body) == [(line_of(body, "# here"), 31, "JAX202")]


def test_name_rebound_by_an_inner_function_is_not_known():
    body = """
    def main():
        reps = [1, 2]

        def fix():
            nonlocal reps
            reps = (1, 2)

        fix()
        return tile(jnp.ones(3), reps)
    """
    assert findings(body) == []


def test_wrapper_that_looks_at_its_parameter_is_not_followed():
    body = """
    def wrap(x, reps):
        if isinstance(reps, list):
            return tile(x, tuple(reps))
        return tile(x, reps)


    wrap(jnp.ones(3), [1, 2])
    """
    assert findings(body) == []


def test_a_static_spec_through_a_name_bound_once_and_not_one_changed_in_place():
    body = """
    ONCE = (1,)
    GROWN = [0]
    GROWN.append(1)


    def scale(x, k):
        return x * k[0]


    by_name = jax.jit(scale, static_argnums=ONCE)
    by_grown = jax.jit(scale, static_argnums=GROWN)


    def run(x):
        by_name(x, [2.0])  # known static
        by_grown(x, [2.0])  # unknown: GROWN is changed in place
    """
    assert findings(body) == [(line_of(body, "known static"), 16, "JAX202")]


def test_an_array_in_static_metadata_points_at_the_declaration_and_every_write():
    text = textwrap.dedent(
        """\
        import equinox as eqx
        import jax
        import jax.numpy as jnp


        class Model(eqx.Module):
            w: jax.Array
            table: tuple = eqx.field(static=True)

            def __init__(self, n, table=None):
                self.w = jnp.ones(n)
                self.table = table


        small = Model(3, jnp.arange(3))
        large = Model(2, jnp.zeros(2))
        """
    )
    (f,) = [f for f in lint_source(text, "example.py", rule_config()).findings if f.code == "JAX206"]
    assert f.line == 15
    assert [(r["line"], r["message"]) for r in f.related] == [
        (8, "`table` is declared static metadata here"),
        (16, "an array is passed for `table` here"),
    ]


def test_container_returned_by_a_function_of_the_module():
    # a list, dict or set a function builds and returns is one whatever it holds; a tuple of
    # them is unpacked item by item; an instance or a parameter handed back is not followed
    body = """
    def make_reps(n):
        reps = [n, n]
        return reps, n

    def passthrough(r):
        return r

    def main():
        reps, n = make_reps(2)
        tile(jnp.ones(3), reps)  # here
        tile(jnp.ones(3), n)
        tile(jnp.ones(3), passthrough((2, 2)))
    """
    assert findings(body) == [(line_of(body, "# here"), 23, "JAX202")]


def test_subclass_of_dict_without_hash():
    body = """
    class Options(dict):
        pass

    class HashedOptions(dict):
        def __hash__(self):
            return hash(tuple(sorted(self.items())))

    def main():
        tile(jnp.ones(3), Options(a=1))  # here
        tile(jnp.ones(3), HashedOptions(a=1))
    """
    assert findings(body) == [(line_of(body, "# here"), 23, "JAX202")]


def test_dataclass_constructor_parameters():
    """The generated ``__init__`` takes no argument for an ``init=False`` field, fills a
    keyword-only field only by keyword, and takes an ``InitVar`` that is no field: what each
    positional argument lands on (checked with jax: the first and third calls raise the
    non-hashable error, the second compiles)."""
    body = """
    @dataclasses.dataclass(frozen=True)
    class KwCfg:
        flag: bool = dataclasses.field(default=False, kw_only=True)
        reps: tuple = (1,)


    @dataclasses.dataclass(frozen=True)
    class SeedCfg:
        seed: dataclasses.InitVar[list]
        reps: tuple = (1,)


    @dataclasses.dataclass(frozen=True)
    class LaterCfg:
        cache: list = dataclasses.field(default=None, init=False, compare=False)
        reps: tuple = (1,)


    def run(x):
        a = tile(x, KwCfg([1, 2]))  # kw
        b = tile(x, SeedCfg([1, 2], (2,)))
        c = tile(x, LaterCfg([2]))  # later
        return a, b, c
    """
    text = HEADER + textwrap.dedent(body)
    found = [(f.line, f.message) for f in lint_source(text, "example.py", rule_config()).findings if f.code == "JAX202"]
    assert [line for line, _ in found] == [line_of(body, "# kw"), line_of(body, "# later")]
    assert all("whose field `reps` holds a list" in message for _, message in found)


def test_partial_of_a_partial_jit_keeps_both_bindings():
    """``partial(partial(jax.jit, static_argnums=(1,)), donate_argnums=(0,))`` jits with both
    keywords (checked with jax: the list raises the non-hashable error)."""
    text = textwrap.dedent(
        """\
        from functools import partial
        import jax
        import jax.numpy as jnp


        @partial(partial(jax.jit, static_argnums=(1,)), donate_argnums=(0,))
        def tile(x, reps):
            return jnp.tile(x, reps)


        def run():
            return tile(jnp.ones(2), [1, 2])
        """
    )
    assert [(f.line, f.code) for f in lint_source(text, "example.py", rule_config()).findings] == [(12, "JAX202")]


def test_a_dict_handed_to_code_that_may_change_it_is_no_longer_known():
    # ``normalize`` replaces the list with a tuple: what the display held is not what the jitted
    # call receives, so neither is reported
    body = """
    def normalize(cfg):
        cfg["reps"] = tuple(cfg["reps"])

    def main():
        cfg = {"reps": [1, 2]}
        normalize(cfg)
        tile(jnp.ones(3), cfg["reps"])

    def main_through_an_alias():
        cfg = {"reps": [1, 2]}
        alias = cfg
        alias["reps"] = (1, 2)
        tile(jnp.ones(3), cfg["reps"])
    """
    assert findings(body) == []


def test_a_dict_handed_to_a_jitted_function_keeps_its_items():
    # a jitted function works on a flattened copy of its arguments: the dict is as it was
    body = """
    @jax.jit
    def total(cfg):
        return cfg["scale"] * 2.0

    def main():
        cfg = {"reps": [1, 2], "scale": 1.0}
        total(cfg)
        tile(jnp.ones(3), cfg["reps"])  # here
    """
    assert findings(body) == [(line_of(body, "# here"), 23, "JAX202")]
