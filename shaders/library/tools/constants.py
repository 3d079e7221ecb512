#!/usr/bin/env python3
"""Split constants of the GLSL math library: multi-part ln2 and pi/2 whose leading parts have
trailing zero bits (so k * part is exact), double-word (hi + lo) constants, and the bits of 2/pi
for Payne-Hanek reduction. Tooling only; the library files carry the output."""
import mpmath as mp
import struct

mp.mp.prec = 2000

def f32(x):
    return struct.unpack('f', struct.pack('f', float(x)))[0]

def chop(x, bits):
    """x truncated to `bits` significant bits."""
    e = mp.floor(mp.log(abs(x), 2))
    scale = mp.mpf(2) ** (bits - 1 - e)
    return mp.floor(x * scale) / scale

def parts(x, chunk_bits, n, last_kind):
    out, rest = [], x
    for _ in range(n):
        p = chop(rest, chunk_bits)
        out.append(p)
        rest -= p
    out.append(mp.mpf(f32(rest)) if last_kind == 'f' else mp.mpf(float(rest)))
    return out

def show(name, v, kind):
    if kind == 'f':
        print(f'const float {name} = {mp.nstr(v, 12, strip_zeros=False)};  // {float(v).hex()}')
    else:
        print(f'const double {name} = {repr(float(v))}LF;')

ln2, pio2, pi = mp.log(2), mp.pi / 2, mp.pi
print('// f32')
a, b = parts(ln2, 16, 1, 'f')
show('HLO_LN2_HI_F', a, 'f'); show('HLO_LN2_LO_F', b, 'f')
for i, p in enumerate(parts(pio2, 12, 4, 'f')):
    show(f'HLO_PIO2_CW{i + 1}_F', p, 'f')
for name, v in (('PIO2', pio2), ('PI', pi), ('ATAN_HALF', mp.atan(0.5)), ('PIO4', mp.pi / 4),
                ('TWO_THIRDS', mp.mpf(2) / 3), ('LN2', ln2)):
    hi = mp.mpf(f32(v)); lo = mp.mpf(f32(v - hi))
    show(f'HLO_{name}_HI_F', hi, 'f'); show(f'HLO_{name}_LO_F', lo, 'f')
print('// f64')
a, b = parts(ln2, 42, 1, 'd')
show('HLO_LN2_HI_D', a, 'd'); show('HLO_LN2_LO_D', b, 'd')
for i, p in enumerate(parts(pio2, 33, 3, 'd')):
    show(f'HLO_PIO2_CW{i + 1}_D', p, 'd')
for name, v in (('PIO2', pio2), ('PI', pi), ('ATAN_HALF', mp.atan(0.5)), ('PIO4', mp.pi / 4),
                ('TWO_THIRDS', mp.mpf(2) / 3), ('LN2', ln2)):
    hi = mp.mpf(float(v)); lo = mp.mpf(float(v - hi))
    show(f'HLO_{name}_HI_D', hi, 'd'); show(f'HLO_{name}_LO_D', lo, 'd')
# The third word of ln2 for the double-double logarithm of pow.
hi = mp.mpf(float(ln2)); lo = mp.mpf(float(ln2 - hi)); show('HLO_LN2_LO2_D', mp.mpf(float(ln2 - hi - lo)), 'd')
# 2/pi: 40 words (1280 bits) after the binary point.
bits = int(mp.floor((2 / mp.pi) * mp.mpf(2) ** 1280))
words = [(bits >> (32 * (39 - i))) & 0xFFFFFFFF for i in range(40)]
print('const uint HLO_TWO_OVER_PI[40] = uint[40](')
for i in range(0, 40, 6):
    print('  ' + ', '.join(f'0x{w:08X}u' for w in words[i:i + 6]) + (',' if i + 6 < 40 else ''))
print(');')
