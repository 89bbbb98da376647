"""Libraries that keep state in a frame around the user's function, as data.

Haiku's ``hk.transform`` / ``transform_with_state`` and a Flax Linen module's scope during
``init``/``apply`` hold the parameters, the state and the rng sequence in a Python frame outside
every JAX trace.  Code under a plain JAX transform (``jax.jit``, ``jax.checkpoint``, a lax loop's
body or branch, ``odeint``) that writes that frame stores a tracer of the inner trace there, and
the tracer leaks when the frame is read after the trace (checked with haiku 0.0.17, flax 0.12.8,
jax 0.10.2):

* Haiku: ``hk.next_rng_key()`` advances the rng sequence with a traced key (raises as soon as a
  later key is drawn, at ``init`` and at ``apply``); ``hk.set_state`` stores a traced value
  (``apply`` returns it); a module that creates parameters with random initialisers
  (``hk.Linear``) draws its keys and creates them inside the trace at ``init``, and ``apply``
  fails on them.  Building a module there is harmless, and so is calling one whose parameters an
  earlier call outside the trace created (it then only reads them).  ``vmap`` and ``grad`` alone
  stage nothing: the values stay concrete.
* Linen: a submodule call that creates parameters (``nn.Dense(4)(x)``), a variable's writes and
  ``self.sow`` inside the trace leave tracers in the variables; ``self.make_rng`` keeps its
  counter in Python and is harmless.

The libraries' lifted transforms (``hk.scan``, ``hk.remat``, ``nn.scan``, ``nn.jit``...) thread
the frame through the trace and are the way to write such code.  The classes are read from the
installed libraries by ``scripts/library_frame_tables.py`` (a test checks them).
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Tuple

# Classes whose call writes the frame (scripts/library_frame_tables.py).
HAIKU_WRITING_MODULES: FrozenSet[str] = frozenset(
    {
        "haiku.BatchNorm",
        "haiku.Bias",
        "haiku.Conv1D",
        "haiku.Conv1DLSTM",
        "haiku.Conv1DTranspose",
        "haiku.Conv2D",
        "haiku.Conv2DLSTM",
        "haiku.Conv2DTranspose",
        "haiku.Conv3D",
        "haiku.Conv3DLSTM",
        "haiku.Conv3DTranspose",
        "haiku.ConvND",
        "haiku.ConvNDTranspose",
        "haiku.DepthwiseConv1D",
        "haiku.DepthwiseConv2D",
        "haiku.DepthwiseConv3D",
        "haiku.EMAParamsTree",
        "haiku.Embed",
        "haiku.ExponentialMovingAverage",
        "haiku.GRU",
        "haiku.GroupNorm",
        "haiku.InstanceNorm",
        "haiku.LSTM",
        "haiku.LayerNorm",
        "haiku.Linear",
        "haiku.MultiHeadAttention",
        "haiku.RMSNorm",
        "haiku.SNParamsTree",
        "haiku.SeparableDepthwiseConv2D",
        "haiku.SpectralNorm",
        "haiku.VanillaRNN",
        "haiku.nets.MLP",
        "haiku.nets.MobileNetV1",
        "haiku.nets.ResNet",
        "haiku.nets.ResNet101",
        "haiku.nets.ResNet152",
        "haiku.nets.ResNet18",
        "haiku.nets.ResNet200",
        "haiku.nets.ResNet34",
        "haiku.nets.ResNet50",
        "haiku.nets.VectorQuantizer",
        "haiku.nets.VectorQuantizerEMA",
    }
)

LINEN_WRITING_MODULES: FrozenSet[str] = frozenset(
    {
        "flax.linen.BatchNorm",
        "flax.linen.Conv",
        "flax.linen.ConvLSTMCell",
        "flax.linen.ConvLocal",
        "flax.linen.ConvTranspose",
        "flax.linen.Dense",
        "flax.linen.DenseGeneral",
        "flax.linen.Einsum",
        "flax.linen.Embed",
        "flax.linen.Fp8DirectDotGeneralOp",
        "flax.linen.Fp8DotGeneral",
        "flax.linen.Fp8DotGeneralOp",
        "flax.linen.Fp8Einsum",
        "flax.linen.GRUCell",
        "flax.linen.GroupNorm",
        "flax.linen.InstanceNorm",
        "flax.linen.LSTMCell",
        "flax.linen.LayerNorm",
        "flax.linen.MGUCell",
        "flax.linen.MultiHeadAttention",
        "flax.linen.MultiHeadDotProductAttention",
        "flax.linen.NANOOFp8DotGeneralOp",
        "flax.linen.PReLU",
        "flax.linen.RMSNorm",
        "flax.linen.SelfAttention",
        "flax.linen.SimpleCell",
        "flax.linen.SpectralNorm",
        "flax.linen.WeightNorm",
    }
)

# Haiku's functions that write its frame, with what the write does: "rng" advances the key
# sequence (a leak at init and at apply), "state" stores a value (a leak wherever the state is
# returned), "param" creates a parameter (only at init: at apply it reads one).
HAIKU_WRITERS: Dict[str, str] = {
    "haiku.next_rng_key": "rng",
    "haiku.next_rng_keys": "rng",
    "haiku.maybe_next_rng_key": "rng",
    "haiku.reserve_rng_keys": "rng",
    "haiku.set_state": "state",
    "haiku.get_parameter": "param",
}

# Methods of a Linen module's ``self`` that write its scope: creating a parameter or a variable
# (at init), sowing an intermediate and putting a variable (whenever the collection is mutable).
LINEN_SELF_WRITERS: Dict[str, str] = {
    "param": "param",
    "variable": "param",
    "sow": "state",
    "put_variable": "state",
}

# Tests that say the frame is initialising: code run only when they are false reads parameters
# that exist, and creates none.
RUNNING_INIT: FrozenSet[str] = frozenset({"haiku.running_init"})
LINEN_RUNNING_INIT = "is_initializing"  # a method of the Linen module's ``self``

# Calls outside the table of transforms that trace a function argument: (position, keyword).
# ``odeint`` traces ``func`` (closure_convert, then a jitted solver).
TRACING_CALLS: Dict[str, Tuple[int, str]] = {"jax.experimental.ode.odeint": (0, "func")}

# The lifted transform of each library that replaces a plain one, by the plain transform's last
# name (``jax.lax.scan`` -> ``scan``).
LIFTED: Dict[str, Dict[str, str]] = {
    "haiku": {
        "scan": "hk.scan",
        "fori_loop": "hk.fori_loop",
        "while_loop": "hk.while_loop",
        "cond": "hk.cond",
        "switch": "hk.switch",
        "map": "hk.map",
        "checkpoint": "hk.remat",
        "remat": "hk.remat",
    },
    "linen": {
        "jit": "nn.jit",
        "scan": "nn.scan",
        "while_loop": "nn.while_loop",
        "cond": "nn.cond",
        "switch": "nn.switch",
        "checkpoint": "nn.remat",
        "remat": "nn.remat",
    },
}

# The prefixes of the libraries' own transforms, which carry the frame through their trace.
LIFTED_PREFIXES: Tuple[str, ...] = ("haiku.", "flax.linen.", "flax.nnx.")

# How a message names each library's frame.
FRAME_NAMES: Dict[str, str] = {"haiku": "hk.transform's frame", "linen": "the Linen module's variables"}
