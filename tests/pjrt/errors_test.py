"""What cannot run is a Python exception carrying vkhlo's message, and the process goes on: an
op the device cannot run, a custom call vkhlo has no target for, host callbacks, several
devices, device memory running out (while uploading, and while running: an asynchronous error
surfaces where the value is used). ctest runs this file twice: with the native profile and with
VKHLO_PJRT_OPTIONS='{"profile": "mobile", ...}', a weak phone GPU's view of the device; both
with a 96 MiB device memory limit."""
import unittest

import numpy as np

from jax_on_vkhlo import VKHLO, jax, jnp

MOBILE = "mobile profile" in VKHLO.vulkan_device
LIMIT_BYTES = 96 << 20


def still_works(test):
    """The device still computes after an error."""
    value = jax.jit(lambda v: v * 2 + 1)(jax.device_put(np.arange(5, dtype=np.int32), VKHLO))
    np.testing.assert_array_equal(np.asarray(value), np.arange(5) * 2 + 1)


class ErrorsTest(unittest.TestCase):
    def test_a_custom_call_vkhlo_has_no_target_for(self):
        def f(x):
            return jax.ffi.ffi_call("my_cuda_kernel", jax.ShapeDtypeStruct(x.shape, x.dtype))(x)
        with self.assertRaisesRegex(Exception, "custom_call target @my_cuda_kernel is not registered"):
            jax.jit(f)(np.ones(3, np.float32))
        still_works(self)

    def test_host_callbacks_are_refused(self):
        def f(x):
            return jax.pure_callback(lambda v: np.sin(v), jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        with self.assertRaises(Exception):
            jax.jit(f)(np.ones(3, np.float32)).block_until_ready()
        still_works(self)

    def test_several_devices_are_refused(self):
        with self.assertRaises(Exception):
            jax.pmap(lambda v: v + 1, devices=[VKHLO, VKHLO])(np.ones((2, 3), np.float32))
        still_works(self)

    def test_64_bit_floats_need_device_support(self):
        with jax.enable_x64(True):
            x = np.linspace(0, 1, 7)
            if MOBILE:
                with self.assertRaisesRegex(Exception, "needs shaderFloat64, which .* lacks \\(profile mobile\\)"):
                    jax.jit(jnp.exp)(x)
            else:
                np.testing.assert_allclose(np.asarray(jax.jit(jnp.exp)(x)), np.exp(x), rtol=1e-15)
        still_works(self)

    def test_uploading_more_than_the_device_memory_limit(self):
        big = np.zeros(LIMIT_BYTES // 4 + 1024, np.float32)
        with self.assertRaisesRegex(Exception, "RESOURCE_EXHAUSTED"):
            jax.device_put(big, VKHLO).block_until_ready()
        still_works(self)

    def test_running_out_of_memory_while_running_is_raised_where_the_value_is_used(self):
        # Each result fits the limit (so compiling succeeds), the three together do not: the
        # run fails on the executor, after jit has returned.
        n = LIMIT_BYTES // 4 // 3 + 4096

        def three(x):
            a = jnp.full((n,), x)
            return a, a + 1, a * 3

        outputs = jax.jit(three)(jnp.float32(1))
        with self.assertRaisesRegex(Exception, "RESOURCE_EXHAUSTED: .*out of device memory"):
            jax.block_until_ready(outputs)
        with self.assertRaisesRegex(Exception, "out of device memory"):
            np.asarray(outputs[1])
        del outputs
        still_works(self)


if __name__ == "__main__":
    from jax_on_vkhlo import main
    main()
