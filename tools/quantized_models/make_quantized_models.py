#!/usr/bin/env python3
"""Writes the quantized models of tests/models (issue 26) from fixed-seed NumPy weights.

Each model is written twice, as StableHLO text:
  <out>/quantized_<m>.mlir        the quantized model as TFLite / AQT-style exports look:
                                  uniform_quantize of the f32 input, per-tensor quantized
                                  activations with zero points, per-channel (per output feature)
                                  i8 weights, dot_general / convolution with quantized results,
                                  bias add and relu on quantized tensors, uniform_dequantize of
                                  the logits
  <out>/quantized_<m>.float.mlir  the same model in f32: the same stored weights and biases,
                                  dequantized in the program (so its weights are bit for bit what
                                  the quantized model means), the float input not quantized, and
                                  every activation kept in f32
and beside them
  <out>/quantized_<m>.in0.npy     the input (f32)
  <out>/quantized_<m>.bound.npy   per logit, the quantization error bound (f64): how far the
                                  quantized model's result may be from the float model's

The bound is a worst-case propagation of the roundings the quantized model makes (and nothing
else). Clamping adds nothing: every activation type is calibrated on the float model's values
on this input (with a 20% margin, as post-training quantization calibrates), so each float value
lies inside its type's range, and clamping to an interval that holds the float value only moves
a result towards it.
  - quantizing the input: |x - dequantize(quantize(x))| <= s_x / 2;
  - a contraction (dot or convolution) whose input elements are off by at most e_in (an array):
    the exact integer sum is the real contraction of the dequantized operands, so an output is
    off by at most the same contraction of e_in with |w|; requantizing to s_out adds s_out / 2;
  - bias add (dequantize, add, quantize to s_add) adds s_add / 2;
  - relu keeps the type, is 1-Lipschitz and is exact on a representable value: adds nothing,
    and where the float value z <= -e both sides are 0: the error there is max(0, z + e);
  - float arithmetic (both models compute in f32: the float model's sums, the 24-bit
    requantization multiplier, the dequantize products) adds at most (n + 8) * 2^-24 times the
    sum of the magnitudes it combines (the standard bound for an n-term f32 sum; n the number
    of terms per output), computed here from the float model's |activations| plus their own
    bound.
Weights and biases contribute no error: the float model uses the same dequantized values.

This end-to-end bound is a worst case (every rounding aligned with the signs of the weights
after it), so it grows with depth and fan-in. The tight check is per layer:
  <out>/quantized_<m>.layer_bounds.npy  per layer, the bound on |quantized layer - float layer|
                                        when the float layer (@layer<i> of the float program)
                                        takes the quantized model's own input to that layer:
                                        half a step of the contraction's result type, half a
                                        step of the bias add's, and the f32 slack above.

Usage: /work/main/.venv/bin/python tools/quantized_models/make_quantized_models.py tests/models/programs
"""
import os
import sys

import numpy as np

U = 2.0 ** -24  # f32 unit roundoff


def f32(v):
    return float(np.float32(v))


def fmt_scale(s):
    # repr of the f32 value as a double: parses back to the same f32.
    return repr(f32(s))


def dense(a):
    """A dense<...> literal of an integer array."""
    def rec(x):
        if x.ndim == 0:
            return str(int(x))
        return "[" + ", ".join(rec(e) for e in x) + "]"
    return "dense<" + rec(np.asarray(a)) + ">"


def shape_str(shape, elem):
    return "tensor<" + "x".join(str(d) for d in shape) + ("x" if shape else "") + elem + ">"


class QType:
    """!quant.uniform<storage:f32, scale:zp> (per tensor) or per axis."""

    def __init__(self, storage, scale, zp, axis=None):
        self.storage, self.axis = storage, axis
        self.scale = np.asarray(scale, dtype=np.float32)
        self.zp = np.asarray(zp, dtype=np.int64)
        self.lo, self.hi = {"i8": (-128, 127), "u8": (0, 255), "i32": (-2**31, 2**31 - 1)}[storage]

    def elem(self):
        if self.axis is None:
            return f"!quant.uniform<{self.storage}:f32, {fmt_scale(self.scale)}:{int(self.zp)}>"
        parts = ", ".join(f"{fmt_scale(s)}:{int(z)}" for s, z in zip(self.scale, self.zp))
        return f"!quant.uniform<{self.storage}:f32:{self.axis}, {{{parts}}}>"

    def storage_elem(self):
        return {"i8": "i8", "u8": "ui8", "i32": "i32"}[self.storage]

    def dequantize(self, q):
        """What uniform_dequantize computes, in f32 (per axis: along self.axis)."""
        s, z = self.scale, self.zp
        if self.axis is not None:
            shape = [1] * q.ndim
            shape[self.axis] = -1
            s, z = s.reshape(shape), z.reshape(shape)
        return ((q.astype(np.int64) - z).astype(np.float32) * s).astype(np.float32)

    def quantize(self, x):
        assert self.axis is None
        q = np.rint(np.float32(x) / self.scale) + self.zp
        assert q.min() >= self.lo and q.max() <= self.hi, "value outside the storage range"
        return q.astype(np.int64)


