"""How an outcome is told.  Reading an exception the user's code raised: the lines of the
checked file it passed through, whether it is the error a rule predicts, and its one-line form
for a result's detail; ``Unverified``, raised with the reason when a check cannot reach what it
runs; and, for an unverified outcome, the note chosen among the attempts' notes, why arguments
had to be guessed, and counts in words (every kind of check words its notes the same way)."""

from __future__ import annotations

from jaxlint.rules.prevents import ErrorPattern


class Unverified(Exception):
    pass


def file_frames(exc, path):
    """Line numbers of the frames of ``path`` in the exception's traceback (and its causes)."""
    lines = []
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == path:
                lines.append(tb.tb_lineno)
            tb = tb.tb_next
        exc = exc.__cause__ or exc.__context__
    return lines


def short(exc):
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if ". " in msg:
        msg = msg.split(". ")[0] + "."
    if len(msg) > 160:
        msg = msg[:157] + "..."
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


def raised(exc, form="; it raised {}"):
    """``exc`` in a note's words ("" for none)."""
    return form.format(short(exc)) if exc is not None else ""


def expected_error(exc, patterns) -> bool:
    """One of the rule's errors (``ErrorPattern`` fields, as the plan carries them) is ``exc``."""
    names = [c.__name__ for c in type(exc).__mro__]
    return any(ErrorPattern(*p).matches(names, str(exc)) for p in patterns or ())


def matches(exc, check, path):
    """The exception, or the one a handler raised it from (``raise ValueError(...) from e``),
    is the expected one and was raised on the finding's lines."""
    for e in (exc, exc.__cause__, exc.__context__):
        if e is None or not expected_error(e, check.get("expect")):
            continue
        if any(check["line"] <= ln <= check["end_line"] for ln in file_frames(e, path)):
            return True
    return False


def guessed_note(driver):
    g = driver.get("guessed") or []
    if not g:
        return ""
    why = "; ".join(driver.get("capture_notes") or [])
    return f"could not build arguments for {', '.join(g)}" + (f" ({why})" if why else "")


def pick_note(notes, check):
    if not notes:
        return check.get("reason") or "no way to call the traced function"
    # the most specific note: an error raised on the line, else the first
    # (with the arguments guessed because the module's driver code did not reach the call:
    # why it did not, too)
    driver_note = next((n for n in notes if n.startswith("could not build arguments") and "did not call" in n), None)
    for n in notes:
        if n.startswith(f"line {check['line']} raised"):
            return f"{n}, with guessed arguments: {driver_note}" if driver_note else n
    return notes[0]


def times(n):
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"
