import compileall
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

os.environ.setdefault("JAX_PLATFORMS", "cpu")
# The oracle and the other tests that run JAX observe errors, retraces and stale values, which
# XLA's optimisation passes do not change; without them a compilation takes a third less time
# (the dynamic mode's worker and the differential test's worker make the same choice).
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "true")


def pytest_configure(config):
    """Byte-compile jaxlint once, before any test starts a process.  Under
    ``PYTHONDONTWRITEBYTECODE`` (set on CI machines) no interpreter writes what it compiles, so
    every child the suite starts (the command line, flake8, the dynamic mode's workers, pool
    workers) would compile the whole package from source again; it still reads compiled files
    that exist.  compileall rewrites only what changed, and ``__pycache__`` is ignored by git."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(os.path.join(ROOT, "jaxlint"), quiet=1)


def pytest_cmdline_main(config):
    """The whole suite (no paths, ``-m`` or ``-k`` given) runs in two worker processes when
    pytest-xdist is installed: on two cores it takes about half the time.  A selection runs in
    this process, where starting workers (each one collects every test module, importing JAX)
    costs more than it saves.  ``-n`` on the command line decides for itself.  The workers share
    the tests by work stealing (see ``pytest_collection_modifyitems``)."""
    import pytest

    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("xdist"):
        return None
    option = config.option
    whole_suite = config.args_source == pytest.Config.ArgsSource.TESTPATHS and not option.markexpr and not option.keyword
    if whole_suite and option.numprocesses is None and not option.collectonly and not option.usepdb:
        option.numprocesses = 2
        option.dist = "worksteal"
        option.tx = ["popen"] * 2
    return None


def pytest_collection_modifyitems(config, items):
    """In worker processes, the slow tests (each one seconds to minutes) go first and the many
    fast ones after them.  A worker that runs out of tests takes half of what the other has not
    started, from the end of its list: the fast tests are what is left to share when the run
    nears its end, instead of a test of a minute started last on one worker while the other
    waits.  Within each group the order stays the collection's (a module's fixtures are set up
    once per worker)."""
    if config.getoption("numprocesses", None) or hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
