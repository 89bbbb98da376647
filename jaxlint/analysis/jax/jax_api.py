"""Every table of JAX and NumPy knowledge the interpreter uses, in one place.

Each entry was checked against JAX (see fixtures/ and the oracle test): what a call returns on
tracers, which attributes are static, which NumPy functions dispatch to the array's methods.
"""

from __future__ import annotations

ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag", "at", "flat"})

# Methods of jax.Array that return arrays (checked against ``dir(jax.Array)`` in the tests).
# On a value whose class is unknown, only these are taken to be array computations.
ARRAY_METHODS = frozenset(
    {
        "all", "any", "argmax", "argmin", "argpartition", "argsort", "astype", "byteswap",
        "choose", "clip", "compress", "conj", "conjugate", "copy", "cumprod", "cumsum",
        "diagonal", "dot", "flatten", "max", "mean", "min", "nonzero", "prod", "ptp", "ravel",
        "repeat", "reshape", "round", "searchsorted", "sort", "squeeze", "std", "sum",
        "swapaxes", "take", "trace", "transpose", "var", "view", "item",
    }
)

# ``with ...:`` blocks whose body computes with concrete values: ensure_compile_time_eval, and
# disable_jit (lax.scan and friends then run as Python loops on real values).
CONCRETE_CONTEXTS = frozenset({"jax.ensure_compile_time_eval", "jax.disable_jit"})

# Under a trace, jit is enabled: ``if config.disable_jit.value:`` guards the eager path.
DISABLE_JIT_FLAGS = frozenset({"jax.config.jax_disable_jit", "jax._src.config.disable_jit.value", "jax._src.config._disable_jit.value"})

# False under every trace (jit, grad, vmap, lax loops, ensure_compile_time_eval too): code that
# asks ``if not trace_state_clean(): return`` runs what follows only outside a trace.
TRACE_STATE_TESTS = frozenset({"jax._src.core.trace_state_clean", "jax.core.trace_state_clean"})

# NumPy functions computed element by element, spelled alike in jax.numpy: the result has the
# broadcast shape of the array arguments.
ELEMENTWISE_FUNCS = frozenset(
    (
        "abs absolute negative positive sign sqrt cbrt square reciprocal exp exp2 expm1 log log2 log10 log1p "
        "sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh deg2rad rad2deg degrees radians "
        "floor ceil trunc rint isnan isinf isfinite signbit logical_not "
        "add subtract multiply divide true_divide power maximum minimum fmax fmin arctan2 hypot logaddexp "
        "logaddexp2 logical_and logical_or logical_xor equal not_equal less less_equal greater greater_equal "
        "copysign nextafter heaviside where"
    ).split()
)

# Handlers that catch JAX's tracer conversion errors: they all derive from TypeError.
TRACER_ERROR_HANDLERS = frozenset({"TypeError", "Exception", "BaseException", "builtins.TypeError", "builtins.Exception"})
# The class every tracer is an instance of, by the names code reaches it with.
TRACER_TYPES = frozenset({"jax.core.Tracer", "jax._src.core.Tracer"})
# The functions that list a pytree's leaves.
TREE_LEAVES = frozenset({"jax.tree.leaves", "jax.tree_util.tree_leaves"})
TRACER_ERROR_CLASSES = frozenset(
    {
        "ConcretizationTypeError",
        "TracerBoolConversionError",
        "TracerIntegerConversionError",
        "TracerArrayConversionError",
        "JAXTypeError",
    }
)

STATIC_ATTRS = frozenset(
    {"shape", "ndim", "dtype", "size", "weak_type", "sharding", "aval", "itemsize", "nbytes"}
)

