#!/usr/bin/env python3
"""Exports the five real-model benchmarks of docs/benchmarks.md ("Real models") as a JAX user
would ship them to vkhlo: `jax.jit(f).lower(*args).as_text()`, weights as arguments, float32.

  <out>/<model>.mlir          the StableHLO text JAX lowers to
  <out>/<model>.in<i>.npy     the arguments, in order (seeded, so every run writes the same)
  <out>/<model>.out<i>.npy    JAX's results on its CPU backend
  <out>/<model>.flops         the model's multiply-add FLOPs (2 per MAC) of its dots and convolutions

Models (the sizes of issue 24):
  mlp         forward, batch 64, 784-1024-1024-10, relu
  mlp_train   its SGD step: value_and_grad of softmax cross-entropy, parameters updated
  cnn         ResNet-style, 8x32x32x3 NHWC, 3x3 convs with 16/32/64 channels, batch norm
              (inference: running statistics as arguments), relu, residual adds, global
              average pool, dense 64->10
  transformer encoder block, batch 4, seq 128, d 256, 4 heads, pre-layer-norm, GELU MLP 1024
  lstm        LSTM over 64 steps with lax.scan, batch 16, input 128, hidden 256

Usage: .venv/bin/python tools/models/export_models.py OUT_DIR [--scale=small]
  --scale=small writes the same models at a tenth of the work (for quick checks).
"""
import os
import sys

import numpy as np


