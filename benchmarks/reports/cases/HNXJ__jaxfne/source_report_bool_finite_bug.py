# source: https://github.com/HNXJ/jaxfne/commit/5bcba751e7f363f24355b67b60221d368e040e0c
# category: A
# expect: raises
# via: helper, jit-decorator, dict-of-arrays
# sink: int-float-bool
"""`construct_source_tensor` builds a bookkeeping report next to the source and stored
`"finite": bool(jnp.all(jnp.isfinite(source)))`; when the field model that calls it is jitted,
the source is traced and `bool` cannot concretize the check."""
import jax
import jax.numpy as jnp


def construct_source_tensor(*, mode, total_membrane_current=None, synaptic_current=None, scale=1.0):
    """Construct a source tensor with source bookkeeping validation."""
    if mode == "total_membrane_current_proxy":
        if total_membrane_current is None:
            raise ValueError("total_membrane_current is required for total_membrane_current_proxy")
        if synaptic_current is not None:
            raise ValueError("Double-counting detected: total_membrane_current_proxy already includes synaptic_current")
        source = jnp.asarray(total_membrane_current) * jnp.asarray(
            scale, dtype=jnp.asarray(total_membrane_current).dtype
        )
        source_mode = "total_membrane_current_proxy"
    else:
        raise NotImplementedError(f"TODO: implement construct_source_tensor mode {mode!r}")

    report = {
        "source_mode": source_mode,
        "source_shape": list(source.shape),
        "double_count_guard": "passed",
        "physical_amplitude_claim_allowed": False,
        "finite": bool(jnp.all(jnp.isfinite(source))),  # <-- bug
    }
    return source, report


@jax.jit
def lfp_from_currents(total_current, leadfield):
    source, report = construct_source_tensor(
        mode="total_membrane_current_proxy", total_membrane_current=total_current, scale=1e-3
    )
    return leadfield @ source, report["finite"]


if __name__ == "__main__":
    currents = jnp.sin(jnp.linspace(0.0, 6.0, 32)).reshape(8, 4)
    leadfield = jnp.ones((3, 8)) / 8.0
    lfp, finite = lfp_from_currents(currents, leadfield)
    print(lfp.shape, finite)
