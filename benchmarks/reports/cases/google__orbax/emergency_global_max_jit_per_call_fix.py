# source: https://github.com/google/orbax/commit/d8a2a638b500adea16d0ecedb27c79b5b56ae3f0
# category: R
# expect: ok
# via: jit-call, method, helper, host-loop
# sink: fresh-callable
"""The emergency CheckpointManager builds its jitted identity broadcast (`out_shardings`
replicated over the host/device mesh) once in `__init__`, and `_global_max` reuses it on every
`should_save` check, so it compiles once.  (orbax is reduced here to the parts involved.)"""
import jax
import numpy as np
from jax.sharding import PartitionSpec as P


class CheckpointManager:
    def __init__(self, save_interval_steps):
        self._save_interval_steps = save_interval_steps
        self._steps = []
        slice_mesh = jax.sharding.Mesh(
            np.asarray(jax.devices()).reshape(jax.process_count(), jax.local_device_count()),
            ["host", "dev"])
        self._global_broadcast_fn = jax.jit(
            lambda x: x,
            out_shardings=jax.sharding.NamedSharding(slice_mesh, P()),
        )

    def _global_max(self, values):
        num_hosts = jax.process_count()
        num_devices_per_host = jax.local_device_count()
        slice_mesh = jax.sharding.Mesh(
            np.asarray(jax.devices()).reshape(num_hosts, num_devices_per_host), ["host", "dev"])
        sdas = [jax.device_put(np.asarray(values).reshape((1, 1, len(values))), d)
                for d in jax.local_devices()]
        sharding = jax.sharding.NamedSharding(slice_mesh, P("host", "dev"))
        g_arr = jax.make_array_from_single_device_arrays(
            (num_hosts, num_devices_per_host, len(values)), sharding, sdas)
        result_arr = self._global_broadcast_fn(g_arr)
        result_arr = np.asarray(result_arr.addressable_data(0))
        return list(np.max(result_arr[:, 0, :], axis=0).astype(int))

    def should_save(self, step):
        last = self._steps[-1] if self._steps else -1
        (last_saved,) = self._global_max([last])
        return step - last_saved >= self._save_interval_steps

    def save(self, step):
        if self.should_save(step):
            self._steps.append(step)
            return True
        return False


if __name__ == "__main__":
    manager = CheckpointManager(save_interval_steps=2)
    for step in range(6):
        print(step, manager.save(step))
