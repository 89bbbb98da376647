"""Removed and deprecated JAX APIs, with what replaces them.

One table, written from JAX's CHANGELOG (and, where the changelog is silent about a version, from
the release in which the name first disappears).  Each entry names the old API by its qualified
name, as an import resolves it (``jnp.product`` is ``jax.numpy.product``).  An entry whose
``module`` flag is set covers the module and every name inside it.

``fix`` says how mechanical the replacement is:

* ``"safe"``: the replacement is the same object or a drop-in with the same signature; the
  rewrite keeps the behaviour;
* ``"unsafe"``: a rename that usually works, but the replacement differs in some detail
  (signature, defaults, ``isinstance`` behaviour) that the reader should check;
* ``None``: no rename exists; ``advice`` says how to migrate by hand.

``since`` is the JAX version in which the replacement first exists (``None``: in every JAX this
table cares about).  A fix is downgraded to unsafe when the oldest JAX the code supports
(``min-jax``) predates it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

Version = Tuple[int, int, int]

_VERSION_RE = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?$")


def parse_version(text: str) -> Optional[Version]:
    """"0.6" -> (0, 6, 0); "0.4.30" -> (0, 4, 30); None for anything else."""
    m = _VERSION_RE.match(text.strip()) if isinstance(text, str) else None
    if m is None:
        return None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))


def format_version(v: Version) -> str:
    return f"{v[0]}.{v[1]}.{v[2]}"


@dataclass(frozen=True)
class Migration:
    old: str
    new: Optional[str]  # the replacement's qualified name; None when there is no rename
    deprecated: Optional[str]  # the JAX release that deprecated it (None: removed without notice)
    removed: Optional[str]  # the JAX release that removed it (None: still there, deprecated)
    since: Optional[str] = None  # the release in which ``new`` first exists
    fix: Optional[str] = "safe"
    advice: str = ""  # how to migrate when ``fix`` is None (or a caveat when unsafe)
    module: bool = False

    @property
    def deprecated_version(self) -> Optional[Version]:
        return parse_version(self.deprecated) if self.deprecated else None

    @property
    def removed_version(self) -> Optional[Version]:
        return parse_version(self.removed) if self.removed else None

    @property
    def since_version(self) -> Optional[Version]:
        return parse_version(self.since) if self.since else None


def _tree(name: str, deprecated: str) -> Migration:
    return Migration(f"jax.tree_{name}", f"jax.tree.{name}", deprecated, "0.6.0", since="0.4.25")


def _core_moved(name: str, deprecated: str, removed: str, since: str, new_module: str = "jax.extend.core") -> Migration:
    return Migration(f"jax.core.{name}", f"{new_module}.{name}", deprecated, removed, since=since)


_XLA_TRANSLATION_ADVICE = "define the lowering with jax.interpreters.mlir.register_lowering"

MIGRATIONS: Tuple[Migration, ...] = (
    # Top-level pytree aliases (jax 0.3.15 / 0.4.26 deprecation, removed in 0.6.0).
    _tree("map", "0.4.26"),
    _tree("leaves", "0.3.15"),
    _tree("flatten", "0.3.15"),
    _tree("unflatten", "0.3.15"),
    _tree("structure", "0.3.15"),
    _tree("transpose", "0.3.15"),
    Migration("jax.treedef_is_leaf", "jax.tree_util.treedef_is_leaf", "0.3.15", "0.6.0"),
    Migration("jax.tree_util.tree_multimap", "jax.tree_util.tree_map", "0.3.5", "0.3.16"),
    # jax.numpy aliases that NumPy dropped.
    Migration("jax.numpy.product", "jax.numpy.prod", "0.4.12", "0.4.16"),
    Migration("jax.numpy.cumproduct", "jax.numpy.cumprod", "0.4.12", "0.4.16"),
    Migration("jax.numpy.alltrue", "jax.numpy.all", "0.4.12", "0.4.16"),
    Migration("jax.numpy.sometrue", "jax.numpy.any", "0.4.12", "0.4.16"),
    Migration("jax.numpy.round_", "jax.numpy.round", "0.4.32", "0.4.38"),
    # Array types before jax.Array.
    Migration("jax.numpy.DeviceArray", "jax.Array", "0.4.7", "0.4.14", since="0.3.18"),
    Migration("jax.interpreters.xla.DeviceArray", "jax.Array", "0.4.4", "0.4.11", since="0.3.18"),
    Migration("jax.interpreters.pxla.ShardedDeviceArray", "jax.Array", "0.4.7", "0.4.14", since="0.3.18"),
    Migration(
        "jax.random.KeyArray",
        "jax.Array",
        "0.4.16",
        "0.4.24",
        since="0.3.18",
        fix="unsafe",
        advice="for a runtime check of typed keys use jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)",
    ),
    Migration(
        "jax.random.PRNGKeyArray",
        "jax.Array",
        "0.4.16",
        "0.4.24",
        since="0.3.18",
        fix="unsafe",
        advice="for a runtime check of typed keys use jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)",
    ),
    # Modules that were removed or moved.
    Migration(
        "jax.experimental.host_callback",
        None,
        "0.4.26",
        "0.8.0",
        fix=None,
        advice="use jax.debug.callback, jax.pure_callback or jax.experimental.io_callback",
        module=True,
    ),
    Migration(
        "jax.abstract_arrays", None, "0.4.12", "0.4.17", fix=None, advice="use the types in jax.core", module=True
    ),
    Migration("jax.abstract_arrays.ShapedArray", "jax.core.ShapedArray", "0.4.12", "0.4.16"),
    Migration("jax.linear_util", "jax.extend.linear_util", "0.4.16", "0.4.24", since="0.4.16", module=True),
    Migration(
        "jax.xla_computation",
        None,
        "0.4.30",
        "0.4.35",
        fix=None,
        advice="use jax.jit(f).lower(*args).compiler_ir('hlo')",
    ),
    # jax.interpreters.xla internals.
    Migration("jax.interpreters.xla.Device", "jax.Device", "0.4.4", "0.4.11"),
    Migration("jax.interpreters.xla.device_put", "jax.device_put", "0.4.7", "0.4.11"),
    Migration("jax.interpreters.xla.canonicalize_dtype", "jax.dtypes.canonicalize_dtype", "0.7.0", "0.8.0"),
    *(
        Migration(f"jax.interpreters.xla.{name}", None, "0.4.16", "0.4.29", fix=None, advice=_XLA_TRANSLATION_ADVICE)
        for name in (
            "translations",
            "backend_specific_translations",
            "register_translation",
            "xla_destructure",
            "TranslationRule",
            "TranslationContext",
        )
    ),
    *(
        Migration(f"jax.interpreters.xla.{name}", None, "0.5.0", "0.7.0", fix=None, advice="use jax.typeof(x)")
        for name in ("abstractify", "pytype_aval_mappings")
    ),
    # xmap and the maps module.
    Migration(
        "jax.experimental.maps",
        None,
        "0.4.26",
        "0.4.31",
        fix=None,
        advice="use jax.shard_map, or jax.vmap with spmd_axis_name",
        module=True,
    ),
    Migration(
        "jax.experimental.maps.xmap",
        None,
        "0.4.26",
        "0.4.31",
        fix=None,
        advice="use jax.shard_map, or jax.vmap with spmd_axis_name",
    ),
    Migration("jax.experimental.maps.Mesh", "jax.sharding.Mesh", "0.4.1", "0.4.11", since="0.4.1"),
    Migration("jax.experimental.PartitionSpec", "jax.sharding.PartitionSpec", "0.4.1", "0.4.11", since="0.4.1"),
    # jax.experimental.pjit aliases.
    Migration(
        "jax.experimental.pjit.pjit",
        "jax.jit",
        "0.8.0",
        None,
        fix="unsafe",
        advice="jax.jit takes in_shardings/out_shardings by keyword",
    ),
    Migration(
        "jax.experimental.pjit.with_sharding_constraint",
        "jax.lax.with_sharding_constraint",
        "0.4.16",
        "0.4.24",
        since="0.4.1",
    ),
    Migration("jax.experimental.pjit.PartitionSpec", "jax.sharding.PartitionSpec", "0.4.4", "0.4.11", since="0.4.1"),
    Migration("jax.experimental.pjit.NamedSharding", "jax.sharding.NamedSharding", "0.4.4", "0.4.11", since="0.4.1"),
    Migration(
        "jax.experimental.pjit.FROM_GDA",
        None,
        "0.4.7",
        "0.4.11",
        fix=None,
        advice="pass sharded jax.Array inputs and drop in_shardings",
    ),
    Migration(
        "jax.experimental.shard_map.shard_map",
        "jax.shard_map",
        "0.8.0",
        None,
        since="0.6.1",
        fix="unsafe",
        advice="jax.shard_map names check_rep check_vma, and mesh may come from jax.set_mesh",
    ),
    # jax.core names deprecated in 0.4.38 that moved to jax.extend.core / jax.errors.
    *(
        _core_moved(name, "0.4.38", "0.6.0", "0.4.27")
        for name in ("ClosedJaxpr", "Jaxpr", "JaxprEqn", "Literal", "Primitive", "Token", "Var")
    ),
    Migration("jax.core.jaxpr_as_fun", "jax.extend.core.jaxpr_as_fun", "0.4.38", "0.6.0", since="0.4.30"),
    Migration(
        "jax.core.raise_to_shaped", None, "0.4.38", "0.6.0", fix=None, advice="use the abstract value as it is"
    ),
    Migration(
        "jax.core.ConcretizationTypeError", "jax.errors.ConcretizationTypeError", "0.4.38", "0.7.0"
    ),
    Migration("jax.core.get_aval", "jax.typeof", "0.8.2", "0.10.0", since="0.5.3", fix="unsafe"),
    # jax.core names deprecated in 0.10.0 (removed in 0.11.0).
    *(
        _core_moved(name, "0.10.0", "0.11.0", "0.10.0")
        for name in (
            "CallPrimitive",
            "DebugInfo",
            "DropVar",
            "Effect",
            "Effects",
            "check_jaxpr",
            "concrete_or_error",
            "find_top_trace",
            "gensym",
            "jaxprs_in_params",
            "new_jaxpr_eqn",
            "no_effects",
            "primal_dtype_to_tangent_dtype",
            "valid_jaxtype",
        )
    ),
    *(
        _core_moved(name, "0.10.0", "0.11.0", "0.10.1", new_module="jax.errors")
        for name in ("InconclusiveDimensionOperation", "JaxprTypeError")
    ),
)

BY_NAME: Dict[str, Migration] = {m.old: m for m in MIGRATIONS}

# The last component of every old name: a file that mentions none of them needs no look.
TAILS: Tuple[str, ...] = tuple(sorted({m.old.rsplit(".", 1)[1] for m in MIGRATIONS}))

NEWEST: Version = max(
    v for m in MIGRATIONS for v in (m.deprecated_version, m.removed_version) if v is not None
)


def lookup(qualified: str) -> Optional[Tuple[Migration, str]]:
    """The entry for ``qualified`` (or for the module it lies in) and the matched prefix."""
    parts = qualified.split(".")
    for n in range(len(parts), 1, -1):
        prefix = ".".join(parts[:n])
        m = BY_NAME.get(prefix)
        if m is not None and (n == len(parts) or m.module):
            return m, prefix
    return None


def status(m: Migration, target: Version) -> Optional[str]:
    """"removed" / "deprecated" for code that must run on JAX ``target``; None when it is fine there."""
    removed = m.removed_version
    if removed is not None and removed <= target:
        return "removed"
    deprecated = m.deprecated_version
    if deprecated is not None and deprecated <= target:
        return "deprecated"
    return None


def fix_safety(m: Migration, min_jax: Optional[Version]) -> Optional[str]:
    """"safe" / "unsafe" for the rename to ``m.new``; None when there is no rename.

    A replacement newer than the oldest JAX the code supports would break it there."""
    if m.new is None or m.fix is None:
        return None
    since = m.since_version
    if min_jax is not None and since is not None and since > min_jax:
        return "unsafe"
    return m.fix
