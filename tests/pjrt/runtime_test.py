"""What a JAX user does besides jit: device_put and block_until_ready, donation, eager op-by-op
code (with the plugin's compile cache), 64-bit types under jax_enable_x64, multi-output and
empty arrays, strided host arrays."""
import time
import unittest

import numpy as np

from jax_on_vkhlo import CPU, VKHLO, assert_close, check, jax, jnp, on, random_array


class DeviceTest(unittest.TestCase):
    def test_vkhlo_is_the_default_backend(self):
        self.assertEqual(jax.default_backend(), "vkhlo")
        self.assertEqual(jax.devices(), [VKHLO])
        # The device description's attributes are attributes of the device object.
        self.assertIn("llvmpipe" if "llvmpipe" in VKHLO.device_kind else "", VKHLO.vulkan_device)

    def test_device_put_round_trip_and_block_until_ready(self):
        rng = np.random.default_rng(11)
        for dtype in ["float32", "int8", "uint16", "bool", "bfloat16", "complex64", "float16"]:
            with self.subTest(dtype=dtype):
                host = random_array(rng, (3, 4, 5), dtype)
                x = jax.device_put(host, VKHLO)
                self.assertIs(x.block_until_ready(), x)
                self.assertEqual(x.devices(), {VKHLO})
                np.testing.assert_array_equal(np.asarray(x), host)
        # Strided and transposed host views go up as their values.
        base = np.arange(60, dtype=np.float32).reshape(6, 10)
        for view in (base.T, base[::2, ::-3], np.broadcast_to(base[:1], (4, 10))):
            np.testing.assert_array_equal(np.asarray(jax.device_put(view, VKHLO)), view)
        # Empty arrays and scalars.
        np.testing.assert_array_equal(np.asarray(jax.device_put(np.zeros((0, 3), np.int32), VKHLO)), np.zeros((0, 3)))
        self.assertEqual(float(jax.device_put(np.float32(2.5), VKHLO)), 2.5)

    def test_moving_between_vkhlo_and_cpu(self):
        x = jax.device_put(np.arange(8, dtype=np.int32), VKHLO)
        y = jax.device_put(x, CPU)
        self.assertEqual(y.devices(), {CPU})
        z = jax.device_put(y * 2, VKHLO)
        np.testing.assert_array_equal(np.asarray(z), np.arange(8) * 2)
        self.assertEqual(jax.device_put(z, VKHLO).devices(), {VKHLO})

    def test_asynchronous_dispatch_then_block_until_ready(self):
        step = jax.jit(lambda a: jnp.tanh(a @ a) * 0.5)
        a = jax.device_put(np.eye(128, dtype=np.float32), VKHLO)
        start = time.perf_counter()
        results = [a]
        for _ in range(10):
            results.append(step(results[-1]))
        queued = time.perf_counter() - start
        jax.block_until_ready(results)
        self.assertTrue(all(r.is_ready() for r in results))
        want = np.eye(128, dtype=np.float32)
        for _ in range(10):
            want = np.tanh(want @ want) * 0.5
        assert_close(self, results[-1], want, "10 chained steps", scale=10)
        self.assertGreater(queued, 0)


class DonationTest(unittest.TestCase):
    def test_donated_arguments_are_deleted_and_results_right(self):
        update = jax.jit(lambda p, g: p - 0.1 * g, donate_argnums=0)
        p = jax.device_put(np.ones(1000, np.float32), VKHLO)
        g = jax.device_put(np.full(1000, 2.0, np.float32), VKHLO)
        q = update(p, g)
        self.assertTrue(p.is_deleted())
        self.assertFalse(g.is_deleted())
        np.testing.assert_allclose(np.asarray(q), np.full(1000, 0.8, np.float32), rtol=1e-6)
        with self.assertRaises(RuntimeError):
            np.asarray(p)
        # A buffer donated and also passed again is refused, as XLA:CPU refuses it, and kept.
        both = jax.jit(lambda a, b: a + b, donate_argnums=0)
        r = jax.device_put(np.ones(4, np.float32), VKHLO)
        with self.assertRaisesRegex(Exception, "donated buffer .* is passed more than once"):
            both(r, r)
        self.assertFalse(r.is_deleted())
        np.testing.assert_array_equal(np.asarray(both(r, r + 0)), np.full(4, 2.0))


class EagerTest(unittest.TestCase):
    def test_op_by_op_on_the_device(self):
        rng = np.random.default_rng(12)
        x_host, w_host = random_array(rng, (16, 8), "float32"), random_array(rng, (8, 4), "float32")
        x, w = jax.device_put(x_host, VKHLO), jax.device_put(w_host, VKHLO)
        y = jnp.maximum(x @ w, 0.0).sum(axis=0) / 16.0 + jnp.exp(-jnp.abs(w[0]))
        self.assertEqual(y.devices(), {VKHLO})
        want = np.maximum(x_host @ w_host, 0).sum(axis=0) / 16 + np.exp(-np.abs(w_host[0]))
        np.testing.assert_allclose(np.asarray(y), want, rtol=1e-5, atol=1e-6)
        # The same ops again compile nothing new: JAX's per-primitive cache, then the plugin's.
        start = time.perf_counter()
        for _ in range(20):
            y = jnp.maximum(x @ w, 0.0).sum(axis=0) / 16.0 + jnp.exp(-jnp.abs(w[0]))
        y.block_until_ready()
        per_op = (time.perf_counter() - start) / (20 * 8)
        self.assertLess(per_op, 0.05, f"{per_op * 1e3:.2f} ms per eager op: is every op compiled again?")


class X64Test(unittest.TestCase):
    def test_64_bit_types(self):
        with jax.enable_x64(True):
            rng = np.random.default_rng(13)
            for dtype in ["float64", "int64", "uint64", "complex128"]:
                with self.subTest(dtype=dtype):
                    x, y = random_array(rng, (4, 9), dtype), random_array(rng, (4, 9), dtype)
                    ops = (lambda a, b: (a + b, a * b, a - b, jnp.sum(a, axis=1), a == b)) if dtype != "float64" else \
                        (lambda a, b: (a + b, a * b, a / b, jnp.exp(a), jnp.sqrt(jnp.abs(a)), a @ b.T, jnp.sum(a)))
                    check(self, ops, x, y, what=f"x64[{dtype}]", scale=20)
            big = np.array([2**40 + 3, -(2**50)], np.int64)
            check(self, lambda a: (a * 3, a >> 7, a.astype(jnp.float64)), big, what="int64 beyond 32 bits")


if __name__ == "__main__":
    from jax_on_vkhlo import main
    main()
