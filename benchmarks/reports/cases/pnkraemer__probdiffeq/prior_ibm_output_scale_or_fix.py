# source: https://github.com/pnkraemer/probdiffeq/pull/813
# category: A
# expect: ok
# via: jit-decorator, helper, vmap
# sink: bool-ops
"""prior_ibm defaulted the output scale with `output_scale or np.ones_like(...)`; when the scale is
a traced array (a jitted calibration over output scales) the `or` asks for its truth value and
tracing fails."""
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as np


class _MarkovProcess(NamedTuple):
    tcoeffs: Any
    output_scale: Any
    discretize: Callable


class _DenseSSM:
    def __init__(self, num_derivatives):
        self.num_derivatives = num_derivatives

    def output_scale_prototype(self):
        return np.empty(())

    def ibm_transitions(self, output_scale):
        n = self.num_derivatives + 1
        idx = np.arange(n)

        def discretize(dt):
            powers = np.maximum(idx[None, :] - idx[:, None], 0)
            A = np.where(idx[None, :] >= idx[:, None], dt**powers, 0.0)
            Q = output_scale**2 * dt * np.eye(n)
            return A, Q

        return discretize


def prior_ibm(tcoeffs, *, ssm_fact: str, output_scale=None):
    ssm = _DenseSSM(len(tcoeffs) - 1)
    if output_scale is None:
        output_scale = np.ones_like(ssm.output_scale_prototype())
    discretize = ssm.ibm_transitions(output_scale=output_scale)
    output_scale_calib = np.ones_like(ssm.output_scale_prototype())
    return _MarkovProcess(tcoeffs, output_scale_calib, discretize=discretize), ssm


def prior_ibm_discrete(ts, *, tcoeffs_like, ssm_fact: str, output_scale=None):
    prior, ssm = prior_ibm(tcoeffs_like, output_scale=output_scale, ssm_fact=ssm_fact)
    return jax.vmap(prior.discretize)(np.diff(ts))


@jax.jit
def process_noise_trace(output_scale, ts):
    tcoeffs = [np.zeros(()), np.zeros(()), np.zeros(())]
    _, Q = prior_ibm_discrete(ts, tcoeffs_like=tcoeffs, ssm_fact="dense", output_scale=output_scale)
    return np.trace(Q, axis1=-2, axis2=-1).sum()


if __name__ == "__main__":
    ts = np.linspace(0.0, 1.0, num=11)
    for scale in (0.5, 1.0, 2.0):
        print(process_noise_trace(np.asarray(scale), ts))
