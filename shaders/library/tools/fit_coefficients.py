#!/usr/bin/env python3
"""Polynomial coefficients of the GLSL math library (shaders/library/hlo_*_f32/f64.glsl).

Near-minimax fits (mpmath.chebyfit at high precision) of the kernels each function reduces to,
with the smallest degree whose error, after rounding the coefficients to the target type, stays
well below half an ULP. Prints GLSL constants; the library files carry the output, so the build
never runs this (tooling only: python3 with mpmath).
"""
import mpmath as mp
import struct

mp.mp.prec = 200

def round_to(x, kind):
    if kind == 'f':
        return struct.unpack('f', struct.pack('f', float(x)))[0]
    return float(x)

def fit(name, f, a, b, kind, target, scale, max_degree=24):
    for n in range(1, max_degree + 1):
        coeffs, err = mp.chebyfit(f, [a, b], n, error=True)
        coeffs = coeffs[::-1]  # ascending powers
        rounded = [round_to(c, kind) for c in coeffs]
        # Error of the rounded polynomial, as a relative error of the function it serves.
        worst = mp.mpf(0)
        for i in range(2001):
            t = a + (b - a) * mp.mpf(i) / 2000
            p = mp.mpf(0)
            for c in reversed(rounded):
                p = p * t + mp.mpf(c)
            fv = f(t)
            worst = max(worst, abs(p - fv) * scale(t))
        if worst < target:
            return name, rounded, worst
    raise RuntimeError(f'{name}: no degree reaches {target}')

def emit(name, coeffs, worst, kind):
    ty = 'float' if kind == 'f' else 'double'
    suffix = '' if kind == 'f' else 'LF'
    print(f'// {name}: degree {len(coeffs) - 1}, contributes a relative error < {float(worst):.1e}')
    for i, c in enumerate(coeffs):
        text = repr(c) if kind == 'd' else f'{c:.9g}'
        if 'e' not in text and '.' not in text:
            text += '.0'
        print(f'const {ty} {name}{i} = {text}{suffix};')

def safe(f):
    """f with its removable singularity at 0 evaluated by a series limit."""
    def g(t):
        if abs(t) < mp.mpf(10) ** -40:
            t = mp.mpf(10) ** -40
        return f(t)
    return g

LN2_HALF = mp.log(2) / 2
S_MAX = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)   # |s| for m in [sqrt(1/2), sqrt(2))
Z_MAX = S_MAX ** 2
PIO4 = mp.pi / 4
ATAN_Z = mp.mpf(7) / 16

# (name, kernel, interval, scale: |error of the kernel| * scale = relative error it causes)
kernels = [
    # e^r = 1 + r + r^2 P(r), |r| <= ln2/2; expm1(r) = r + r^2 P(r).
    ('EXP_P', safe(lambda r: (mp.exp(r) - 1 - r) / r ** 2), -LN2_HALF, LN2_HALF,
     lambda r: r ** 2 / min(abs(mp.expm1(r)) if r != 0 else 1, mp.exp(r))),
    # log(1+f) = 2s + s R(z), R(z) = z L(z), z = s^2; relative to 2s.
    ('LOG_L', safe(lambda z: (2 * mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 2) / z), 0, Z_MAX, lambda z: z / 2),
    # sin r = r + r^3 S(r^2); cos r = 1 - r^2/2 + r^4 C(r^2), |r| <= pi/4.
    ('SIN_S', safe(lambda z: (mp.sin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z), 0, PIO4 ** 2, lambda z: z),
    ('COS_C', safe(lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z ** 2), 0, PIO4 ** 2,
     lambda z: z ** 2 / mp.cos(mp.sqrt(z))),
    # atan t = t + t^3 A(t^2), |t| <= 7/16.
    ('ATAN_A', safe(lambda z: (mp.atan(mp.sqrt(z)) / mp.sqrt(z) - 1) / z), 0, ATAN_Z ** 2, lambda z: z),
    # log(1+f) = 2s + (2/3) s^3 + s^5 T(z): the tail of the double-word logarithm of pow.
    ('LOG_T', safe(lambda z: (2 * mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 2 - 2 * z / 3) / z ** 2), 0, Z_MAX,
     lambda z: z ** 2 / 2),
]

if __name__ == '__main__':
    # Targets: far below half an ULP (2^-25 for f32, 2^-54 for f64); pow's tail needs more.
    for kind, target in (('f', mp.mpf(2) ** -27), ('d', mp.mpf(2) ** -56)):
        print(f'// ---- {"f32" if kind == "f" else "f64"} ----')
        for name, f, a, b, scale in kernels:
            t = target * (mp.mpf(2) ** -8 if name == 'LOG_T' else 1)
            n, c, w = fit(name, f, a, b, kind, t, scale)
            emit(n, c, w, kind)
