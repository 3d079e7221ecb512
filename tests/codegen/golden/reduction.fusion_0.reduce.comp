#version 450
#extension GL_GOOGLE_include_directive : require
// vkhlo reduction fusion_0.reduce: 16 rows of 256
// config: 1 segment(s) of 256, workgroup mode (uvec4 loads), workgroup 32, operands -> results
// fused ops:
//   stablehlo.constant -> tensor<f32> at reduction.mlir:2:3
//   stablehlo.constant -> tensor<16xf32> at reduction.mlir:3:3
//   stablehlo.multiply -> tensor<16x256xf32> at reduction.mlir:4:3
//   stablehlo.reduce -> tensor<16xf32> at reduction.mlir:5:3
//   stablehlo.divide -> tensor<16xf32> at reduction.mlir:6:3
// bindings:
//   0: in0 uint[] readonly, in0v uvec4[] readonly
//   1: in1 uint[] readonly, in1v uvec4[] readonly
//   2: in2 uint[] read-write
//   3: in3 uint[] read-write
#include "hlo_math_f32.glsl"
layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer Buffer_in0 { uint in0[]; };
layout(std430, set = 0, binding = 0) readonly buffer Buffer_in0v { uvec4 in0v[]; };
layout(std430, set = 0, binding = 1) readonly buffer Buffer_in1 { uint in1[]; };
layout(std430, set = 0, binding = 1) readonly buffer Buffer_in1v { uvec4 in1v[]; };
layout(std430, set = 0, binding = 2) restrict buffer Buffer_in2 { uint in2[]; };
layout(std430, set = 0, binding = 3) restrict buffer Buffer_in3 { uint in3[]; };
layout(push_constant) uniform PushConstants { uvec4 vkhlo_workgroup_base; } pc;
#define vkhlo_workgroup_id(pc) (gl_WorkGroupID + (pc).vkhlo_workgroup_base.xyz)
shared float sh0[32];

void main() {
  if (pc.vkhlo_workgroup_base.w == 0xffffffffu) { uint keep = in0[0] ^ in1[0] ^ in2[0] ^ in3[0]; if (keep == 0x12345678u) return; }
  precise float v0 = uintBitsToFloat((0u ^ pc.vkhlo_workgroup_base.w));
  uint g = gl_WorkGroupID.x + pc.vkhlo_workgroup_base.x;
  uint t = gl_LocalInvocationID.x;
  for (uint e = 0u; e < 1u; ++e) {
    uint o = g * 1u + e;
    uint s = 0u;
    if (o >= 16u) break;
    uint lo = s * 256u;
    uint hi = min(lo + 256u, 256u);
    uint v1 = (o * 256u);
    float acc0;
    uint m = min(32u, (hi - lo + 3u) / 4u);
    if (lo + t * 4u < hi) {
      float acc0_0;
      float acc0_1;
      float acc0_2;
      float acc0_3;
      {
        uvec4 v2 = in0v[(v1 + lo + t * 4u) >> 2u];
        uvec4 v3 = in1v[(v1 + lo + t * 4u) >> 2u];
        uint v4 = v1 + lo + t * 4u + 0u;
        precise float v5 = uintBitsToFloat(v2[0]);
        precise float v6 = uintBitsToFloat(v3[0]);
        precise float v7 = v5 * v6;
        uint v8 = v1 + lo + t * 4u + 1u;
        precise float v9 = uintBitsToFloat(v2[1]);
        precise float v10 = uintBitsToFloat(v3[1]);
        precise float v11 = v9 * v10;
        uint v12 = v1 + lo + t * 4u + 2u;
        precise float v13 = uintBitsToFloat(v2[2]);
        precise float v14 = uintBitsToFloat(v3[2]);
        precise float v15 = v13 * v14;
        uint v16 = v1 + lo + t * 4u + 3u;
        precise float v17 = uintBitsToFloat(v2[3]);
        precise float v18 = uintBitsToFloat(v3[3]);
        precise float v19 = v17 * v18;
        acc0_0 = v7;
        acc0_1 = v11;
        acc0_2 = v15;
        acc0_3 = v19;
      }
      for (uint r = lo + t * 4u + 128u; r < hi; r += 128u) {
        uint v20 = v1 + r;
        uvec4 v21 = in0v[(v20) >> 2u];
        uvec4 v22 = in1v[(v20) >> 2u];
        uint v23 = v20 + 0u;
        precise float v24 = uintBitsToFloat(v21[0]);
        precise float v25 = uintBitsToFloat(v22[0]);
        precise float v26 = v24 * v25;
        uint v27 = v20 + 1u;
        precise float v28 = uintBitsToFloat(v21[1]);
        precise float v29 = uintBitsToFloat(v22[1]);
        precise float v30 = v28 * v29;
        uint v31 = v20 + 2u;
        precise float v32 = uintBitsToFloat(v21[2]);
        precise float v33 = uintBitsToFloat(v22[2]);
        precise float v34 = v32 * v33;
        uint v35 = v20 + 3u;
        precise float v36 = uintBitsToFloat(v21[3]);
        precise float v37 = uintBitsToFloat(v22[3]);
        precise float v38 = v36 * v37;
        precise float v39 = acc0_0 + v26;
        precise float v40 = v39;
        acc0_0 = v40;
        precise float v41 = acc0_1 + v30;
        precise float v42 = v41;
        acc0_1 = v42;
        precise float v43 = acc0_2 + v34;
        precise float v44 = v43;
        acc0_2 = v44;
        precise float v45 = acc0_3 + v38;
        precise float v46 = v45;
        acc0_3 = v46;
      }
      precise float v47 = acc0_0 + acc0_1;
      precise float v48 = v47;
      acc0_0 = v48;
      precise float v49 = acc0_2 + acc0_3;
      precise float v50 = v49;
      acc0_2 = v50;
      precise float v51 = acc0_0 + acc0_2;
      precise float v52 = v51;
      acc0_0 = v52;
      acc0 = acc0_0;
      sh0[t] = acc0;
    }
    barrier();
    for (uint h = 1u; h < m; h <<= 1u) {
      if ((t & (2u * h - 1u)) == 0u && t + h < m) {
        precise float v53 = sh0[t] + sh0[t + h];
        precise float v54 = v53;
        sh0[t] = v54;
      }
      barrier();
    }
    if (t == 0u) {
      acc0 = sh0[0];
      precise float v55 = v0;
      precise float v56 = v0 + acc0;
      precise float v57 = v56;
      v55 = v57;
      precise float v58 = uintBitsToFloat(0x43800000u);
      precise float v59 = hlo_divide(v55, v58);
      uint v60 = floatBitsToUint(v55);
      in2[o] = v60;
      uint v61 = floatBitsToUint(v59);
      in3[o] = v61;
    }
  }
  if (t == 0u) {
  }
}
