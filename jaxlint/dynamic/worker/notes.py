"""How an unverified outcome is told: the note chosen among the attempts' notes, why arguments
had to be guessed, and counts in words.  Apart from the checks, since every kind of check
(and the checks kept beside the worker) words its notes the same way."""

from __future__ import annotations


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