def calibrated(storage, values, margin=1.3):
    """A per-tensor type covering values * margin (and 0) without clamping."""
    lo_v = min(float(values.min()), 0.0) * margin
    hi_v = max(float(values.max()), 0.0) * margin
    lo, hi = {"i8": (-128, 127), "u8": (0, 255)}[storage]
    scale = f32((hi_v - lo_v) / (hi - lo))
    zp = int(np.clip(np.rint(lo - lo_v / scale), lo, hi))
    return QType(storage, scale, zp)


def per_channel_weights(rng, shape, axis, fan_in, asymmetric):
    """i8 weights with one scale (and zero point) per output channel along `axis`."""
    n = shape[axis]
    scale = (rng.uniform(0.5, 1.5, n) / np.sqrt(fan_in) / 64).astype(np.float32)
    zp = rng.integers(-6, 7, n) if asymmetric else np.zeros(n, np.int64)
    q = rng.integers(-100, 101, shape)
    bshape = [1] * len(shape)
    bshape[axis] = -1
    q = np.clip(q + zp.reshape(bshape), -128, 127)
    return q, QType("i8", scale, zp, axis)


class Writer:
    """Builds the two programs side by side, one step at a time."""

    def __init__(self):
        self.q, self.f = [], []
        self.n = 0

    def name(self, base):
        self.n += 1
        return f"%{base}{self.n}"

    def const(self, q, qt):
        """A stored constant: its quantized form and its dequantized f32 form."""
        shape = q.shape
        s = self.name("c")
        line = f"{s} = stablehlo.constant {dense(q)} : {shape_str(shape, qt.storage_elem())}"
        vq, vf = self.name("q"), self.name("f")
        for out in (self.q, self.f):
            out.append(line)
        self.q.append(f"{vq} = stablehlo.bitcast_convert {s} : ({shape_str(shape, qt.storage_elem())}) -> "
                      f"{shape_str(shape, qt.elem())}")
        self.f.append(f"{vq} = stablehlo.bitcast_convert {s} : ({shape_str(shape, qt.storage_elem())}) -> "
                      f"{shape_str(shape, qt.elem())}")
        self.f.append(f"{vf} = stablehlo.uniform_dequantize {vq} : ({shape_str(shape, qt.elem())}) -> "
                      f"{shape_str(shape, 'f32')}")
        return vq, vf


def bias_add(w, v_q, v_f, shape, qt_in, bias_q, bias_qt, qt_out, bcast_dims):
    """Broadcast the per-tensor quantized bias and add it (dequantize-add-quantize)."""
    bq, bf = w.const(bias_q, bias_qt)
    bshape = bias_q.shape
    bbq, bbf = w.name("bq"), w.name("bf")
    dims = ", ".join(str(d) for d in bcast_dims)
    w.q.append(f"{bbq} = stablehlo.broadcast_in_dim {bq}, dims = [{dims}] : ({shape_str(bshape, bias_qt.elem())}) -> "
               f"{shape_str(shape, bias_qt.elem())}")
    w.f.append(f"{bbf} = stablehlo.broadcast_in_dim {bf}, dims = [{dims}] : ({shape_str(bshape, 'f32')}) -> "
               f"{shape_str(shape, 'f32')}")
    aq, af = w.name("aq"), w.name("af")
    w.q.append(f"{aq} = stablehlo.add {v_q}, {bbq} : ({shape_str(shape, qt_in.elem())}, {shape_str(shape, bias_qt.elem())}) -> "
               f"{shape_str(shape, qt_out.elem())}")
    w.f.append(f"{af} = stablehlo.add {v_f}, {bbf} : {shape_str(shape, 'f32')}")
    return aq, af


