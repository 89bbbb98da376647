# source: https://github.com/google/learned_optimization/commit/f1b94eaf94e0808f12cbe484d1451de080767a49
# category: R
# expect: ok
# via: wrapper, factory-closure, jit-call, helper, host-loop
# sink: fresh-callable
"""`opt_from_checkpoint` returns the learned optimizer wrapped in `_GinScopeClass`, whose
`__getattr__` wraps every method it hands out in a new closure; the training loop jits
`opt.update` through `jax_utils.cached_jit`, an `lru_cache` keyed on the function, so every
step sees a new function, misses the cache and compiles the update again.  The fix puts an
`lru_cache` on the wrapping so the same method always comes back as the same function.
(gin and learned_optimization are not installed: the scope, optimizer and loop are reduced.)"""
import contextlib
import functools

import jax
import jax.numpy as jnp


@contextlib.contextmanager
def config_scope(scope):  # stands in for gin.config_scope
    yield


@functools.lru_cache(None)
def cached_jit(fn, *args, **kwargs):
    return jax.jit(fn, *args, **kwargs)


class LearnedSGD:
    def __init__(self, theta):
        self.theta = theta

    def init(self, params):
        return {"params": params, "step": jnp.asarray(0, jnp.int32)}

    def update(self, opt_state, grad):
        lr = jnp.exp(self.theta["log_lr"])
        return {"params": opt_state["params"] - lr * grad, "step": opt_state["step"] + 1}


class _GinScopeClass:
    def __init__(self, ginned, scope):
        self.ginned = ginned
        self.scope = scope

    # memoised: one wrapper per (method, scope), so jit caches keyed on it hit
    @functools.lru_cache(None)
    def __wrap(self, fn, scope):
        def _fn(*args, **kwargs):
            with config_scope(scope):
                return fn(*args, **kwargs)

        return _fn

    def __getattr__(self, name):
        ret = getattr(self.ginned, name)
        if callable(ret):
            ret = self.__wrap(ret, self.scope)
        return ret


def opt_from_checkpoint(theta):
    return _GinScopeClass(LearnedSGD(theta), "opt_from_checkpoint__0")


if __name__ == "__main__":
    opt = opt_from_checkpoint({"log_lr": jnp.log(0.1)})
    opt_state = opt.init(jnp.array([1.0, -2.0, 3.0]))
    loss_and_grad = jax.value_and_grad(lambda p: jnp.sum(p ** 2))
    for i in range(4):
        loss, grad = loss_and_grad(opt_state["params"])
        opt_state = cached_jit(opt.update)(opt_state, grad)
        print(i, float(loss))
