"""jaxlint.engine.positions gives exactly LibCST's PositionProvider ranges, for every node."""

from __future__ import annotations

import glob
import os

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.engine.positions import node_positions

from clirun import ROOT

ODD = [
    "x = 1",  # no trailing newline
    "",
    "\n\n# only a comment\n",
    "import jax\r\nif x:\r\n    y = (1,\r\n         2)\r\n",  # CRLF
    "if x:\n\tpass\nelse:\n\tpass\n",
    "@d1\n@d2(a)\nclass C(B):\n    @property\n    def f(self) -> int: return 1  # c\n",
    "s = f'{x!r:>{w}} {y}' 'tail' \\\n    'more'\nt = '''a\nb'''\n",
    "async def f():\n    async with a as b, c:\n        await b\n    return [i async for i in g()]\n",
    "match p:\n    case [1, *r] if r:\n        pass\n    case {'k': v, **kw}:\n        pass\n",
    "lambda: (yield)\nx = a if b else c\ndel a[1:2, ::3], b.c\n",
]


def all_nodes(module):
    out = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node):
            out.append(node)
            return True

    module.visit(Collect())
    return out


def sources():
    for i, text in enumerate(ODD):
        yield f"odd{i}", text
    paths = sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.py")))
    paths += sorted(glob.glob(os.path.join(ROOT, "jaxlint", "analysis", "**", "*.py"), recursive=True))
    for p in paths:
        with open(p, encoding="utf-8", newline="") as fh:
            yield os.path.relpath(p, ROOT), fh.read()


# The odd sources are the rule-work loop's check; every fixture and analysis module is the slow
# sweep.
@pytest.mark.parametrize(
    "name,text",
    [pytest.param(n, t, marks=() if n.startswith("odd") else pytest.mark.slow) for n, t in sources()],
    ids=lambda v: v if isinstance(v, str) and len(v) < 60 and "\n" not in v else "",
)
def test_every_node_has_position_providers_range(name, text):
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    got = node_positions(module)
    nodes = all_nodes(module)
    assert nodes
    for node in nodes:
        assert got.get(node) == expected[node], (type(node).__name__, module.code_for_node(node)[:60])


def test_unknown_node_has_no_position():
    module = cst.parse_module("x = 1\n")
    assert node_positions(module).get(cst.Name("elsewhere")) is None