def build(jax, jnp, small):
    lax = jax.lax
    rng = np.random.default_rng(24)

    def normal(*shape, scale=None):
        fan_in = shape[0] if len(shape) > 1 else 1
        if len(shape) == 4:
            fan_in = shape[0] * shape[1] * shape[2]
        s = scale if scale is not None else 1.0 / np.sqrt(fan_in)
        return (rng.standard_normal(shape) * s).astype(np.float32)

    out = {}

    # --- MLP and its training step ---------------------------------------------------------
    batch, hidden = (16, 256) if small else (64, 1024)
    w1, b1 = normal(784, hidden), normal(hidden, scale=0.1)
    w2, b2 = normal(hidden, hidden), normal(hidden, scale=0.1)
    w3, b3 = normal(hidden, 10), normal(10, scale=0.1)
    x = normal(batch, 784, scale=1.0)
    labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)]

    def mlp_apply(params, x):
        w1, b1, w2, b2, w3, b3 = params
        h = jnp.maximum(x @ w1 + b1, 0.0)
        h = jnp.maximum(h @ w2 + b2, 0.0)
        return h @ w3 + b3

    def mlp(w1, b1, w2, b2, w3, b3, x):
        return mlp_apply((w1, b1, w2, b2, w3, b3), x)

    def mlp_train(w1, b1, w2, b2, w3, b3, x, y):
        def loss(params):
            logits = mlp_apply(params, x)
            return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))
        params = (w1, b1, w2, b2, w3, b3)
        value, grads = jax.value_and_grad(loss)(params)
        return (value,) + tuple(p - 0.01 * g for p, g in zip(params, grads))

    mlp_flops = 2 * batch * (784 * hidden + hidden * hidden + hidden * 10)
    out["mlp"] = (mlp, (w1, b1, w2, b2, w3, b3, x), mlp_flops)
    out["mlp_train"] = (mlp_train, (w1, b1, w2, b2, w3, b3, x, labels), 3 * mlp_flops)

    # --- CNN ----------------------------------------------------------------------------------
    n, hw = (2, 16) if small else (8, 32)
    chans = [16, 32, 64]
    cnn_args = [normal(n, hw, hw, 3, scale=1.0)]
    flops = 0

    def conv_params(cin, cout):
        return [normal(3, 3, cin, cout), normal(cout, scale=0.1), normal(cout, scale=0.1),
                (0.5 + rng.random(cout)).astype(np.float32), (0.5 + rng.random(cout)).astype(np.float32),
                normal(cout, scale=0.1)]  # w, mean, beta, gamma, var, (unused bias slot -> beta2)

    layout = []  # (cin, cout, size) of each conv
    cin, size = 3, hw
    for c in chans:
        layout += [(cin, c, size), (c, c, size)]  # stem/transition conv, then the residual conv
        cin = c
        size //= 2
    for (ci, co, s) in layout:
        w, mean, beta, gamma, var, _ = conv_params(ci, co)
        cnn_args += [w, mean, var, gamma, beta]
        flops += 2 * n * s * s * 9 * ci * co
    wd, bd = normal(chans[-1], 10), normal(10, scale=0.1)
    cnn_args += [wd, bd]
    flops += 2 * n * chans[-1] * 10

    def conv_bn_relu(x, w, mean, var, gamma, beta, residual=None):
        y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = (y - mean) * (gamma * lax.rsqrt(var + 1e-5)) + beta
        if residual is not None:
            y = y + residual
        return jnp.maximum(y, 0.0)

    def cnn(*args):
        x = args[0]
        p = list(args[1:])
        for stage in range(len(chans)):
            x = conv_bn_relu(x, *p[:5]); p = p[5:]
            x = conv_bn_relu(x, *p[:5], residual=x); p = p[5:]
            if stage + 1 < len(chans):
                x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        x = jnp.mean(x, axis=(1, 2))
        return x @ p[0] + p[1]

    out["cnn"] = (cnn, tuple(cnn_args), flops)

    # --- Transformer encoder block -----------------------------------------------------------
    b, s, d, heads, ff = (1, 32, 64, 4, 256) if small else (4, 128, 256, 4, 1024)
    tx = normal(b, s, d, scale=1.0)
    t_args = [tx, (1 + 0.1 * normal(d, scale=1.0)), normal(d, scale=0.1),
              normal(d, d), normal(d, d), normal(d, d), normal(d, d),
              (1 + 0.1 * normal(d, scale=1.0)), normal(d, scale=0.1),
              normal(d, ff), normal(ff, scale=0.1), normal(ff, d), normal(d, scale=0.1)]

    def layer_norm(x, g, beta):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
        return (x - mu) * lax.rsqrt(var + 1e-6) * g + beta

    def transformer(x, g1, be1, wq, wk, wv, wo, g2, be2, wf1, bf1, wf2, bf2):
        h = layer_norm(x, g1, be1)
        def split(t):
            return t.reshape(b, s, heads, d // heads).transpose(0, 2, 1, 3)
        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        att = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(d // heads), axis=-1)
        o = (att @ v).transpose(0, 2, 1, 3).reshape(b, s, d)
        x = x + o @ wo
        h = layer_norm(x, g2, be2)
        return x + jax.nn.gelu(h @ wf1 + bf1) @ wf2 + bf2

    t_flops = 2 * b * s * (4 * d * d + 2 * d * ff) + 2 * 2 * b * s * s * d
    out["transformer"] = (transformer, tuple(t_args), t_flops)

    # --- LSTM -------------------------------------------------------------------------------
    lb, steps, din, hid = (4, 16, 32, 64) if small else (16, 64, 128, 256)
    l_args = (normal(steps, lb, din, scale=1.0), normal(din, 4 * hid), normal(hid, 4 * hid),
              normal(4 * hid, scale=0.1), np.zeros((lb, hid), np.float32), np.zeros((lb, hid), np.float32))

    def lstm(xs, wx, wh, bias, h0, c0):
        def step(carry, x):
            h, c = carry
            z = x @ wx + h @ wh + bias
            i, f, g, o = jnp.split(z, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), None
        (h, c), _ = lax.scan(step, (h0, c0), xs)
        return h, c

    out["lstm"] = (lstm, l_args, 2 * steps * lb * (din + hid) * 4 * hid)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    small = "--scale=small" in sys.argv[1:]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    folder = args[0]
    os.makedirs(folder, exist_ok=True)
    for name, (fn, fargs, flops) in build(jax, jnp, small).items():
        jitted = jax.jit(fn)
        text = jitted.lower(*fargs).as_text()
        with open(os.path.join(folder, name + ".mlir"), "w") as f:
            f.write(text)
        results = jitted(*fargs)
        results = results if isinstance(results, tuple) else (results,)
        for i, a in enumerate(fargs):
            np.save(os.path.join(folder, f"{name}.in{i}.npy"), np.asarray(a))
        for i, r in enumerate(results):
            np.save(os.path.join(folder, f"{name}.out{i}.npy"), np.asarray(r))
        with open(os.path.join(folder, name + ".flops"), "w") as f:
            f.write(f"{flops}\n")
        print(f"{name}: {len(text)} bytes of StableHLO, {len(fargs)} arguments, {flops / 1e6:.1f} MFLOP")
    return 0


if __name__ == "__main__":
    sys.exit(main())
