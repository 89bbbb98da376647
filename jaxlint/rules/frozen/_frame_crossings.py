"""JAX303's findings for writes to a library's frame from inside a plain JAX trace
(jaxlint/analysis/facts/frame_crossings.py): the same rule, in words of its own."""

from __future__ import annotations

import copy

import libcst as cst

from jaxlint.analysis import facts
from jaxlint.analysis.jax.library_frames import FRAME_NAMES, LIFTED

MESSAGE = "{what} in {frame} from inside `{transform}`: a tracer of that trace stays there and leaks (UnexpectedTracerError)"
FIX = "{advice}"

_WHAT = {
    "rng": "`{call}` advances the rng key sequence",
    "state": "`{call}` stores state",
    "param": "`{call}` creates parameters",
}


def _uses_a_frame_library(m) -> bool:
    text = m.text
    return "haiku" in text or "flax" in text


def _advice(library: str, transform: str, kind: str) -> str:
    short = transform.rsplit(".", 1)[-1]
    lifted = LIFTED[library].get(short)
    if lifted is not None:
        return f"use {lifted} instead of {short}: it carries {FRAME_NAMES[library]} through the trace"
    if kind == "param":
        return "create the parameters before the trace (call the module once outside it), or transform the module on its own and pass its parameters in"
    return "draw the keys and read the state outside the trace and pass them in as arguments (and return new state from it)"


def report_frame_crossings(rule, m) -> None:
    """Report each crossing of ``m`` as ``rule`` (JAX303) with the wording of a frame write."""
    if not _uses_a_frame_library(m):
        return
    crossings = facts.frame_crossings.FrameCrossings(m.index, m.finder).crossings()
    if not crossings:
        return
    worded = copy.copy(rule)
    worded.message = MESSAGE
    worded.fix = FIX
    code = cst.Module([]).code_for_node
    for c in crossings:
        call = code(c.writer)
        call = (call if len(call) <= 40 else call[:37] + "...") + ("()" if isinstance(c.node, cst.Call) else " = ...")
        transform = c.transform.replace("jax.experimental.ode.", "")
        m.report(
            worded,
            c.node,
            what=_WHAT[c.kind].format(call=call),
            frame=FRAME_NAMES[c.library],
            transform=transform,
            advice=_advice(c.library, c.transform, c.kind),
        )
