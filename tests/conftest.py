import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

os.environ.setdefault("JAX_PLATFORMS", "cpu")


def pytest_cmdline_main(config):
    """The whole suite (no paths, ``-m`` or ``-k`` given) runs in two worker processes when
    pytest-xdist is installed: on two cores it takes about half the time.  A selection runs in
    this process, where starting workers (each one collects every test module, importing JAX)
    costs more than it saves.  ``-n`` on the command line decides for itself."""
    import pytest

    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return None
    option = config.option
    whole_suite = config.args_source == pytest.Config.ArgsSource.TESTPATHS and not option.markexpr and not option.keyword
    if whole_suite and option.numprocesses is None and not option.collectonly and not option.usepdb:
        option.numprocesses = 2
        option.dist = "load"
        option.tx = ["popen"] * 2
    return None
