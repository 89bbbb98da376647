import compileall
import os
import shutil
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

os.environ.setdefault("JAX_PLATFORMS", "cpu")
# The oracle and the other tests that run JAX observe errors, retraces and stale values, which
# XLA's optimisation passes do not change; without them a compilation takes a third less time
# (the dynamic mode's worker and the differential test's worker make the same choice).
os.environ.setdefault("JAX_DISABLE_MOST_OPTIMIZATIONS", "true")
# Two test workers share two cores: each process computes on one thread (XLA's and OpenBLAS's
# thread pools would otherwise take both cores each, and OpenBLAS's spin while they wait).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")


def pytest_configure(config):
    """Byte-compile jaxlint once, before any test starts a process.  Under
    ``PYTHONDONTWRITEBYTECODE`` (set on CI machines) no interpreter writes what it compiles, so
    every child the suite starts (the command line, flake8, the dynamic mode's workers, pool
    workers) would compile the whole package from source again; it still reads compiled files
    that exist.  compileall rewrites only what changed, and ``__pycache__`` is ignored by git."""
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(os.path.join(ROOT, "jaxlint"), quiet=1)
        _share_xla_compilations(config)


def _share_xla_compilations(config):
    """One XLA compilation cache for the run, shared by every process it starts (through the
    environment).  The oracle clears JAX's caches before each case, so that each case traces
    afresh, and the dynamic mode's checks do the same before counting; the same programs are
    also compiled again by the dynamic mode's workers, the differential test and the command
    line.  JAX still traces every time and still reports every compilation (its
    backend-compile event wraps the cache lookup); only XLA's work on a program it has already
    compiled is skipped.  The folder is removed when the run ends."""
    if "JAX_COMPILATION_CACHE_DIR" in os.environ:
        return
    folder = tempfile.mkdtemp(prefix="jaxlint-tests-xla-")
    config._jaxlint_xla_cache = folder
    os.environ["JAX_COMPILATION_CACHE_DIR"] = folder
    os.environ["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
    os.environ["JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES"] = "0"


def pytest_unconfigure(config):
    folder = getattr(config, "_jaxlint_xla_cache", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


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
