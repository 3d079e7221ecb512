"""Element-wise ops and reductions of every dtype JAX supports by default (no x64), jitted on
vkhlo and compared with JAX's CPU backend: one program per dtype and family, so that a dtype
costs a few compiles."""
import unittest

import numpy as np

from jax_on_vkhlo import check, jax, jnp, random_array

lax = jax.lax

INTEGER_DTYPES = ["int8", "int16", "int32", "uint8", "uint16", "uint32"]
FLOAT_DTYPES = ["float16", "bfloat16", "float32"]
SHAPE = (3, 17)


def arithmetic(x, y):
    return {
        "add": x + y, "sub": x - y, "mul": x * y, "max": jnp.maximum(x, y), "min": jnp.minimum(x, y),
        "eq": x == y, "lt": x < y, "ge": x >= y, "select": jnp.where(x > y, x, y), "neg": -x,
    }


def integer_ops(x, y):
    nonzero = jnp.where(y == 0, jnp.ones_like(y), y)
    shift = (y.astype(jnp.uint32) % 40).astype(x.dtype)  # includes shifts past the bit width
    return dict(arithmetic(x, y), **{
        "floordiv": x // nonzero, "rem": lax.rem(x, nonzero), "and": x & y, "or": x | y, "xor": x ^ y,
        "not": ~x, "shl": lax.shift_left(x, shift), "shr_a": lax.shift_right_arithmetic(x, shift),
        "shr_l": lax.shift_right_logical(x, shift), "abs": jnp.abs(x), "clamp": jnp.clip(x, -5, 50),
        "to_f32": x.astype(jnp.float32), "to_i8": x.astype(jnp.int8), "popcnt": lax.population_count(x),
        "square_wraps": x * x * x * x,
    })


def float_ops(x, y):
    positive = jnp.abs(x) + 0.5
    return dict(arithmetic(x, y), **{
        "div": x / y, "abs": jnp.abs(x), "exp": jnp.exp(x), "log": jnp.log(positive), "sqrt": jnp.sqrt(positive),
        "rsqrt": lax.rsqrt(positive), "sin": jnp.sin(x), "cos": jnp.cos(x), "tanh": jnp.tanh(x),
        "logistic": jax.nn.sigmoid(x), "erf": jax.scipy.special.erf(x), "pow": jnp.power(positive, y),
        "floor": jnp.floor(x), "round": jnp.round(x), "sign": jnp.sign(x), "atan2": jnp.arctan2(x, y),
        "log1p": jnp.log1p(positive), "expm1": jnp.expm1(x), "to_i32": x.astype(jnp.int32),
        "to_f32": x.astype(jnp.float32), "is_finite": jnp.isfinite(x / y),
        "nan_max": jnp.maximum(jnp.sqrt(x), y), "nan_min": jnp.minimum(y, jnp.log(x)),
    })


def reductions(x):
    return {
        "sum": jnp.sum(x, axis=1), "max": jnp.max(x, axis=0), "min": jnp.min(x), "argmax": jnp.argmax(x, axis=1),
        "argmin": jnp.argmin(x, axis=0), "cumsum": jnp.cumsum(x, axis=1), "prod": jnp.prod(x[:, :4], axis=1),
    }


class ElementwiseTest(unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(20)

    def test_integers(self):
        for dtype in INTEGER_DTYPES:
            with self.subTest(dtype=dtype):
                x, y = random_array(self.rng, SHAPE, dtype), random_array(self.rng, SHAPE, dtype)
                check(self, integer_ops, x, y, what=f"integer_ops[{dtype}]")

    def test_floats(self):
        for dtype in FLOAT_DTYPES:
            with self.subTest(dtype=dtype):
                x, y = random_array(self.rng, SHAPE, dtype), random_array(self.rng, SHAPE, dtype)
                check(self, float_ops, x, y, what=f"float_ops[{dtype}]", scale=2)

    def test_float_special_values(self):
        # No denormals: XLA:CPU flushes them to zero (1e-40 / 1e-40 is NaN there), vkhlo keeps
        # them as IEEE says (1.0).
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.2e-38, -3.4e38, 3.4e38, 1.0, -1.0], np.float32)
        x, y = special[:, None] * np.ones((1, 10), np.float32), special[None, :] * np.ones((10, 1), np.float32)
        check(self, float_ops, x, y, what="float_ops[special f32]", scale=2)

    def test_product_with_a_constant_zero_keeps_nan(self):
        # inf * 0 is NaN, also when the zero is a constant of the program: lavapipe folded
        # x * 0.0 to 0 for a literal zero (codegen hides such constants from the driver's compiler:
        # codegen/elemental/constants.cc).
        x = np.array([1.0, -2.0, 0.0, 3.0], np.float32)
        check(self, lambda a: a / 0.0 * 0.0, x, what="inf_times_constant_zero")

    def test_bool(self):
        x, y = random_array(self.rng, SHAPE, "bool"), random_array(self.rng, SHAPE, "bool")
        check(self, lambda a, b: {"and": a & b, "or": a | b, "xor": a ^ b, "not": ~a, "eq": a == b,
                                  "select": jnp.where(a, b, ~b), "any": jnp.any(a, axis=1), "all": jnp.all(a, axis=0),
                                  "to_i32": a.astype(jnp.int32), "sum": jnp.sum(a)}, x, y, what="bool_ops")

    def test_complex64(self):
        x, y = random_array(self.rng, SHAPE, "complex64"), random_array(self.rng, SHAPE, "complex64")
        check(self, lambda a, b: {"add": a + b, "mul": a * b, "div": a / b, "abs": jnp.abs(a), "exp": jnp.exp(a),
                                  "conj": jnp.conj(a), "real": jnp.real(a), "sum": jnp.sum(a, axis=1),
                                  "sqrt": jnp.sqrt(a)}, x, y, what="complex_ops", scale=4)

    def test_float8(self):
        for dtype in ["float8_e4m3fn", "float8_e5m2"]:
            with self.subTest(dtype=dtype):
                x = random_array(self.rng, SHAPE, "float32").astype(jnp.dtype(dtype))
                y = random_array(self.rng, SHAPE, "float32").astype(jnp.dtype(dtype))
                check(self, lambda a, b: {"add": a + b, "mul": a * b, "max": jnp.maximum(a, b),
                                          "to_f32": a.astype(jnp.float32), "from_f32": (a.astype(jnp.float32) * 3).astype(a.dtype)},
                      x, y, what=f"f8_ops[{dtype}]")

    def test_reductions(self):
        for dtype in ["int32", "uint8", "float32", "bfloat16"]:
            with self.subTest(dtype=dtype):
                x = random_array(self.rng, (6, 40), dtype)
                check(self, reductions, x, what=f"reductions[{dtype}]", scale=40)
        x = random_array(self.rng, (4, 5, 6), "float32")
        check(self, lambda a: (jnp.mean(a, axis=(0, 2)), jnp.var(a), jnp.linalg.norm(a, axis=-1),
                               jax.nn.logsumexp(a, axis=1), jax.nn.softmax(a, axis=-1)), x, what="statistics", scale=10)


if __name__ == "__main__":
    from jax_on_vkhlo import main
    main()