# jax.numpy / lax functions whose result is a Python value even on tracers.
STATIC_FUNCS = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.issubdtype",
        "jax.numpy.isdtype",
        "jax.numpy.result_type",
        "jax.numpy.promote_types",
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.numpy.can_cast",
        "jax.numpy.isscalar",
        "jax.numpy.iscomplexobj",
        "jax.numpy.isrealobj",
        "jax.numpy.broadcast_shapes",
        "jax.numpy.get_printoptions",
        "jax.lax.broadcast_shapes",
        "jax.lax.conv_dimension_numbers",
        "jax.lax.padtype_to_pads",
        "jax.lax.axis_size",
        "jax.core.get_aval",
        "jax.tree_util.tree_structure",
        "jax.tree.structure",
        "jax.tree_util.treedef_is_leaf",
        "jax.devices",
        "jax.local_devices",
        "jax.device_count",
        "jax.local_device_count",
        "jax.process_index",
        "jax.process_count",
        "jax.default_backend",
        "jax.eval_shape",
        "jax.ShapeDtypeStruct",
        "jax.named_scope",
        "jax.debug.print",
        "jax.debug.callback",
        "jax.debug.breakpoint",
        "jax.debug.visualize_array_sharding",
        "jax.ensure_compile_time_eval",
        "jax.typeof",
        "jax.lax.dtype",
        "jax.numpy.ndarray",
    }
)

# Layers of the neural-network libraries (flax 0.12.8, equinox 0.13.8): an instance called
# computes with jax.numpy on its inputs and its parameters, so inside a trace its output is
# traced when an input is.  Some return a tuple (LSTMCell's carry and output, equinox's
# BatchNorm's output and state).
_LINEN_LAYERS = frozenset(
    """BatchNorm Bidirectional Conv ConvLSTMCell ConvLocal ConvTranspose Dense DenseGeneral Dropout
    Einsum Embed GRUCell GroupNorm InstanceNorm LSTMCell LayerNorm MGUCell MultiHeadAttention
    MultiHeadDotProductAttention OptimizedLSTMCell PReLU RMSNorm RNN SelfAttention Sequential
    SimpleCell SpectralNorm WeightNorm""".split()
)
_NNX_LAYERS = frozenset(
    """BatchNorm Bidirectional Conv ConvTranspose Dropout Einsum Embed GRUCell GroupNorm
    InstanceNorm LSTMCell LayerNorm Linear LinearGeneral LoRA LoRALinear MultiHeadAttention
    OptimizedLSTMCell PReLU RMSNorm RNN Sequential SimpleCell SpectralNorm WeightNorm""".split()
)
_EQUINOX_LAYERS = frozenset(
    """AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d AdaptiveMaxPool2d
    AdaptiveMaxPool3d AvgPool1d AvgPool2d AvgPool3d BatchNorm Conv Conv1d Conv2d Conv3d
    ConvTranspose ConvTranspose1d ConvTranspose2d ConvTranspose3d Dropout Embedding GRUCell
    GroupNorm Identity LSTMCell LayerNorm Linear MLP MaxPool1d MaxPool2d MaxPool3d
    MultiheadAttention PReLU RMSNorm RotaryPositionalEmbedding Sequential SpectralNorm
    WeightNorm""".split()
)
LAYER_NAMESPACES = (("flax.linen.", _LINEN_LAYERS), ("flax.nnx.", _NNX_LAYERS), ("equinox.nn.", _EQUINOX_LAYERS))


def is_layer_class(q) -> bool:
    """``flax.linen.Dense``, ``flax.nnx.Linear``, ``equinox.nn.Linear`` (also through the
    library's submodules, ``flax.linen.linear.Dense``)."""
    if not q:
        return False
    for prefix, names in LAYER_NAMESPACES:
        if q.startswith(prefix):
            return q.rsplit(".", 1)[-1] in names
    return False


# In these modules every capitalised public name is a class or a type (checked in the tests):
# calling it builds a Python object, not an array.
CLASS_NAMESPACES = ("jax.numpy.", "jax.lax.", "jax.nn.")

TRACED_PREFIXES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.random.",
    "jax.nn.",
    "jax.scipy.",
    "jax.image.",
    "jax.ops.",
    "jax.lax.linalg.",
)

