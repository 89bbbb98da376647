# source: https://github.com/eclipse-qrisp/Qrisp/issues/288
# category: B
# expect: ok
# via: wrapper, factory-closure, jit-call, lax-while, lax-cond
# sink: static-spec
"""The fixed decorator reads the parameter names from `getfullargspec(fn).args`, so `m` is
recognised as static, kept out of the loop carry and passed to the trial function unchanged."""
import inspect

import jax
import jax.numpy as jnp


def RUS(*trial_function, **jit_kwargs):
    if len(trial_function) == 0:
        return lambda x: RUS(x, **jit_kwargs)
    trial_function = trial_function[0]

    def return_function(*trial_args):
        qached_function = jax.jit(trial_function, **jit_kwargs)
        first_iter_res = qached_function(*trial_args)

        if "static_argnums" in jit_kwargs:
            static_argnums = jit_kwargs["static_argnums"]
            if isinstance(static_argnums, int):
                static_argnums = [static_argnums]
        else:
            static_argnums = []

        if "static_argnames" in jit_kwargs:
            argname_list = inspect.getfullargspec(trial_function).args
            for i in range(len(argname_list)):
                if argname_list[i] in jit_kwargs["static_argnames"]:
                    static_argnums.append(i)

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


@RUS(static_argnames=["m"])
def test(n, m):
    arr = jnp.zeros(m)
    qv = n + arr.sum()
    success_bool = qv >= 0
    return success_bool, qv


@jax.jit
def main():
    return test(5, 3)


if __name__ == "__main__":
    print(main())
