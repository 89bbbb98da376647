"""What JAX601 and JAX602 share: find the table's names in a module and report one status."""

from __future__ import annotations

from jaxlint import fixes
from jaxlint.analysis.jax.jax_api_migrations import fix_safety, status
from jaxlint.versions import format_version, parse_version

# The rules' tier: each finding says its own (safe only when the replacement is the same
# object), and this is the tier where it would not.
FIX_SAFETY = "unsafe"


def report_status(rule, m, wanted: str) -> None:
    for ref in m.api_references:
        mig = ref.migration
        if mig is None or status(mig, m.target_jax) != wanted:
            continue
        safety = fix_safety(mig, m.min_jax)
        advice = _advice(mig, m.min_jax, ref.replacement_text)
        removed = mig.removed_version
        fields = {
            "name": ref.written,
            "deprecated": _short(mig.deprecated),
            "removed": _short(mig.removed),
            "removal": f" and removed in JAX {_short(mig.removed)}" if removed is not None else "",
            "advice": advice,
            "context": {
                "old_api": mig.old,
                "replacement": mig.new,
                "deprecated_in": mig.deprecated,
                "removed_in": mig.removed,
                "replacement_since": mig.since,
                "fix_safety": safety,
            },
        }
        if safety is not None and ref.replacement_text is not None and not ref.is_import:
            fix = rename_fix(m, ref, safety)
            if fix is not None:
                fields["suggestion"] = ref.replacement_text
                fields["fix_safety"] = fix.safety
                fields["autofix"] = fix
        m.report(rule, ref.node, **fields)


def rename_fix(m, ref, safety: str):
    """The rename as a fix, with the import its new name needs: ``jax.extend.core.Primitive``
    after ``import jax`` alone needs ``import jax.extend.core``.  Unsafe when the installed JAX
    cannot tell which part of the name is a module; None when the import would bind ``jax``
    over another name."""
    title = f"Replace with `{ref.replacement_text}`"
    edits = [fixes.declare.Replace(ref.node, ref.replacement_text)]
    needed = fixes.submodules.needed_import(ref.migration.new, m.module)
    if needed is None:
        safety = fixes.declare.UNSAFE
    elif needed:
        top = m.index.module_scope
        binds = top.bindings.get("jax", ())
        plain_jax = top.imports.get("jax") == "jax" and all(b.kind == "import" for b in binds)
        if not plain_jax and top.lookup_scope("jax") is not None:
            return None  # ``import jax.extend.core`` would rebind a ``jax`` the module uses
        edits.append(fixes.declare.AddImport(f"import {needed}"))
        title += f" and `import {needed}`"
    return fixes.declare.Fix(title, tuple(edits), safety)


def _advice(mig, min_jax, spelled) -> str:
    """The replacement, spelled as this file would write it (``jnp.prod``) when it can be."""
    if mig.new is None:
        return mig.advice
    text = f"use `{spelled or mig.new}`"
    notes = []
    if mig.advice:
        notes.append(mig.advice)
    since = mig.since_version
    if min_jax is not None and since is not None and since > min_jax:
        notes.append(f"it needs JAX >= {_short(mig.since)}, newer than min-jax {format_version(min_jax)}")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def _short(version) -> str:
    """"0.6.0" stays as the changelog writes it; None (unknown) reads as "an earlier release"."""
    if version is None:
        return "an earlier release"
    return format_version(parse_version(version))
