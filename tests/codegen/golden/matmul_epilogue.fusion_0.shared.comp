#version 450
// vkhlo library kernel for 'stablehlo.dot_general' on tensor<32x64xf32> x tensor<64x48xf32> -> tensor<32x48xf32>
// dispatch: fusion_0.shared
// normalized: B=1 M=32 N=48 K=64 acc=f32 A runs 1x8 B runs 1x8
// config: generic.shared_64x64 [shared wg 16x16 tile 2x4 bk 16]
// why: B=1 M=32 N=48 K=64 f32: main tile, small M/N: tile 2x4 wg 16x16
// fused ops:
//   stablehlo.dot_general -> tensor<32x48xf32> at matmul_epilogue.mlir:3:3
//   stablehlo.add -> tensor<32x48xf32> at matmul_epilogue.mlir:5:3
//   stablehlo.maximum -> tensor<32x48xf32> at matmul_epilogue.mlir:6:3
// config: workgroup 16x16x1
// bindings:
//   0: a_buf uint[] readonly
//   1: b_buf uint[] readonly
//   2: in0 uint[] readonly
//   3: c_buf uint[] writeonly
layout(local_size_x = 16, local_size_y = 16, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer Buffer_a_buf { uint a_buf[]; };
layout(std430, set = 0, binding = 1) readonly buffer Buffer_b_buf { uint b_buf[]; };
layout(std430, set = 0, binding = 2) readonly buffer Buffer_in0 { uint in0[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Buffer_c_buf { uint c_buf[]; };
layout(push_constant) uniform PushConstants { uvec4 vkhlo_workgroup_base; } pc;
#define vkhlo_workgroup_id(pc) (gl_WorkGroupID + (pc).vkhlo_workgroup_base.xyz)
const uint BATCH = 1u, M = 32u, N = 48u, K = 64u;
shared float As[512];
shared float Bs[1024];
float ld_a(uint i) { uint r = a_buf[i]; return uintBitsToFloat(r); }
uint ix_a(uint b, uint r, uint c, out bool valid) {
  valid = true;
  return 0u + ((r) * 64u) + ((c));
}
float load_a(uint b, uint m, uint k) { bool v; return ld_a(ix_a(b, m, k, v)); }
float ld_b(uint i) { uint r = b_buf[i]; return uintBitsToFloat(r); }
uint ix_b(uint b, uint r, uint c, out bool valid) {
  valid = true;
  return 0u + ((r) * 48u) + ((c));
}
float load_b(uint b, uint k, uint n) { bool v; return ld_b(ix_b(b, k, n, v)); }
void st_c(uint i, float v) { c_buf[i] = floatBitsToUint(v); }
uint out_index(uint b, uint m, uint n) { return 0u + ((m) * 48u) + ((n)); }
uint product_index(uint b, uint m, uint n) { return 0u + ((m) * 48u) + ((n)); }
float round_result(float acc) { return acc; }

float hlo_max_f32(float a, float b) {
  if (((floatBitsToUint(a) & 0x7fffffffu) > 0x7f800000u)) return a;
  if (((floatBitsToUint(b) & 0x7fffffffu) > 0x7f800000u)) return b;
  if (a == b) return ((floatBitsToUint(a) >> 31) != 0u) ? b : a;
  return a > b ? a : b;
}
float epilogue(float acc, uint b, uint m, uint n) {
  float x = round_result(acc);
  uint oi = product_index(b, m, n);
  int v0 = int(oi % 48u);
  uint v1 = oi / 48u;
  int v2 = int(v1);
  uint v3 = uint(v0);
  uint v4 = in0[v3];
  precise float v5 = uintBitsToFloat(v4);
  precise float v6 = x + v5;
  precise float v7 = uintBitsToFloat((0u ^ pc.vkhlo_workgroup_base.w));
  precise float v8 = hlo_max_f32(v6, v7);
  return v8;
}
void store_c(uint b, uint m, uint n, float acc) { st_c(out_index(b, m, n), epilogue(acc, b, m, n)); }

void main() {
  if (pc.vkhlo_workgroup_base.w == 0xffffffffu) { uint keep = a_buf[0] ^ b_buf[0] ^ in0[0]; c_buf[0] = uint(keep); }
  uvec3 wg = gl_WorkGroupID + pc.vkhlo_workgroup_base.xyz;
  uint b = wg.z;
  uint kbeg = 0u, kend = K;
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y, tid = ty * 16u + tx;
  uint mb = wg.y * 32u, nb = wg.x * 64u;
  float c0_0 = float(0), c0_1 = float(0), c0_2 = float(0), c0_3 = float(0);
  float c1_0 = float(0), c1_1 = float(0), c1_2 = float(0), c1_3 = float(0);
  for (uint k0 = kbeg; k0 < kend; k0 += 16u) {
    for (uint e = tid; e < 512u; e += 256u) {
      uint r = e / 16u, kk = e % 16u;
      uint m = mb + r, k = k0 + kk;
      float v = load_a(b, min(m, M - 1u), min(k, K - 1u));
      As[kk * 32u + r] = (m < M && k < kend) ? v : float(0);
    }
    for (uint e = tid; e < 1024u; e += 256u) {
      uint kk = e / 64u, cc = e % 64u;
      uint k = k0 + kk, n = nb + cc;
      float v = load_b(b, min(k, K - 1u), min(n, N - 1u));
      Bs[kk * 64u + cc] = (n < N && k < kend) ? v : float(0);
    }
    barrier();
    for (uint kk = 0u; kk < 16u; ++kk) {
      float a0 = As[kk * 32u + ty + 0u];
      float a1 = As[kk * 32u + ty + 16u];
      float b0 = Bs[kk * 64u + tx + 0u];
      float b1 = Bs[kk * 64u + tx + 16u];
      float b2 = Bs[kk * 64u + tx + 32u];
      float b3 = Bs[kk * 64u + tx + 48u];
      c0_0 = fma(a0, b0, c0_0);
      c0_1 = fma(a0, b1, c0_1);
      c0_2 = fma(a0, b2, c0_2);
      c0_3 = fma(a0, b3, c0_3);
      c1_0 = fma(a1, b0, c1_0);
      c1_1 = fma(a1, b1, c1_1);
      c1_2 = fma(a1, b2, c1_2);
      c1_3 = fma(a1, b3, c1_3);
    }
    barrier();
  }
  if (mb + ty + 0u < M && nb + tx + 0u < N) store_c(b, mb + ty + 0u, nb + tx + 0u, c0_0);
  if (mb + ty + 0u < M && nb + tx + 16u < N) store_c(b, mb + ty + 0u, nb + tx + 16u, c0_1);
  if (mb + ty + 0u < M && nb + tx + 32u < N) store_c(b, mb + ty + 0u, nb + tx + 32u, c0_2);
  if (mb + ty + 0u < M && nb + tx + 48u < N) store_c(b, mb + ty + 0u, nb + tx + 48u, c0_3);
  if (mb + ty + 16u < M && nb + tx + 0u < N) store_c(b, mb + ty + 16u, nb + tx + 0u, c1_0);
  if (mb + ty + 16u < M && nb + tx + 16u < N) store_c(b, mb + ty + 16u, nb + tx + 16u, c1_1);
  if (mb + ty + 16u < M && nb + tx + 32u < N) store_c(b, mb + ty + 16u, nb + tx + 32u, c1_2);
  if (mb + ty + 16u < M && nb + tx + 48u < N) store_c(b, mb + ty + 16u, nb + tx + 48u, c1_3);
}
