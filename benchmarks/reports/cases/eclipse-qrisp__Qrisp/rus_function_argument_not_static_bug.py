# source: https://github.com/eclipse-qrisp/Qrisp/issues/114
# category: B
# expect: raises
# via: wrapper, jit-call, lax-while, lax-cond, factory-closure
# sink: static-spec
"""A function is passed as an argument to a repeat-until-success trial function, `RUS(test)(fn)`;
Qrisp's `RUS` jits the trial function with every argument traced, so the function argument has
no static slot and JAX cannot interpret it as an array."""
import jax
import jax.extend
import jax.numpy as jnp


def RUS(trial_function):
    def return_function(*trial_args):
        qached_function = jax.jit(trial_function)
        first_iter_res = qached_function(*trial_args)  # <-- bug
        n_arg_vals = len(trial_args)
        combined_args = tuple(list(trial_args) + list(first_iter_res))

        def body_fun(args):
            trial_res = qached_function(*args[:n_arg_vals])
            return tuple(list(args[:n_arg_vals]) + list(trial_res))

        def cond_fun(val):
            return ~val[n_arg_vals]

        def true_fun(combined_args):
            return combined_args

        def false_fun(combined_args):
            return jax.lax.while_loop(cond_fun, body_fun, combined_args)

        combined_res = jax.lax.cond(first_iter_res[0], true_fun, false_fun, combined_args)
        return combined_res[n_arg_vals + 1]

    return return_function


def some_function(qv):
    return qv + 0.5


def test(fun):
    qf = fun(jnp.zeros(()))
    qb = jnp.sin(qf)
    return qb > 0, qf


def test_fun(i):
    qv = RUS(test)(some_function)
    return qv + i


if __name__ == "__main__":
    jaspr = jax.make_jaxpr(test_fun)(1)
    print(jax.extend.core.jaxpr_as_fun(jaspr)(1))
