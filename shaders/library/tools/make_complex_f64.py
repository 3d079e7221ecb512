#!/usr/bin/env python3
"""Writes shaders/library/hlo_complex_f64.glsl from hlo_complex_f32.glsl: the same algorithms with
double types and literals (tooling only; run after editing the f32 file, commit both)."""
import pathlib
import re

here = pathlib.Path(__file__).resolve().parent.parent
s = (here / 'hlo_complex_f32.glsl').read_text()

header_end = s.index('#ifndef HLO_COMPLEX_F32_GLSL')
header = '''// complex<f64> helpers (dvec2 = real, imaginary): the double overloads of every function of
// hlo_complex_f32.glsl (which see), generated from it by tools/make_complex_f64.py: the same
// algorithms on hlo_math_f64.glsl. Do not edit; edit the f32 file and regenerate.
//
// Needs: the Float64 capability (shaderFloat64).
'''
body = s[header_end:]
body = body.replace('HLO_COMPLEX_F32_GLSL', 'HLO_COMPLEX_F64_GLSL')
body = body.replace('#include "hlo_math_f32.glsl"', '#include "hlo_complex_f32.glsl"\n#include "hlo_math_f64.glsl"')
body = re.sub(r'\bfloat\b', 'double', body)
body = re.sub(r'\bvec2\b', 'dvec2', body)
body = re.sub(r'(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?)(?![\w.])', r'\1LF', body)
body = body.replace('hlo_inf_(', 'hlo_inf_f64_(').replace('hlo_nan_()', 'hlo_nan_f64_()').replace('hlo_ff_', 'hlo_dd_')
body = re.sub(r'\b(HLO_\w+)_F\b', r'\1_D', body)
body = body.replace('hlo_dd_mul_f_', 'hlo_dd_mul_d_').replace('hlo_log_ff_', 'hlo_log_dd_')
body = body.replace('HLO_C_EXP_LIMIT_D = 88.0LF', 'HLO_C_EXP_LIMIT_D = 709.0LF')
body = body.replace('HLO_C_LOGISTIC_LIMIT_D = 80.0LF', 'HLO_C_LOGISTIC_LIMIT_D = 700.0LF')
assert 'HLO_C_EXP_LIMIT_D = 709.0LF' in body and 'HLO_C_LOGISTIC_LIMIT_D = 700.0LF' in body
(here / 'hlo_complex_f64.glsl').write_text(header + body)
