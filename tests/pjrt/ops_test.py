"""Control flow, linear algebra, FFT, indexing, sorting and random numbers through jax.jit on
vkhlo, against JAX's CPU backend."""
import unittest

import numpy as np

from jax_on_vkhlo import check, jax, jnp, random_array

lax = jax.lax


class ControlFlowTest(unittest.TestCase):
    def test_while_loop(self):
        def collatz_steps(n):
            def body(state):
                value, steps = state
                return jnp.where(value % 2 == 0, value // 2, 3 * value + 1), steps + 1
            return lax.while_loop(lambda s: s[0] != 1, body, (n, jnp.int32(0)))
        check(self, collatz_steps, np.int32(27))

    def test_scan(self):
        def cumulative(xs):
            return lax.scan(lambda carry, x: (carry * 0.9 + x, carry), jnp.zeros(3, jnp.float32), xs)
        check(self, cumulative, random_array(np.random.default_rng(1), (12, 3), "float32"), scale=10)

    def test_cond_and_switch(self):
        def branches(x, i):
            a = lax.cond(x.sum() > 0, lambda v: v * 2.0, lambda v: v - 1.0, x)
            b = lax.switch(i, [jnp.sin, jnp.cos, lambda v: -v], x)
            return a, b
        x = random_array(np.random.default_rng(2), (5,), "float32")
        for i in range(4):  # 3 is out of range: the last branch
            check(self, branches, x, np.int32(i), what=f"branches[{i}]")
            check(self, branches, -x, np.int32(i), what=f"branches[-x, {i}]")

    def test_fori_loop(self):
        def power_iteration(m):
            v = jnp.ones(m.shape[0], m.dtype)
            v = lax.fori_loop(0, 20, lambda _, v: (m @ v) / jnp.linalg.norm(m @ v), v)
            return v @ m @ v
        m = random_array(np.random.default_rng(3), (6, 6), "float32")
        check(self, power_iteration, m + m.T, scale=50)


class LinearAlgebraTest(unittest.TestCase):
    def test_dot_and_einsum(self):
        rng = np.random.default_rng(4)
        a, b = random_array(rng, (7, 33), "float32"), random_array(rng, (33, 5), "float32")
        batch = random_array(rng, (3, 4, 6), "float32")
        check(self, lambda a, b, c: (a @ b, jnp.einsum("bij,bkj->bik", c, c), jnp.dot(a[0], a[1]), jnp.outer(a[0], b[:, 0])),
              a, b, batch, scale=30)
        ai, bi = random_array(rng, (4, 9), "int32"), random_array(rng, (9, 3), "int32")
        check(self, lambda a, b: a @ b, ai, bi, what="integer matmul")
        check(self, lambda a, b: a @ b, a.astype(jnp.bfloat16), b.astype(jnp.bfloat16), what="bf16 matmul", scale=30)

    def test_convolution(self):
        rng = np.random.default_rng(5)
        images, kernel = random_array(rng, (2, 9, 9, 3), "float32"), random_array(rng, (3, 3, 3, 4), "float32")
        dn = ("NHWC", "HWIO", "NHWC")

        def convolutions(x, w):
            return (lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=dn),
                    lax.conv_general_dilated(x, w, (2, 2), "VALID", rhs_dilation=(2, 1), dimension_numbers=dn),
                    # depthwise: one 3x3 filter per input channel
                    lax.conv_general_dilated(x, w[:, :, :1, :3], (1, 1), "SAME", dimension_numbers=dn,
                                             feature_group_count=3))
        check(self, convolutions, images, kernel, scale=30)

    def test_fft(self):
        rng = np.random.default_rng(6)
        x = random_array(rng, (4, 16), "float32")
        z = random_array(rng, (8, 8), "complex64")
        check(self, lambda x, z: (jnp.fft.fft(x), jnp.fft.rfft(x), jnp.fft.ifft(z), jnp.fft.fft2(z),
                                  jnp.fft.irfft(jnp.fft.rfft(x), n=16)), x, z, scale=50)


class IndexingTest(unittest.TestCase):
    def test_gather(self):
        rng = np.random.default_rng(7)
        x = random_array(rng, (10, 6), "float32")
        idx = np.array([3, 0, 9, 3, -1], np.int32)

        def gathers(x, idx, start):
            return (x[idx], x[:, 1:5:2], x[idx, 2], jnp.take(x, idx, axis=1, mode="clip"),
                    lax.dynamic_slice(x, (start, 1), (4, 3)), x[::-1], jnp.take_along_axis(x, jnp.argsort(x, axis=1), axis=1))
        check(self, gathers, x, idx, np.int32(8))  # start 8 is clamped to 6

    def test_scatter(self):
        rng = np.random.default_rng(8)
        x = random_array(rng, (10, 4), "float32")
        idx = np.array([1, 5, 1, 9], np.int32)
        updates = random_array(rng, (4, 4), "float32")

        def scatters(x, idx, updates):
            return (x.at[idx].add(updates), x.at[idx].set(updates * 0 + 7.0), x.at[idx, 0].max(updates[:, 0]),
                    x.at[2:4].multiply(2.0), jnp.zeros(5, jnp.int32).at[jnp.array([0, 2, 0])].add(1),
                    lax.dynamic_update_slice(x, updates, (3, 0)))
        check(self, scatters, x, idx, updates)


class SortTest(unittest.TestCase):
    def test_sort_argsort_top_k(self):
        rng = np.random.default_rng(9)
        x = random_array(rng, (5, 50), "float32")
        x[0, :10] = x[0, 10:20]  # ties: the order among equal keys must be the stable one
        ints = random_array(rng, (64,), "int32")
        check(self, lambda x, i: (jnp.sort(x, axis=1), jnp.argsort(x, axis=1, stable=True), lax.top_k(x, 5),
                                  jnp.sort(i), jnp.argsort(-i, stable=True), jnp.sort(x, axis=0)[::-1],
                                  lax.sort((i, jnp.arange(64)), num_keys=1)), x, ints)


class RandomTest(unittest.TestCase):
    def test_threefry_streams_match_bit_for_bit(self):
        def draws(seed):
            key = jax.random.key(seed)
            k1, k2, k3, k4 = jax.random.split(key, 4)
            return (jax.random.key_data(k1), jax.random.bits(k1, (7,), jnp.uint32),
                    jax.random.uniform(k2, (3, 5)), jax.random.normal(k3, (64,)),
                    jax.random.randint(k4, (10,), 0, 100), jax.random.permutation(k4, 12),
                    jax.random.bernoulli(k2, 0.3, (16,)))
        check(self, draws, np.uint32(1234), scale=4)


if __name__ == "__main__":
    from jax_on_vkhlo import main
    main()
