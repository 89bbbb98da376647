"""The engine's parse: LibCST's parse without its per-node re-validation, same trees, same errors."""

import glob
import os

import libcst as cst
import pytest

from jaxlint.engine.source import parse_module

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True))


@pytest.mark.slow  # parses every fixture twice
def test_fixture_trees_equal_libcst_parse():
    assert len(FIXTURES) > 50
    for path in FIXTURES:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        tree = parse_module(text)
        assert tree.deep_equals(cst.parse_module(text)), path
        assert tree.code == text


@pytest.mark.parametrize("text", ["def f(:\n", "x = (1,\n", "print 'a'\n", "\tif x:\n  pass\n"])
def test_syntax_errors_are_libcst_errors(text):
    with pytest.raises(cst.ParserSyntaxError) as ours:
        parse_module(text)
    with pytest.raises(cst.ParserSyntaxError) as theirs:
        cst.parse_module(text)
    assert str(ours.value) == str(theirs.value)


def test_nodes_built_after_a_parse_are_validated_again():
    parse_module("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        cst.SimpleWhitespace("not whitespace")
