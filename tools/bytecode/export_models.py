#!/usr/bin/env python3
"""Exports small JAX models with jax.export, as a user shipping a model would, for vkhlo's
bytecode reader tests: each model's serialized module (a StableHLO portable artifact, the
bytes of Exported.mlir_module_serialized), its inputs and JAX's CPU results as .npy files.

  <out>/<model>.mlirbc        the portable artifact (jax.export writes StableHLO WEEK_4)
  <out>/<model>.in<i>.npy     the arguments, in order
  <out>/<model>.out<i>.npy    JAX's results on its CPU backend

Models (float32, sizes kept small so the files stay small):
  mlp_forward       2-layer perceptron, relu
  mlp_train_step    its SGD step: value_and_grad of a mean squared error, parameters updated
  cnn_forward       conv 3x3 + relu + 2x2 max pool, twice, then a dense layer and log_softmax
  transformer_block layer norm, 2-head self-attention with a causal mask, GELU MLP, residuals
  lstm_scan         an LSTM over a sequence with lax.scan, returning the last hidden state

and, given a second folder, artifacts with what JAX writes beside VHLO, there:
  mlp_forward_plain_stablehlo.mlirbc  the same module as StableHLO's own unversioned bytecode
                                      (what stablehlo.deserialize_portable_artifact_str returns),
                                      which vkhlo refuses, saying what it is
  sharded_shardy.mlirbc               a function jitted with in/out shardings: Shardy's mesh,
                                      argument shardings and a sharding constraint (sdy dialect)
  shard_map_shardy.mlirbc             a shard_map: a Shardy manual computation, which vkhlo refuses
  eigh_lapack.mlirbc                  jnp.linalg.eigh for CPU: a LAPACK custom call with layouts
                                      and a Shardy sharding rule

Usage: python tools/bytecode/export_models.py tests/frontend/bytecode/models tests/frontend/bytecode/data
"""
import os
import sys

import numpy as np


