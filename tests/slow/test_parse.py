"""The engine's parse: LibCST's parse without its per-node re-validation, and a large module a piece
at a time; the same trees and the same errors as LibCST's parse of the whole."""

import ast
import glob
import itertools
import os

import libcst as cst
import pytest

from jaxlint.engine.piecewise_parse import PIECE, find_cuts, parse_module, parse_pieces, parse_piecewise

from clirun import ROOT
FIXTURES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.py"), recursive=True))


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


# -- a large module parsed a piece at a time -----------------------------------------------------

PACKAGE = sorted(glob.glob(os.path.join(ROOT, "jaxlint", "**", "*.py"), recursive=True))


def _cut_everywhere(text):
    """The module parsed with a cut before every top-level statement that may start a piece, or
    None when it would be parsed whole."""
    cuts = find_cuts(text, 1)
    return parse_pieces(text, cuts) if cuts else None


@pytest.mark.slow  # parses every fixture three times and every module of the package twice
def test_fixture_and_package_trees_equal_libcst_parse_whole_and_in_pieces():
    assert len(FIXTURES) > 50 and len(PACKAGE) > 50
    joined = 0
    for path in FIXTURES + PACKAGE:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        reference = cst.parse_module(text)
        if path in FIXTURES:
            assert reference.code == text, path
            assert parse_module(text).deep_equals(reference), path
        tree = _cut_everywhere(text)
        if tree is not None:
            joined += 1
            assert tree.deep_equals(reference), path
    # nearly every file is cut (the rest have one statement, or blocks indented two ways)
    assert joined >= 0.9 * len(FIXTURES + PACKAGE), joined


JOINS = {
    "trivia between statements": (
        "# head\n\nimport os\nX = 1\n\n\ndef f(x):\n    return x\n    # the block's own\n\n  # odd\n# next's\n"
        "@dec\n# between decorators\n@dec2\nclass A:\n    pass\n   \n\t\ny = 2; z = 3\nif y:\n    pass\nelse:\n    pass\n"
        "try:\n    pass\nexcept E:\n    pass\nfinally:\n    pass\n# tail\n\n"
    ),
    "two-space blocks after a piece with none": "import os\nX = [\n    1,\n]\ndef f():\n  if X:\n    return 1\nclass A:\n  y = 1\n",
    "a first piece with a block": "if a: pass\nelse:\n\tb\nx = 1\ndef f():\n\treturn 1\n",
    "strings and brackets across lines": 's = """\nx = 1\n"""\nt = (\n1)\nu = 1 + \\\n 2\nv = 3\n',
    "no newline at the end": "x = 1\ny = 2",
    "windows newlines": "x = 1\r\n\r\ndef f():\r\n    pass\r\ny = 2\r\n",
    "match": "match x:\n    case 1:\n        pass\ny = 1\n",
}


@pytest.mark.parametrize("name", sorted(JOINS))
def test_pieces_join_into_the_whole_modules_tree_in_every_shape(name):
    text = JOINS[name]
    tree = _cut_everywhere(text)
    whole = cst.parse_module(text)
    if not _ast_parses(text):  # ``match`` before Python 3.10: not cut, parsed whole
        assert tree is None and parse_piecewise(text, 1).deep_equals(whole)
        return
    assert tree is not None
    assert tree.deep_equals(whole)
    # ``deep_equals`` takes a list for a tuple: the sequences are the parser's kind too
    assert [type(s.leading_lines) for s in tree.body] == [type(s.leading_lines) for s in whole.body]
    assert type(tree.body) is type(whole.body)
    assert tree.code == text


PREVIOUS = [
    "x = 1\n",
    "def f():\n    x  # t\n",
    "def f():\n    if a:\n        x\n",
    "class A:\n    def f(self):\n        x\n",
    "if a:\n    x\nelse:\n    y\n",
    "try:\n    x\nexcept E:\n    y\n",
    "if a: x\n",
    "def f():\n    s = \'\'\'\n\'\'\'\n",
]
BETWEEN = ["\n", "  \n", "\t\n", "\f\n", "# c\n", " # c\n", "  # c\n", "    # c\n", "        # c\n", "\f# c\n"]
NEXT = ["y = 2\n", "@d\ndef g():\n    pass\n"]


@pytest.mark.slow  # 1,776 small modules
def test_whatever_lies_between_two_statements_the_tree_is_the_whole_modules():
    cut = 0
    for previous in PREVIOUS:
        for n in range(3):
            for between in itertools.product(BETWEEN, repeat=n):
                for after in NEXT:
                    text = previous + "".join(between) + after
                    cut += bool(find_cuts(text, 1))
                    assert parse_piecewise(text, 1).deep_equals(cst.parse_module(text)), text
    assert cut == len(PREVIOUS) * len(NEXT) * (1 + 2 + 2 * 2), cut  # cut only after empty lines and column-0 comments


@pytest.mark.parametrize(
    "text",
    [
        "def f():\n    return 1\ndef g():\n  return 2\n",  # the second piece's first block is indented otherwise
        "x = 1\r\ny = 2\n",  # newlines of two kinds
    ],
)
def test_pieces_that_do_not_agree_are_parsed_whole(text):
    assert find_cuts(text, 1)
    assert _cut_everywhere(text) is None
    assert parse_piecewise(text, 1).deep_equals(cst.parse_module(text))


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\ny = 2\rz = 3\n",  # a lone carriage return
        "x = 1\ny = (\n",  # a syntax error
        "x = 1\n # c\n\t\ny = 2\n",  # lines that start with whitespace (LibCST drops them at the end of a file)
        "def f():\n    x\n    # f's own\ny = 2\n",  # a comment the block above owns
    ],
)
def test_what_cannot_be_cut_plainly_is_not_cut(text):
    assert not find_cuts(text, 1)


@pytest.mark.parametrize("text", ["x = 1\nmatch x:\n    case 1:\n        pass\n", "x = 1\ntype T = int\ny = 2\n"])
def test_a_module_is_cut_exactly_when_this_pythons_ast_parses_it(text):
    # Syntax newer than this Python (``match`` before 3.10, ``type`` before 3.12) is parsed whole.
    assert bool(find_cuts(text, 1)) == _ast_parses(text)
    assert parse_piecewise(text, 1).deep_equals(cst.parse_module(text))


def _ast_parses(text):
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def test_a_piece_that_libcst_rejects_raises_the_whole_modules_error():
    text = "x = 1\n" * 50 + "print 'a'\n" + "y = 2\n" * 50
    with pytest.raises(cst.ParserSyntaxError) as ours:
        parse_piecewise(text, 64)
    with pytest.raises(cst.ParserSyntaxError) as theirs:
        cst.parse_module(text)
    assert str(ours.value) == str(theirs.value)


def test_a_large_module_is_parsed_a_piece_at_a_time(monkeypatch):
    func = "def f{i}(x):\n    y = x + {i}\n    return y * 2\n\n\n"
    text = "".join(func.format(i=i) for i in range(3000))  # 165 kB
    sizes = []
    real = cst.parse_module
    monkeypatch.setattr(cst, "parse_module", lambda t: sizes.append(len(t)) or real(t))
    tree = parse_module(text)
    assert len(sizes) >= 2 and sum(sizes) == len(text)
    assert min(sizes[:-1]) >= PIECE and max(sizes) < PIECE + PIECE // 2 + len(func)
    monkeypatch.undo()
    assert tree.deep_equals(cst.parse_module(text))
