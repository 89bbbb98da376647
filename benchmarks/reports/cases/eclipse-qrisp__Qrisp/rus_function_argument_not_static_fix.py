# source: https://github.com/eclipse-qrisp/Qrisp/issues/114
# category: B
# expect: ok
# via: wrapper, jit-call, lax-while, lax-cond, factory-closure
# sink: static-spec
"""After the fix `RUS` accepts `static_argnums`; the function argument is declared static, kept
out of the loop carry and handed to the jitted trial function as a compile-time constant."""
import jax
import jax.extend
import jax.numpy as jnp


def RUS(*trial_function, **jit_kwargs):
    if len(trial_function) == 0:
        return lambda x: RUS(x, **jit_kwargs)
    trial_function = trial_function[0]

    def return_function(*trial_args):
        static_argnums = jit_kwargs.get("static_argnums", [])
        if isinstance(static_argnums, int):
            static_argnums = [static_argnums]
        qached_function = jax.jit(trial_function, **jit_kwargs)
        first_iter_res = qached_function(*trial_args)
        dynamic_args = [a for i, a in enumerate(trial_args) if i not in static_argnums]
        n_arg_vals = len(dynamic_args)
        combined_args = tuple(list(dynamic_args) + list(first_iter_res))

        def body_fun(args):
            dynamic_args = list(args[:n_arg_vals])
            new_trial_args = []
            for i in range(len(trial_args)):
                if i not in static_argnums:
                    new_trial_args.append(dynamic_args.pop(0))
                else:
                    new_trial_args.append(trial_args[i])
            trial_res = qached_function(*new_trial_args)
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
    qv = RUS(static_argnums=0)(test)(some_function)
    return qv + i


if __name__ == "__main__":
    jaspr = jax.make_jaxpr(test_fun)(1)
    print(jax.extend.core.jaxpr_as_fun(jaspr)(1))
