# source: https://github.com/chaobrain/brainstate/pull/217
# category: R
# expect: ok
# via: jit-decorator, pytree-class, method
# sink: changing-static
"""`State.to_state_ref()` returns a TreefyState pytree whose static aux data includes the
state's source info and hook manager, objects that compare by identity; two structurally
identical states therefore flatten to different treedefs and a jitted function retraces for
each new state. The fix leaves those two fields out of the aux data and re-creates them on
unflatten."""
import traceback

import jax
import jax.numpy as jnp


class HookManager:
    """Compared by identity, like brainstate's (it holds a lock and weak references)."""


class TreefyState:
    def __init__(self, type, value, **metadata):
        self.type = type
        self.value = value
        self.metadata = metadata

    def get_metadata(self):
        return dict(self.metadata)


class ParamState:
    def __init__(self, value, name=None):
        self.value = value
        self.name = name
        self._source_info = traceback.extract_stack(limit=2)
        self._hooks_manager = HookManager()

    def to_state_ref(self):
        return TreefyState(type=type(self), value=self.value, name=self.name,
                           _source_info=self._source_info, _hooks_manager=self._hooks_manager)


_AUX_EXCLUDE = ('_source_info', '_hooks_manager')


def _state_ref_flatten(x):
    metadata = tuple((k, v) for k, v in x.get_metadata().items() if k not in _AUX_EXCLUDE)
    return (x.value,), (x.type, metadata)


def _state_ref_unflatten(static, children):
    meta = dict(static[1])
    meta.setdefault('_source_info', traceback.extract_stack(limit=2))
    meta.setdefault('_hooks_manager', HookManager())
    return TreefyState(type=static[0], value=children[0], **meta)


jax.tree_util.register_pytree_node(TreefyState, _state_ref_flatten, _state_ref_unflatten)


@jax.jit
def f(ref):
    return ref.value * 2.0


if __name__ == "__main__":
    for init in (jnp.ones(3), jnp.zeros(3), jnp.ones(3) * 2):
        print(f(ParamState(init).to_state_ref()))
