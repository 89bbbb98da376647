# source: https://github.com/chungmin99/pyroki/issues/24
# category: R
# expect: recompiles
# via: jit-decorator, helper, list-of-arrays, host-loop
# sink: changing-shape
"""In the online-planning demo a newly detected obstacle is appended to the world collision list
passed to the jitted planner, so the planner's inputs change shape and it is compiled again
each time the scene changes.  The maintainer's workaround pads the obstacles to a fixed count
and masks the unused ones.  (pyroki is not installed: spheres and the planner are reduced.)"""
import jax
import jax.numpy as jnp


def colldist_from_sdf(dist, margin):
    return jnp.minimum(dist - margin, 0.0)


@jax.jit
def _solve_online_planning_jax(world_coll, start_cfg, target, prev_sols):
    def cost(traj):
        centers = jnp.stack([c[:3] for c in world_coll])
        radii = jnp.stack([c[3] for c in world_coll])
        dist = jnp.linalg.norm(traj[:, None, :] - centers[None], axis=-1) - radii
        coll = colldist_from_sdf(dist, 0.05)
        return (jnp.sum((traj[-1] - target) ** 2) + jnp.sum((traj[0] - start_cfg) ** 2)
                + 10.0 * jnp.sum(coll ** 2) + jnp.sum(jnp.diff(traj, axis=0) ** 2))

    traj = prev_sols
    for _ in range(20):
        traj = traj - 0.05 * jax.grad(cost)(traj)
    return traj


def solve_online_planning(world_coll, start_cfg, target, prev_sols):
    return _solve_online_planning_jax(world_coll, start_cfg, target, prev_sols)  # <-- bug


if __name__ == "__main__":
    world_coll = [jnp.array([0.5, 0.0, 0.3, 0.1])]
    sols = jnp.zeros((8, 3))
    start = jnp.zeros(3)
    for step in range(4):
        if step == 2:
            world_coll.append(jnp.array([0.2, 0.2, 0.1, 0.05]))  # a new object is detected
        sols = solve_online_planning(world_coll, start, jnp.array([0.6, 0.1, 0.4]), sols)
        start = sols[1]
        print(step, sols[-1])
