"""The calls a function makes on every run (jaxlint.analysis.model.every_run): the statements
no earlier statement can skip, loops over lists the code shows are not empty, and whether the
function returns the call's result."""

import textwrap

import libcst as cst

from jaxlint.analysis.model.call_targets import CallTargets
from jaxlint.analysis.model.every_run import calls_on_every_run, returns_result
from jaxlint.analysis.model.transforms import TransformFinder
from jaxlint.analysis.syntax.module_index import ModuleIndex

SOURCE = '''
class Stage:
    def __init__(self, step):
        self.step = step


class Pipeline:
    def __init__(self, step):
        self.stages = [Stage(step)]
        self.maybe = [Stage(s) for s in (step,)]

    def loop(self, x):
        for stage in self.stages:
            out = stage(x)
        return out

    def maybe_loop(self, x):
        for stage in self.maybe:
            out = stage(x)
        return out


def plain(x):
    """Docstring."""
    return step(x)


def assigned(x):
    y = step(x)
    log(y)
    return y


def side(x):
    step(x)
    return x


def guarded(x, flag):
    if flag:
        return x
    return step(x)


def conditional(x, flag):
    if flag:
        step(x)
    return x


def in_with(x):
    with scope():
        out = step(x)
    return out


def in_try(x):
    try:
        return step(x)
    except ValueError:
        return x


def literal_loop(x):
    for k in (1, 2):
        out = step(x)
    return out


def empty_loop(x):
    out = x
    for k in ():
        out = step(x)
    return out


def early(x, xs):
    for v in xs:
        if v:
            return x
    return step(x)
'''


def _every_run():
    module = cst.parse_module(textwrap.dedent(SOURCE))
    index = ModuleIndex(module)
    ct = CallTargets(index, TransformFinder(index))
    out = {}
    for f in index.functions:
        out[f.name] = [(module.code_for_node(c), returns_result(f, held)) for c, held in calls_on_every_run(f, ct)]
    return out


def test_calls_that_run_whenever_the_function_runs():
    calls = _every_run()
    assert calls["plain"] == [("step(x)", True)]
    assert calls["assigned"] == [("step(x)", True), ("log(y)", False)]
    assert calls["side"] == [("step(x)", False)]
    assert calls["in_with"] == [("step(x)", True)]
    assert calls["literal_loop"] == [("step(x)", True)]
    assert calls["loop"] == [("stage(x)", True)]


def test_calls_that_may_not_run_are_left_out():
    calls = _every_run()
    # an earlier return, a condition, a try, an empty or unknown collection, a loop that may return
    assert calls["guarded"] == []
    assert calls["conditional"] == []
    assert calls["in_try"] == []
    assert calls["empty_loop"] == []
    assert calls["maybe_loop"] == []
    assert calls["early"] == []