# Pallas is mostly Python-level helpers (cdiv, BlockSpec, next_power_of_2); these are traced.
PALLAS_TRACED = frozenset(
    {
        "program_id",
        "num_programs",
        "load",
        "store",
        "swap",
        "atomic_add",
        "atomic_max",
        "atomic_min",
        "atomic_and",
        "atomic_or",
        "atomic_xor",
        "atomic_xchg",
        "atomic_cas",
        "dot",
        "max_contiguous",
        "multiple_of",
    }
)

STATIC_PREFIXES = ("jax.dtypes.", "jax.sharding.", "jax.typing.", "jax.core.", "jax.tree_util.register")

TREE_MAPS = frozenset(
    {
        "jax.tree_util.tree_map",
        "jax.tree.map",
        "jax.tree_map",
        "jax.tree_util.tree_map_with_path",
        "jax.tree.map_with_path",
    }
)

# Functions that make a mutable Ref (``jax.new_ref``): its ``ref[...] = v`` and the views of
# ``ref.at[...]`` write it in place, inside a trace too, and JAX carries the writes through
# jit as inputs and outputs of every call.
REF_MAKERS = frozenset({"jax.new_ref", "jax.ref.new_ref", "jax.ref.empty_ref"})

CALLBACKS = frozenset(
    {
        "jax.pure_callback",
        "jax.experimental.io_callback",
        "jax.experimental.host_callback.call",
        "jax.experimental.host_callback.id_tap",
    }
)

# Flax NNX classes whose instances are data when assigned to an attribute of an NNX pytree
# (``nnx.is_data``: Variables and graph nodes), checked against the installed Flax in the tests.
# An NNX module keeps a plain list, dict or tuple as a *static* attribute and refuses one that
# holds such a value.
NNX_DATA_CLASSES = frozenset(
    {
        "BatchNorm", "BatchStat", "Bidirectional", "Cache", "Conv", "ConvTranspose", "Dict", "Dropout",
        "EMA", "Einsum", "Embed", "GRUCell", "GroupNorm", "InstanceNorm", "Intermediate", "LSTMCell",
        "LayerNorm", "Linear", "LinearGeneral", "List", "LoRA", "LoRALinear", "LoRAParam",
        "MultiHeadAttention", "MultiMetric", "OptimizedLSTMCell", "Optimizer", "PReLU", "Param",
        "Perturbation", "RMSNorm", "RNN", "Rngs", "Sequential", "SimpleCell", "SpectralNorm",
        "Variable", "WeightNorm",
    }
)


# Functions whose result depends on the named axis they run under, not only on their
# arguments: a batched value under vmap even when every argument is a Python value.
AXIS_DEPENDENT = frozenset({"jax.lax.axis_index"})

# Methods on Python containers, not arrays.
DICT_METHODS = frozenset({"keys", "values", "items", "get"})

# NumPy functions that only read a tracer's shape or dtype: a static result.
NUMPY_STATIC = frozenset(
    {"shape", "ndim", "size", "result_type", "dtype", "issubdtype", "iinfo", "finfo", "isscalar", "iscomplexobj", "isrealobj", "can_cast", "promote_types"}
)

# NumPy functions that work on tracers because they dispatch to the array's own method or
# only read its shape (verified against JAX: see fixtures/concretization.py and the oracle test).
NUMPY_SAFE = NUMPY_STATIC | frozenset(
    {
        "sum",
        "mean",
        "prod",
        "max",
        "min",
        "amax",
        "amin",
        "any",
        "all",
        "argmax",
        "argmin",
        "std",
        "var",
        "cumsum",
        "cumprod",
        "round",
        "around",
        "reshape",
        "transpose",
        "squeeze",
        "swapaxes",
        "shape",
        "ndim",
        "size",
        "take",
        "repeat",
        "trace",
        "diagonal",
        "searchsorted",
    }
)

# Functions and classes whose behaviour the tables above give: never a user's class, wrapper
# or factory that the cross-module phase could look up.
KNOWN_APIS = TRACED_PREFIXES + STATIC_PREFIXES + ("numpy.",)