def relu(w, v_q, v_f, shape, qt):
    zq, zf = w.name("zq"), w.name("zf")
    zero_stored = int(qt.zp)
    w.q.append(f"{zq}s = stablehlo.constant dense<{zero_stored}> : {shape_str(shape, qt.storage_elem())}")
    w.q.append(f"{zq} = stablehlo.bitcast_convert {zq}s : ({shape_str(shape, qt.storage_elem())}) -> {shape_str(shape, qt.elem())}")
    w.f.append(f"{zf} = stablehlo.constant dense<0.0> : {shape_str(shape, 'f32')}")
    rq, rf = w.name("rq"), w.name("rf")
    w.q.append(f"{rq} = stablehlo.maximum {v_q}, {zq} : {shape_str(shape, qt.elem())}")
    w.f.append(f"{rf} = stablehlo.maximum {v_f}, {zf} : {shape_str(shape, 'f32')}")
    return rq, rf


def relu_error(z, e):
    """The error bound after relu of a value whose float counterpart is z, off by at most e:
    relu is 1-Lipschitz, and where z <= -e both are clamped to 0 (no error)."""
    return np.where(z >= 0, e, np.clip(z + e, 0, None))


def float_slack(n_terms, magnitude):
    return (n_terms + 8) * U * magnitude


def conv_nhwc(x, wt, stride, pad):
    """Float64 convolution, NHWC x HWIO, for calibration and bounds."""
    n, h, wd, c = x.shape
    kh, kw, ci, co = wt.shape
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, oh, ow, co))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, i:i + stride * oh:stride, j:j + stride * ow:stride, :]
            out += np.einsum("nhwc,co->nhwo", patch, wt[i, j])
    return out


def contraction_layer(w, kind, v_q, v_f, qt_in, in_shape, e_in, mag_in, x_float, rng, cout, asym, spec):
    """One dense or conv layer + bias + relu (relu optional). Returns the new state."""
    if kind == "dense":
        k = in_shape[-1]
        wq, wqt = per_channel_weights(rng, (k, cout), 1, k, asym)
        wf = wqt.dequantize(wq).astype(np.float64)
        y = x_float @ wf
        out_shape = (in_shape[0], cout)
        prop = np.broadcast_to(e_in, in_shape) @ np.abs(wf)  # the input's error through |w|
        n_terms = k
        mag = mag_in @ np.abs(wf)
    else:
        kh, stride, pad = spec
        ci = in_shape[-1]
        wq, wqt = per_channel_weights(rng, (kh, kh, ci, cout), 3, kh * kh * ci, asym)
        wf = wqt.dequantize(wq).astype(np.float64)
        y = conv_nhwc(x_float, wf, stride, pad)
        out_shape = y.shape
        prop = conv_nhwc(np.broadcast_to(e_in, in_shape), np.abs(wf), stride, pad)
        n_terms = kh * kh * ci
        mag = conv_nhwc(mag_in, np.abs(wf), stride, pad)
    bias_vals = rng.uniform(-0.3, 0.3, cout) * max(float(np.abs(y).max()), 1e-3)
    # Activation types are calibrated on the float values (20% margin), as post-training
    # quantization does: the float values lie inside their range, so clamping never moves a
    # result away from them (the bound holds with clamping).
    qt_acc = calibrated(qt_in.storage, y, margin=1.2)
    bias_qt = calibrated(qt_in.storage, bias_vals, margin=1.05)  # add takes one storage type
    bias_q = bias_qt.quantize(bias_vals)
    b = bias_qt.dequantize(bias_q).astype(np.float64)
    z = y + b
    qt_add = calibrated(qt_in.storage, z, margin=1.2)
    # Storage ranges hold with the error margin too (checked on the float values +- the bound).
    wq_v, wf_v = w.const(wq, wqt)
    dq, df = w.name("dq"), w.name("df")
    if kind == "dense":
        w.q.append(f"{dq} = stablehlo.dot_general {v_q}, {wq_v}, contracting_dims = [1] x [0] : "
                   f"({shape_str(in_shape, qt_in.elem())}, {shape_str(wq.shape, wqt.elem())}) -> {shape_str(out_shape, qt_acc.elem())}")
        w.f.append(f"{df} = stablehlo.dot_general {v_f}, {wf_v}, contracting_dims = [1] x [0] : "
                   f"({shape_str(in_shape, 'f32')}, {shape_str(wq.shape, 'f32')}) -> {shape_str(out_shape, 'f32')}")
        bdims = [1]
    else:
        kh, stride, pad = spec
        conv = (f"dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [{stride}, {stride}], "
                f"pad = [[{pad}, {pad}], [{pad}, {pad}]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}}")
        w.q.append(f"{dq} = stablehlo.convolution({v_q}, {wq_v}) {conv} : "
                   f"({shape_str(in_shape, qt_in.elem())}, {shape_str(wq.shape, wqt.elem())}) -> {shape_str(out_shape, qt_acc.elem())}")
        w.f.append(f"{df} = stablehlo.convolution({v_f}, {wf_v}) {conv} : "
                   f"({shape_str(in_shape, 'f32')}, {shape_str(wq.shape, 'f32')}) -> {shape_str(out_shape, 'f32')}")
        bdims = [len(out_shape) - 1]
    # Error after the contraction and requantization, then after the bias add (per channel), as
    # arrays of the output's shape: propagated from the input's error (end to end), and the
    # layer's own roundings alone (the per-layer check, where the float layer takes the quantized
    # model's activations as its input).
    own = float(qt_acc.scale) / 2 + float(qt_add.scale) / 2
    slack = float_slack(n_terms, mag + prop) + float_slack(4, np.abs(z) + prop + own)
    e_out = prop + own + slack
    for qt, vals in ((qt_acc, y), (qt_add, z)):
        assert vals.min() / qt.scale + qt.zp >= qt.lo and vals.max() / qt.scale + qt.zp <= qt.hi
    aq, af = bias_add(w, dq, df, out_shape, qt_acc, bias_q, bias_qt, qt_add, bdims)
    return aq, af, qt_add, out_shape, e_out, z, own + float(np.max(slack))