def models(jax, jnp):
    lax = jax.lax
    rng = np.random.default_rng(19)

    def normal(*shape, scale=0.5):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    def mlp(params, x):
        w1, b1, w2, b2 = params
        return jnp.maximum(x @ w1 + b1, 0.0) @ w2 + b2

    mlp_params = (normal(8, 16), normal(16), normal(16, 4), normal(4))
    mlp_x, mlp_y = normal(5, 8), normal(5, 4)

    def mlp_forward(w1, b1, w2, b2, x):
        return mlp((w1, b1, w2, b2), x)

    def mlp_train_step(w1, b1, w2, b2, x, y):
        def loss(params):
            return jnp.mean((mlp(params, x) - y) ** 2)
        value, grads = jax.value_and_grad(loss)((w1, b1, w2, b2))
        return (value,) + tuple(p - 0.1 * g for p, g in zip((w1, b1, w2, b2), grads))

    def conv(x, w):
        return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def pool(x):
        return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")

    def cnn_forward(k1, k2, w, b, images):
        h = pool(jnp.maximum(conv(images, k1), 0.0))
        h = pool(jnp.maximum(conv(h, k2), 0.0))
        return jax.nn.log_softmax(h.reshape(h.shape[0], -1) @ w + b)

    cnn_args = (normal(3, 3, 1, 4), normal(3, 3, 4, 8), normal(2 * 2 * 8, 10, scale=0.2), normal(10), normal(2, 8, 8, 1))

    def layer_norm(x, g, b):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * lax.rsqrt(var + 1e-5) * g + b

    def transformer_block(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, w2):
        seq, dim, heads = x.shape[0], x.shape[1], 2
        h = layer_norm(x, g1, b1)

        def split(t):
            return t.reshape(seq, heads, dim // heads).transpose(1, 0, 2)

        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(dim // heads).astype(np.float32)
        mask = jnp.tril(jnp.ones((seq, seq), bool))
        attention = jax.nn.softmax(jnp.where(mask, scores, -1e9), axis=-1) @ v
        x = x + attention.transpose(1, 0, 2).reshape(seq, dim) @ wo
        return x + jax.nn.gelu(layer_norm(x, g2, b2) @ w1) @ w2

    dim = 8
    transformer_args = (normal(6, dim), 1 + normal(dim, scale=0.1), normal(dim, scale=0.1), normal(dim, dim),
                        normal(dim, dim), normal(dim, dim), normal(dim, dim), 1 + normal(dim, scale=0.1),
                        normal(dim, scale=0.1), normal(dim, 4 * dim), normal(4 * dim, dim))

    def lstm_scan(wx, wh, b, xs, h0, c0):
        def cell(carry, x):
            h, c = carry
            gates = x @ wx + h @ wh + b
            i, f, g, o = jnp.split(gates, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        (h, c), hs = lax.scan(cell, (h0, c0), xs)
        return h, c, hs

    hidden, features = 6, 3
    lstm_args = (normal(features, 4 * hidden), normal(hidden, 4 * hidden), normal(4 * hidden), normal(7, 2, features),
                 np.zeros((2, hidden), np.float32), np.zeros((2, hidden), np.float32))

    return {
        "mlp_forward": (mlp_forward, mlp_params + (mlp_x,)),
        "mlp_train_step": (mlp_train_step, mlp_params + (mlp_x, mlp_y)),
        "cnn_forward": (cnn_forward, cnn_args),
        "transformer_block": (transformer_block, transformer_args),
        "lstm_scan": (lstm_scan, lstm_args),
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/frontend/bytecode/models"
    os.makedirs(out, exist_ok=True)
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_platforms", "cpu")
    for name, (function, args) in models(jax, jnp).items():
        exported = jax.export.export(jax.jit(function))(*args)
        with open(os.path.join(out, name + ".mlirbc"), "wb") as f:
            f.write(exported.mlir_module_serialized)
        results = jax.jit(function)(*args)
        results = results if isinstance(results, tuple) else (results,)
        for i, a in enumerate(args):
            np.save(os.path.join(out, f"{name}.in{i}.npy"), np.asarray(a))
        for i, r in enumerate(results):
            np.save(os.path.join(out, f"{name}.out{i}.npy"), np.asarray(r))
        print(f"{name}: {len(exported.mlir_module_serialized)} bytes, {len(args)} inputs, {len(results)} results")
        if name == "mlp_forward" and len(sys.argv) > 2:
            from jax.extend.mlir.dialects import stablehlo
            os.makedirs(sys.argv[2], exist_ok=True)
            with open(os.path.join(sys.argv[2], "mlp_forward_plain_stablehlo.mlirbc"), "wb") as f:
                f.write(stablehlo.deserialize_portable_artifact_str(exported.mlir_module_serialized))
    if len(sys.argv) > 2:
        from jax.sharding import Mesh, NamedSharding, PartitionSpec
        mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
        sharding = NamedSharding(mesh, PartitionSpec("x"))

        def constrained(a, b):
            return jax.lax.with_sharding_constraint(a * 2.0 + b, sharding)

        x = np.arange(4, dtype=np.float32)
        sharded = jax.jit(constrained, in_shardings=(sharding, sharding), out_shardings=sharding)
        with open(os.path.join(sys.argv[2], "sharded_shardy.mlirbc"), "wb") as f:
            f.write(jax.export.export(sharded)(x, x).mlir_module_serialized)
        # A shard_map over two devices (an abstract mesh: one device is inlined away).
        two = jax.sharding.AbstractMesh((2,), ("x",))
        shard_map = jax.jit(jax.shard_map(lambda a, b: a * 2.0 + b, mesh=two,
                                          in_specs=(PartitionSpec("x"), PartitionSpec("x")), out_specs=PartitionSpec("x")))
        spec = jax.ShapeDtypeStruct((4,), np.float32)
        with open(os.path.join(sys.argv[2], "shard_map_shardy.mlirbc"), "wb") as f:
            f.write(jax.export.export(shard_map, platforms=["cpu"])(spec, spec).mlir_module_serialized)
        eigh = jax.jit(lambda a: jnp.linalg.eigh(a)[0])
        with open(os.path.join(sys.argv[2], "eigh_lapack.mlirbc"), "wb") as f:
            f.write(jax.export.export(eigh)(np.eye(3, dtype=np.float32)).mlir_module_serialized)
    return 0


if __name__ == "__main__":
    sys.exit(main())
