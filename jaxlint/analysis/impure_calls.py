"""Python calls whose result differs from call to call (random numbers, clocks): under a trace
they run once, and the compiled function replays the value they returned."""

from __future__ import annotations

RANDOM_PREFIXES = ("random.", "numpy.random.")
# Seeding and generator construction: not a draw.
RANDOM_SETUP = frozenset(
    {
        "random.seed",
        "random.Random",
        "random.getstate",
        "random.setstate",
        "numpy.random.seed",
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "numpy.random.SeedSequence",
        "numpy.random.PCG64",
        "numpy.random.get_state",
        "numpy.random.set_state",
    }
)
CLOCKS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
        "uuid.uuid4",
        "os.urandom",
    }
)