class Layers:
    """The float model's layers as functions of their own (@layer<i>), each taking the previous
    layer's activation, and the quantized model's activations as extra results."""

    def __init__(self, w):
        self.w, self.funcs, self.outputs, self.bounds = w, [], [], []

    def begin(self, v_f, shape):
        self.start, self.arg, self.arg_shape = len(self.w.f), v_f, shape

    def end(self, v_q, v_f, shape, qt, bound, first_input_qt=None):
        body = self.w.f[self.start:]
        i = len(self.funcs) + 1
        arg = self.arg
        if first_input_qt is not None:
            # The first layer takes the float input and quantizes it as the quantized model does.
            arg = "%x0"
            t = shape_str(self.arg_shape, first_input_qt.elem())
            body = [f"%xfq = stablehlo.uniform_quantize %x0 : ({shape_str(self.arg_shape, 'f32')}) -> {t}",
                    f"{self.arg} = stablehlo.uniform_dequantize %xfq : ({t}) -> {shape_str(self.arg_shape, 'f32')}"] + body
        lines = [f"func.func @layer{i}({arg}: {shape_str(self.arg_shape, 'f32')}) -> {shape_str(shape, 'f32')} {{"]
        lines += ["  " + l for l in body] + [f"  return {v_f} : {shape_str(shape, 'f32')}", "}"]
        self.funcs.append("\n".join(lines))
        self.outputs.append((v_q, shape, qt))
        self.bounds.append(bound)


def module(header, w, layers, in_shape, out_shape, v_q_out, v_f_out, out_qt, input_qt):
    """The quantized program (@main: logits, then each hidden layer's dequantized activation)
    and the float one (@main: logits; @layer<i>: one layer)."""
    qbody = [f"%xq = stablehlo.uniform_quantize %x : ({shape_str(in_shape, 'f32')}) -> {shape_str(in_shape, input_qt.elem())}"]
    qbody += w.q
    results = [("%y", out_shape)]
    qbody.append(f"%y = stablehlo.uniform_dequantize {v_q_out} : ({shape_str(out_shape, out_qt.elem())}) -> "
                 f"{shape_str(out_shape, 'f32')}")
    for i, (v_q, shape, qt) in enumerate(layers.outputs[:-1], start=1):
        qbody.append(f"%a{i} = stablehlo.uniform_dequantize {v_q} : ({shape_str(shape, qt.elem())}) -> {shape_str(shape, 'f32')}")
        results.append((f"%a{i}", shape))

    def text(body, results, extra):
        lines = [f"// {l}" for l in header]
        types = ", ".join(shape_str(s, "f32") for _, s in results)
        lines.append(f"func.func @main(%x: {shape_str(in_shape, 'f32')}) -> ({types}) {{")
        lines += ["  " + l for l in body]
        lines.append(f"  return {', '.join(v for v, _ in results)} : {types}")
        lines.append("}")
        return "\n".join(lines + extra) + "\n"

    return text(qbody, results, []), text(list(w.f), [(v_f_out, out_shape)], layers.funcs)


