"""JAX4xx: recompilation and compile-time cost."""
