"""Start-up keeps the code the dataclasses module compiles for the classes imported at start-up,
and runs it again in the next process: the classes it makes must be the classes compiling makes."""

import dataclasses
import sys

import pytest

from jaxlint.engine import collection


def _make_point():
    with collection._compiled_dataclasses():

        @dataclasses.dataclass(frozen=True, order=True)
        class Point:
            x: int
            y: int = 2

    return Point


def test_kept_code_is_run_instead_of_compiling_and_makes_the_same_class(tmp_path, monkeypatch):
    monkeypatch.setattr(collection, "_CODE_FILE", str(tmp_path / "__pycache__" / "dataclasses.marshal"))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    compiled = _make_point()
    kept = (tmp_path / "__pycache__" / "dataclasses.marshal").read_bytes()

    def no_compiling(*args, **kwargs):
        raise AssertionError("the kept code should have been run")

    monkeypatch.setattr(collection, "compile", no_compiling, raising=False)
    from_kept = _make_point()
    assert (tmp_path / "__pycache__" / "dataclasses.marshal").read_bytes() == kept  # nothing new to keep
    assert "exec" not in vars(dataclasses)  # the dataclasses module is as it was
    for Point in (compiled, from_kept):
        assert Point(1) == Point(1, 2) and hash(Point(1)) == hash(Point(1, 2))
        assert Point(1, 1) < Point(1, 2)
        assert repr(Point(1)).endswith("Point(x=1, y=2)")
        with pytest.raises(dataclasses.FrozenInstanceError):
            Point(1).x = 3


def test_nothing_is_kept_when_python_writes_no_bytecode(tmp_path, monkeypatch):
    monkeypatch.setattr(collection, "_CODE_FILE", str(tmp_path / "__pycache__" / "dataclasses.marshal"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    Point = _make_point()
    assert Point(1) == Point(1, 2)
    assert not (tmp_path / "__pycache__").exists()
