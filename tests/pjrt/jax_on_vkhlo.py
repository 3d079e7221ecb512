"""Shared by the plugin's JAX tests: JAX with the vkhlo platform beside its CPU backend in one
process, and comparisons of a function jitted on each.

ctest runs each test script with the pinned jax environment's python (tools/install-deps.sh),
python/ on PYTHONPATH (so JAX finds the jax_plugins.vkhlo namespace package) and
VKHLO_PJRT_LIBRARY naming the built plugin. Tolerances are per element type: integers and
booleans must match exactly; floats within a few units of their precision, scaled for
reductions and products by the caller (`scale`).
"""
import os
import sys
import unittest

os.environ.setdefault("JAX_PLATFORMS", "vkhlo,cpu")

import numpy as np  # noqa: E402

try:
    import jax  # noqa: E402
    import jax.numpy as jnp  # noqa: E402
except ImportError as error:  # the venv is missing: say so, as ctest's skip expression expects
    print(f"SKIPPED: jax is not installed in {sys.executable} ({error}); run tools/install-deps.sh")
    sys.exit(0)

VKHLO = jax.devices("vkhlo")[0]
CPU = jax.devices("cpu")[0]

# (rtol, atol) per dtype name; integers and booleans exact.
_FLOAT_TOLERANCES = {
    "float64": (1e-12, 1e-14),
    "complex128": (1e-12, 1e-14),
    "float32": (2e-6, 1e-7),
    "complex64": (2e-6, 1e-7),
    "float16": (2e-3, 1e-4),
    "bfloat16": (1.6e-2, 1e-3),
    "float8_e4m3fn": (0.125, 1e-2),
    "float8_e5m2": (0.25, 1e-2),
}


def tolerance(dtype, scale=1.0):
    rtol, atol = _FLOAT_TOLERANCES.get(np.dtype(dtype).name, (0.0, 0.0))
    return rtol * scale, atol * scale


def assert_close(test, got, want, what, scale=1.0):
    got, want = np.asarray(got), np.asarray(want)
    test.assertEqual(got.dtype, want.dtype, f"{what}: dtype")
    test.assertEqual(got.shape, want.shape, f"{what}: shape")
    rtol, atol = tolerance(want.dtype, scale)
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    # Compare in float64 / complex128: numpy cannot subtract bf16 or f8 directly.
    wide = np.complex128 if np.iscomplexobj(want) else np.float64
    np.testing.assert_allclose(got.astype(wide), want.astype(wide), rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def on(device, tree):
    return jax.device_put(tree, device)


def run_both(f, *args, static_argnums=()):
    """`f` jitted on vkhlo and on CPU, with the same arguments placed on each."""
    jitted = jax.jit(f, static_argnums=static_argnums)
    dynamic = [i for i in range(len(args)) if i not in static_argnums]
    def place(device):
        return [on(device, a) if i in dynamic else a for i, a in enumerate(args)]
    got = jitted(*place(VKHLO))
    want = jitted(*place(CPU))
    return got, want


def check(test, f, *args, scale=1.0, what=None, static_argnums=()):
    """Asserts that `f` jitted on vkhlo gives JAX's CPU results; returns vkhlo's."""
    got, want = run_both(f, *args, static_argnums=static_argnums)
    what = what or getattr(f, "__name__", "f")
    got_leaves, tree = jax.tree_util.tree_flatten(got)
    want_leaves, want_tree = jax.tree_util.tree_flatten(want)
    test.assertEqual(tree, want_tree, f"{what}: result structure")
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(want)[0]]
    for path, g, w in zip(paths, got_leaves, want_leaves):
        if isinstance(g, jax.Array):
            test.assertEqual(g.devices(), {VKHLO}, f"{what}{path}: result device")
        assert_close(test, g, w, f"{what}{path}", scale)
    return got


def random_array(rng, shape, dtype, low=-4, high=4):
    """Random values of `dtype`: floats and complex parts uniform in [low, high), integers in
    [-100, 100] clipped to the type's range, booleans."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, endpoint=True).astype(dtype)
    if np.iscomplexobj(np.zeros((), dtype)):
        return (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def main():
    unittest.main(verbosity=2)
