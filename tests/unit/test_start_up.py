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


def _import_fresh(name):
    for key in [k for k in sys.modules if k == "kept_pkg" or k.startswith("kept_pkg.")]:
        del sys.modules[key]
    with collection._kept_modules():
        __import__(name)
    return sys.modules[name]


def test_kept_modules_are_imported_from_the_kept_file_until_their_source_changes(tmp_path, monkeypatch):
    kept_file = tmp_path / "__pycache__" / "modules.marshal"
    monkeypatch.setattr(collection, "_MODULES_FILE", str(kept_file))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    src = tmp_path / "src"
    (src / "kept_pkg" / "sub").mkdir(parents=True)
    (src / "kept_pkg" / "__init__.py").write_text("")
    (src / "kept_pkg" / "sub" / "__init__.py").write_text("from kept_pkg.sub import leaf\n")
    leaf = src / "kept_pkg" / "sub" / "leaf.py"
    leaf.write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(src))
    try:
        first = _import_fresh("kept_pkg.sub.leaf")
        assert first.VALUE == 1 and type(first.__loader__) is not collection._KeptLoader
        assert kept_file.exists()
        again = _import_fresh("kept_pkg.sub.leaf")
        assert type(again.__loader__) is collection._KeptLoader and again.VALUE == 1
        assert again.__file__ == str(leaf) and sys.modules["kept_pkg.sub"].__path__ == [str(leaf.parent)]
        leaf.write_text("VALUE = 22\n")  # another size: the source changed
        changed = _import_fresh("kept_pkg.sub.leaf")
        assert changed.VALUE == 22 and type(changed.__loader__) is not collection._KeptLoader
        (src / "kept_pkg" / "sub" / "leaf").mkdir()  # the folder changed: a package could shadow the module
        assert type(_import_fresh("kept_pkg.sub.leaf").__loader__) is not collection._KeptLoader
    finally:
        for key in [k for k in sys.modules if k == "kept_pkg" or k.startswith("kept_pkg.")]:
            del sys.modules[key]


def test_no_module_is_kept_when_python_writes_no_bytecode(tmp_path, monkeypatch):
    monkeypatch.setattr(collection, "_MODULES_FILE", str(tmp_path / "__pycache__" / "modules.marshal"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    with collection._kept_modules():
        import json.tool  # noqa: F401
    assert not (tmp_path / "__pycache__").exists()
