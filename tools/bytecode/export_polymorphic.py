#!/usr/bin/env python3
"""Exports shape-polymorphic JAX models with jax.export and symbolic dimensions, as a serving
app ships a model once for any batch size, for vkhlo's shape refinement tests. For each model:

  <out>/<model>.poly.mlirbc          exported once, with symbolic dimensions (jax.export's
                                     polymorphic_shapes: `?` sizes, dimension arguments, shape
                                     computations, @shape_assertion custom calls)
  <out>/<model>.<n>.mlirbc           the same model exported at size n (static shapes)
  <out>/<model>.<n>.in<i>.npy        arguments at size n
  <out>/<model>.<n>.out<i>.npy       JAX's CPU results at size n

Models (float32, small):
  mlp          2-layer perceptron with softmax; symbolic batch b (sizes 1, 3, 8)
  transformer  layer norm, 2-head causal self-attention, GELU MLP; symbolic batch b, 4 tokens
               (sizes 1, 2, 5)
  sequence     the same block over a symbolic sequence length t, batch 2, with positions from
               jnp.arange(t) (sizes 1, 4, 7)
  trim_stride  x[1:-1] and x[::2] of a symbolic batch, and a strided SAME convolution over
               symbolic spatial sizes (dynamic_gather, dynamic_iota, dynamic_conv; sizes 3, 6, 9)

Usage: python tools/bytecode/export_polymorphic.py tests/passes/shapes/models
"""
import os
import sys

import numpy as np


def models(jax, jnp):
    lax = jax.lax
    rng = np.random.default_rng(21)

    def normal(*shape, scale=0.5):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def mlp(w1, b1, w2, b2, x):
        h = jax.nn.relu(x @ w1 + b1)
        return jax.nn.softmax(h @ w2 + b2, axis=-1)

    mlp_params = [normal(8, 16), normal(16), normal(16, 4), normal(4)]

    def layer_norm(x, g, b):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * lax.rsqrt(var + 1e-5) * g + b

    def block(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, w2):
        batch, seq, dim = x.shape
        heads = 2
        h = layer_norm(x, g1, b1)

        def split(t):
            return t.reshape(batch, seq, heads, dim // heads)

        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        scores = jnp.einsum("bthd,bshd->bhts", q, k) / np.float32(np.sqrt(dim // heads))
        mask = jnp.tril(jnp.ones((seq, seq), bool))
        scores = jnp.where(mask, scores, np.float32(-1e9))
        attention = jnp.einsum("bhts,bshd->bthd", jax.nn.softmax(scores, -1), v).reshape(batch, seq, dim)
        x = x + attention @ wo
        h = layer_norm(x, g2, b2)
        return x + jax.nn.gelu(h @ w1) @ w2

    dim = 8
    block_params = [normal(dim, scale=0.1) + 1, normal(dim, scale=0.1), normal(dim, dim), normal(dim, dim),
                    normal(dim, dim), normal(dim, dim), normal(dim, scale=0.1) + 1, normal(dim, scale=0.1),
                    normal(dim, 16), normal(16, dim)]

    def sequence(x, *params):
        positions = jnp.arange(x.shape[1], dtype=jnp.float32)  # a dynamic_iota over t
        return block(x + 0.01 * positions[None, :, None], *params)

    def trim_stride(x, images, kernel):
        trimmed = x[1:-1]          # dynamic_gather (sizes from the symbolic batch)
        strided = x[::2]           # dynamic_iota + gather
        conv = lax.conv_general_dilated(images, kernel, (2, 2), "SAME")  # dynamic_conv
        return trimmed * 2.0, strided.sum(0), conv

    kernel = normal(4, 3, 3, 3)
    return [
        ("mlp", mlp, lambda n: [*mlp_params, normal(n, 8)], ["_", "_", "_", "_", "(b, 8)"], [1, 3, 8]),
        ("transformer", block, lambda n: [normal(n, 4, dim)] + block_params, ["(b, 4, 8)"] + ["_"] * 10,
         [1, 2, 5]),
        ("sequence", sequence, lambda n: [normal(2, n, dim)] + block_params, ["(2, t, 8)"] + ["_"] * 10,
         [1, 4, 7]),
        ("trim_stride", trim_stride, lambda n: [normal(n, 4), normal(1, 3, n, n), kernel],
         ["(b, 4)", "(1, 3, b, b)", "_"], [3, 6, 9]),
    ]


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    import jax
    import jax.numpy as jnp
    from jax import export

    jax.config.update("jax_platforms", "cpu")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, function, make_args, specs, sizes in models(jax, jnp):
        fixed = make_args(sizes[0])
        scope = export.SymbolicScope()
        poly_args = []
        for spec, value in zip(specs, fixed):
            shape = value.shape if spec == "_" else export.symbolic_shape(spec, scope=scope)
            poly_args.append(jax.ShapeDtypeStruct(shape, value.dtype))
        exported = export.export(jax.jit(function))(*poly_args)
        with open(os.path.join(out, f"{name}.poly.mlirbc"), "wb") as f:
            f.write(exported.mlir_module_serialized)
        for n in sizes:
            args = make_args(n)
            # Parameters (the "_" specs) are shared by every size; only the data changes.
            args = [fixed[i] if specs[i] == "_" else a for i, a in enumerate(args)]
            static = export.export(jax.jit(function))(*[jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args])
            with open(os.path.join(out, f"{name}.{n}.mlirbc"), "wb") as f:
                f.write(static.mlir_module_serialized)
            results = jax.jit(function)(*args)
            if not isinstance(results, (tuple, list)):
                results = [results]
            for i, a in enumerate(args):
                np.save(os.path.join(out, f"{name}.{n}.in{i}.npy"), a)
            for i, r in enumerate(results):
                np.save(os.path.join(out, f"{name}.{n}.out{i}.npy"), np.asarray(r))
        print(f"{name}: polymorphic + sizes {sizes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
