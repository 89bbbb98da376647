"""What JAX601 and JAX602 share: find the table's names in a module and report one status."""

from __future__ import annotations

from jaxlint.analysis.jax_api_migrations import format_version, fix_safety, parse_version, status


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
            fields["suggestion"] = ref.replacement_text
            fields["fix_safety"] = safety
        m.report(rule, ref.node, **fields)


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