def mlp(rng):
    batch, d_in, d_hidden, d_out = 16, 64, 128, 10
    x = rng.uniform(-1, 1, (batch, d_in)).astype(np.float32)
    qx = QType("i8", f32(2.2 / 255), -1)
    x_deq_err = float(qx.scale) / 2 + 2 * U * np.abs(x).max()
    qx.quantize(x)
    w = Writer()
    layers = Layers(w)
    layers.begin("%x", x.shape)
    h_q, h_f, qt_h, shape, e, z, own = contraction_layer(
        w, "dense", "%xq", "%x", qx, (batch, d_in), x_deq_err, np.abs(x).astype(np.float64) + x_deq_err,
        x.astype(np.float64), rng, d_hidden, asym=False, spec=None)
    h_q, h_f = relu(w, h_q, h_f, shape, qt_h)
    layers.end(h_q, h_f, shape, qt_h, own, first_input_qt=qx)
    h = np.maximum(z, 0)
    layers.begin(h_f, shape)
    o_q, o_f, qt_o, shape, e, z, own = contraction_layer(
        w, "dense", h_q, h_f, qt_h, shape, relu_error(z, e), np.abs(h) + e, h, rng, d_out, asym=True, spec=None)
    layers.end(o_q, o_f, shape, qt_o, own)
    header = ["Quantized MLP 64 -> 128 -> 10, batch 16 (tools/quantized_models/make_quantized_models.py):",
              "i8 activations with zero points, per-channel i8 weights (layer 2 with zero points), relu."]
    qtext, ftext = module(header, w, layers, (batch, d_in), shape, o_q, o_f, qt_o, qx)
    bound = np.broadcast_to(e, shape).astype(np.float64)
    return x, qtext, ftext, bound, np.array(layers.bounds)


def cnn(rng):
    x = rng.uniform(-1, 1, (1, 16, 16, 3)).astype(np.float32)
    qx = QType("u8", f32(2.2 / 255), 128)
    x_deq_err = float(qx.scale) / 2 + 2 * U * np.abs(x).max()
    qx.quantize(x)
    w = Writer()
    layers = Layers(w)
    v_q, v_f, qt, shape = "%xq", "%x", qx, x.shape
    e_in, mag, act = x_deq_err, np.abs(x).astype(np.float64) + x_deq_err, x.astype(np.float64)
    for cout, stride in ((8, 1), (16, 2)):
        layers.begin(v_f, shape)
        v_q, v_f, qt, shape, e, z, own = contraction_layer(
            w, "conv", v_q, v_f, qt, shape, e_in, mag, act, rng, cout, asym=False, spec=(3, stride, 1))
        v_q, v_f = relu(w, v_q, v_f, shape, qt)
        layers.end(v_q, v_f, shape, qt, own, first_input_qt=qx if cout == 8 else None)
        act = np.maximum(z, 0)
        e_in = relu_error(z, e)
        mag = np.abs(act) + e
    layers.begin(v_f, shape)
    flat = (1, int(np.prod(shape[1:])))
    rq, rf = w.name("rsq"), w.name("rsf")
    w.q.append(f"{rq} = stablehlo.reshape {v_q} : ({shape_str(shape, qt.elem())}) -> {shape_str(flat, qt.elem())}")
    w.f.append(f"{rf} = stablehlo.reshape {v_f} : ({shape_str(shape, 'f32')}) -> {shape_str(flat, 'f32')}")
    o_q, o_f, qt_o, oshape, e, z, own = contraction_layer(
        w, "dense", rq, rf, qt, flat, e_in.reshape(flat), mag.reshape(flat), act.reshape(flat), rng, 10, asym=False, spec=None)
    layers.end(o_q, o_f, oshape, qt_o, own)
    header = ["Quantized CNN (tools/quantized_models/make_quantized_models.py): 1x16x16x3 input quantized to u8,",
              "conv 3x3 -> 8 (pad 1), relu, conv 3x3 stride 2 -> 16 (pad 1), relu, dense 1024 -> 10;",
              "u8 activations with zero points, per-output-channel i8 weights."]
    qtext, ftext = module(header, w, layers, x.shape, oshape, o_q, o_f, qt_o, qx)
    bound = np.broadcast_to(e, oshape).astype(np.float64)
    return x, qtext, ftext, bound, np.array(layers.bounds)


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, make, seed in (("mlp", mlp, 26), ("cnn", cnn, 27)):
        x, qtext, ftext, bound, layer_bounds = make(np.random.default_rng(seed))
        stem = os.path.join(out, f"quantized_{name}")
        with open(stem + ".mlir", "w") as f:
            f.write(qtext)
        with open(stem + ".float.mlir", "w") as f:
            f.write(ftext)
        np.save(stem + ".in0.npy", x)
        np.save(stem + ".bound.npy", bound)
        np.save(stem + ".layer_bounds.npy", layer_bounds)
        print(f"{stem}: end-to-end bound {bound.min():.4g}..{bound.max():.4g}, per layer {layer_bounds}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/models/programs")
