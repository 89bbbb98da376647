"""What a rule is: metadata, docs, examples, and the events it listens to."""

from __future__ import annotations

import re
import textwrap
from typing import ClassVar, List

from jaxlint.rules.measured import describe
from jaxlint.rules.prevents import Prevents, nothing


_LITERAL_RE = re.compile(r"``(.+?)``", re.DOTALL)


class _Placeholders(dict):
    def __missing__(self, key):
        return f"<{key}>"


class Rule:
    """Base class.  Subclasses set the class attributes and implement ``on_<event>`` handlers
    (called by the traced-value interpreter) and/or ``check_module`` (called once per file).

    The docstring is the rule's documentation, under the headings *What it does*, *Why is this
    bad?*, *Example*, *Use instead* (and *References*).  ``bad`` and ``good`` are complete
    example modules: in ``bad`` every line that must be flagged ends with ``# error: CODE``;
    ``good`` must be silent.  The test suite runs them all.
    """

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    message: ClassVar[str] = ""  # str.format template; {where} names the traced function
    fix: ClassVar[str] = ""
    # The JAX error (or trace-time misbehaviour) the rule prevents; the dynamic mode and the
    # oracle test check findings and fixtures against it (jaxlint/rules/prevents.py).
    prevents: ClassVar[Prevents] = nothing("")
    bad: ClassVar[List[str]] = []
    good: ClassVar[List[str]] = []
    default_enabled: ClassVar[bool] = True
    # "stable", or "preview": runs only with --preview (or ``preview = true``), like Ruff's.
    status: ClassVar[str] = "stable"
    # "safe" or "unsafe" when the rule offers fixes (jaxlint.fixes): a fix is passed to
    # ``report(..., autofix=Fix(...))``, or an exact ``suggestion=`` text becomes one.
    fix_safety: ClassVar[str] = ""
    # True for a finding about the file as a whole (it does not parse; the analysis failed on
    # it): no line's ``# noqa`` comment answers it, so none is offered (--add-noqa, the editor).
    whole_file: ClassVar[bool] = False

    @classmethod
    def docs(cls) -> str:
        return textwrap.dedent(cls.__doc__ or "").strip()

    @classmethod
    def summary(cls) -> str:
        """The first sentence of the *What it does* paragraph."""
        lines = []
        for line in cls.docs().splitlines():
            line = line.strip()
            if line.lower().startswith("what it does"):
                continue
            if not line:
                if lines:
                    break
                continue
            lines.append(line)
        text = " ".join(lines)
        end = text.find(". ")
        return (text[: end + 1] if end >= 0 else text) or cls.name

    @classmethod
    def plain_summary(cls) -> str:
        """The summary as plain text, for a terminal: reST inline literals lose their markup."""
        return _LITERAL_RE.sub(r"\1", cls.summary())

    @classmethod
    def generic_fix(cls) -> str:
        """The fix advice with its placeholders spelled as <var>, for docs."""
        return cls.fix.format_map(_Placeholders())

    @classmethod
    def plain_docs(cls) -> str:
        """The docs as plain text: reST inline literals (````x````) lose their markup."""
        return _LITERAL_RE.sub(r"\1", cls.docs())

    @classmethod
    def explain(cls) -> str:
        parts = [f"{cls.code} ({cls.name})", "", cls.plain_docs(), "", f"Prevents: {cls.prevents.description}", f"Fix: {cls.generic_fix()}"]
        if describe(cls.code):
            parts.append(describe(cls.code))
        if cls.status == "preview":
            parts.append("Status: preview; it runs only with --preview (or preview = true).")
        for title, examples in (("Flagged", cls.bad), ("Not flagged", cls.good)):
            for ex in examples:
                parts += ["", f"{title}:", textwrap.indent(textwrap.dedent(ex).strip("\n"), "    ")]
        return "\n".join(parts).rstrip() + "\n"
