"""Which lines of the checked file run: ``sys.settrace`` hooks over the span of a finding that
count its runs, see whether it was left without an exception, and watch a variable or an
attribute before and after it; and whether a frame on the stack is running it now."""

from __future__ import annotations

import sys


class SpanTracer:
    """A ``sys.settrace`` hook over the frames of one file, watching the lines ``first``..``last``
    (one span of the finding); subclasses say what they record in ``_local`` and ``_reset``."""

    def __init__(self, path, first, last):
        self.path = path
        self.first = first
        self.last = last

    def _global(self, frame, event, arg):
        if frame.f_code.co_filename != self.path:
            return None
        return self._local

    def _local(self, frame, event, arg):
        raise NotImplementedError

    def _reset(self):
        """Forget the per-frame state once tracing stops."""

    def __enter__(self):
        self._old = sys.gettrace()
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._old)
        self._reset()
        return False


class LineTracker(SpanTracer):
    """Lines of one file that run, and whether a target span was left without an exception."""

    def __init__(self, path, first, last):
        super().__init__(path, first, last)
        self.hits = 0  # times a line of the span ran
        self.passed = 0  # times execution left the span without an exception
        self._last = {}
        self._exc = {}

    def _in(self, line):
        return line is not None and self.first <= line <= self.last

    def _local(self, frame, event, arg):
        if event == "line":
            line = frame.f_lineno
            prev = self._last.get(frame)
            if self._in(line):
                if not self._in(prev):
                    self.hits += 1
            elif self._in(prev) and not self._exc.get(frame):
                self.passed += 1
            self._last[frame] = line
            self._exc[frame] = False
        elif event == "exception":
            self._exc[frame] = True
        elif event == "return":
            if self._in(self._last.get(frame)) and not self._exc.get(frame):
                self.passed += 1
            self._last.pop(frame, None)
            self._exc.pop(frame, None)
        return self._local

    def _reset(self):
        self._last.clear()
        self._exc.clear()


class Watch(SpanTracer):
    """Watches ``var`` around each run of the statement on lines ``first``..``last``: whether it
    is the same object after the statement as before it (a statement that raised is left out)."""

    def __init__(self, path, first, last, var):
        super().__init__(path, first, last)
        self.parts = var.split(".")
        self.runs = []  # (before, after) of each completed run
        self._open = {}  # frame -> value before the statement

    def _enter(self, frame):
        self._open[frame] = dotted_value(frame, self.parts)

    def _close(self, frame):
        if frame in self._open:
            before = self._open.pop(frame)
            self.runs.append((before, dotted_value(frame, self.parts)))

    def _local(self, frame, event, arg):
        inside = frame in self._open
        if event == "line":
            here = self.first <= frame.f_lineno <= self.last
            if inside and not here:
                self._close(frame)
            elif here and not inside:
                self._enter(frame)
        elif event == "exception":
            self._open.pop(frame, None)
        elif event == "return":
            self._close(frame)
        return self._local

    def _reset(self):
        self._open.clear()


class ChangeWatch(Watch):
    """The objects whose attribute the lines change: ``attribute`` (``self.gain``) read in the
    frame that runs them; ``values``, its (before, after) for each run that left the lines
    without an exception, ``passed`` their number."""

    def __init__(self, path, first, last, attribute):
        super().__init__(path, first, last, attribute)
        self.objects = []  # (the root object, the object that owns the changed attribute)

    @property
    def values(self):
        return self.runs

    @property
    def passed(self):
        return len(self.runs)

    def _enter(self, frame):
        root = frame.f_locals.get(self.parts[0])
        owner = dotted_value(frame, self.parts[:-1])
        if root is not None:
            self.objects.append((root, owner))
        super()._enter(frame)


def dotted_value(frame, parts):
    """The value of the local ``parts[0]`` of ``frame`` followed by the attributes ``parts[1:]``
    (None for one that is missing)."""
    if parts[0] not in frame.f_locals:
        return None
    obj = frame.f_locals[parts[0]]
    for attr in parts[1:]:
        obj = getattr(obj, attr, None)
    return obj


def running_lines(path, first, last):
    """Whether a frame of ``path`` on the stack is running lines ``first``..``last``."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename == path and first <= frame.f_lineno <= last:
            return True
        frame = frame.f_back
    return False


def changed_values(watch) -> str:
    """The first change of a plain value the watch saw, as `` (before -> after)``; else empty."""
    for before, after in watch.values:
        if isinstance(before, (int, float, str, bool)) and isinstance(after, (int, float, str, bool)) and before != after:
            return f" ({before!r} -> {after!r})"
    return ""
