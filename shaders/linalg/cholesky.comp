// stablehlo.cholesky (lower or upper, batch dimensions, f32/f64/narrow floats/complex), blocked
// and left-looking, with the interpreter's rounding (src/interp/library_linalg.cc, as XLA's
// Cholesky expander): l[j][j] = sqrt(a[j][j] - dot(l[j][:j], conj(l[j][:j]))) and l[i][j] =
// (a[i][j] - dot(l[i][:j], conj(l[j][:j]))) / l[j][j], each dot a chain of products then sums in
// index order, correctly rounded sqrt and division. Blocking does not reorder those chains, it
// splits them. For the block column [j0, j1) (push words; NB columns):
//   CHOL_UPDATE  (many workgroups, register tiles; skipped for the first block): the dots' first
//                part, over k < j0, for every element of the block column on or below the
//                diagonal (a GEMM-like product of the finished columns with themselves); then
//                its first workgroup factors the diagonal block, column by column, continuing
//                each dot over j0 <= k < j;
//   CHOL_PANEL   (one invocation per row below the block): the rows below it likewise;
//   CHOL_SMALL   (matrices of up to 16: one invocation per matrix, no barriers) all of it;
//   CHOL_WRITE   the result: l on its triangle (conj(l) transposed for upper), zero off it.
// So the result is the interpreter's bit for bit. Only the LOWER (upper) triangle of a is read.
// A matrix that is not positive definite gives NaN from the first negative pivot on.
//
// The factor lives in the workspace ws in the arithmetic type, column-major per matrix
// (ws[j * LD + i] = l[i][j]), so that invocations of neighbouring rows read neighbouring words.
// Defines: M, LD (M rounded up to 8), NB, BATCH, GROUP (sizes as uint), LOWER; CHOL_VEC (T float:
// the update reads the workspace as uvec4 through wsv, 8 x 8 tiles; otherwise 4 x 4 tiles of
// rows 8 apart); CHOL_UPDATE_TILES (more than one block: the update has work); load_in0 reads a.

#include "linalg/linalg_types.glsl"

#if !CHOL_WRITE
// l[i][j] of this matrix (column-major), and h(i, k), i >= k: the lower triangle of the
// Hermitian matrix a stands for.
uint wb, a_base;
T L(uint i, uint j) { return ws_ld(wb + j * LD + i); }
void SetL(uint i, uint j, T v) { ws_st(wb + j * LD + i, v); }
T H(uint i, uint k) { return LOWER ? load_in0(a_base + i * M + k) : t_conj(load_in0(a_base + k * M + i)); }
#define CHOLESKY_MAIN_START(batch_index) \
  VKHLO_KEEP_BINDINGS \
  uint bi = batch_index; \
  wb = bi * LD * M; a_base = bi * M * M; \
  uint j0 = pc.j0, j1 = pc.j1;
#endif

#if CHOL_UPDATE
// The update's register tile: each invocation of the 8 x 8 workgroup computes NB / 8 rows by
// NB / 8 columns of the block column (rows j0 + base + ROW(a), columns j0 + COL(b)), so that the
// first workgroup's tile is the diagonal block; one variable per accumulator (llvmpipe keeps
// private arrays in memory and indexes them lane by lane).
// ROW and COL end a sum (`j0 + base + ROW(a)`) and have no parentheses, so that the sum
// associates left to right (a parenthesized term would cost one more add per index).
#if CHOL_VEC
#define ROW(a) 8u * x + (a)
#define COL(b) 8u * y + (b)
#define FOR_TILE(F) F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7)
#define FOR_TILE_COLS(F, a) F(a, 0) F(a, 1) F(a, 2) F(a, 3) F(a, 4) F(a, 5) F(a, 6) F(a, 7)
#else
#define ROW(a) x + 8u * (a)
#define COL(b) y + 8u * (b)
#define FOR_TILE(F) F(0) F(1) F(2) F(3)
#define FOR_TILE_COLS(F, a) F(a, 0) F(a, 1) F(a, 2) F(a, 3)
#endif
#define ROW_INDEX(a) uint r##a = min(j0 + base + ROW(a), M - 1u);
#define COL_INDEX(b) uint c##b = min(j0 + COL(b), M - 1u);
#define ACC_ZERO(a, b) T acc##a##_##b = t_zero();
#define ACC_ZERO_ROW(a) FOR_TILE_COLS(ACC_ZERO, a)
#define ACC_MULADD(a, b) acc##a##_##b = t_muladd(acc##a##_##b, li##a, lj##b);
#define ACC_MULADD_ROW(a) FOR_TILE_COLS(ACC_MULADD, a)
#define LOAD_ROW(a) T li##a = L(r##a, kk);
#define LOAD_COL(b) T lj##b = t_conj(L(c##b, kk));
#define ACC_STORE(a, b) { uint j = j0 + COL(b); if (i < M && j < j1 && j <= i) SetL(i, j, acc##a##_##b); }
#define ACC_STORE_ROW(a) { uint i = j0 + base + ROW(a); FOR_TILE_COLS(ACC_STORE, a) }

void main() {
  CHOLESKY_MAIN_START(vkhlo_workgroup_id(pc).z)
  uint base = vkhlo_workgroup_id(pc).x * NB, x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  if (j0 > 0u) {
#if CHOL_UPDATE_TILES
    // The dots over k < j0 of every element of the tile on or below the diagonal.
#if CHOL_VEC
    // Tiles beyond LD read the last 8 rows instead (their results are never stored).
    uint r0 = min(j0 + base + 8u * x, LD - 8u), c0 = min(j0 + 8u * y, LD - 8u);
#else
    FOR_TILE(ROW_INDEX)
    FOR_TILE(COL_INDEX)
#endif
    FOR_TILE(ACC_ZERO_ROW)
    for (uint kk = 0u; kk < j0; ++kk) {
#if CHOL_VEC
      // An invocation's 8 rows (and columns) are consecutive: two uvec4 each (LD is a multiple of 8).
      uint ri = (wb + kk * LD + r0) >> 2u, ci = (wb + kk * LD + c0) >> 2u;
      uvec4 ra = wsv[ri], rb = wsv[ri + 1u], ca = wsv[ci], cb = wsv[ci + 1u];
      T li0 = uintBitsToFloat(ra[0]); T li1 = uintBitsToFloat(ra[1]); T li2 = uintBitsToFloat(ra[2]); T li3 = uintBitsToFloat(ra[3]);
      T li4 = uintBitsToFloat(rb[0]); T li5 = uintBitsToFloat(rb[1]); T li6 = uintBitsToFloat(rb[2]); T li7 = uintBitsToFloat(rb[3]);
      T lj0 = uintBitsToFloat(ca[0]); T lj1 = uintBitsToFloat(ca[1]); T lj2 = uintBitsToFloat(ca[2]); T lj3 = uintBitsToFloat(ca[3]);
      T lj4 = uintBitsToFloat(cb[0]); T lj5 = uintBitsToFloat(cb[1]); T lj6 = uintBitsToFloat(cb[2]); T lj7 = uintBitsToFloat(cb[3]);
#else
      FOR_TILE(LOAD_ROW)
      FOR_TILE(LOAD_COL)
#endif
      FOR_TILE(ACC_MULADD_ROW)
    }
    FOR_TILE(ACC_STORE_ROW)
#endif
  }
  if (vkhlo_workgroup_id(pc).x != 0u) return;
  // The diagonal block, column by column, each dot continued over j0 <= k < j (w holds the
  // part over k < j0 when j0 > 0).
  memoryBarrierBuffer();
  barrier();
  uint t = gl_LocalInvocationIndex;
  for (uint j = j0; j < j1; ++j) {
    if (t == 0u) {
      T dot = j0 > 0u ? L(j, j) : t_zero();
      for (uint kk = j0; kk < j; ++kk) { T v = L(j, kk); dot = t_muladd(dot, v, t_conj(v)); }
      precise R d = t_re(H(j, j)) - t_re(dot);
      SetL(j, j, t_real(hlo_sqrt(d)));
    }
    memoryBarrierBuffer();
    barrier();
    T pivot = L(j, j);
    uint i = j + 1u + t;
    if (i < j1) {
      T row_dot = j0 > 0u ? L(i, j) : t_zero();
      for (uint kk = j0; kk < j; ++kk) row_dot = t_muladd(row_dot, L(i, kk), t_conj(L(j, kk)));
      precise T num = H(i, j) - row_dot;
      SetL(i, j, t_div(num, pivot));
    }
    memoryBarrierBuffer();
    barrier();
  }
}
#endif

#if CHOL_PANEL
void main() {
  CHOLESKY_MAIN_START(vkhlo_workgroup_id(pc).y)
  uint i = j1 + vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x;
  // Row i below the diagonal block: its columns j0..j1 in order, each dot continued (the
  // row's new elements kept in registers).
  if (i >= M) return;
  T row[NB];
  for (uint j = j0; j < j1; ++j) {
    T row_dot = j0 > 0u ? L(i, j) : t_zero();
    for (uint kk = j0; kk < j; ++kk) row_dot = t_muladd(row_dot, row[kk - j0], t_conj(L(j, kk)));
    precise T num = H(i, j) - row_dot;
    T v = t_div(num, L(j, j));
    row[j - j0] = v;
    SetL(i, j, v);
  }
}
#endif

#if CHOL_SMALL
void main() {
  CHOLESKY_MAIN_START(vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x)
  if (bi >= BATCH) return;
  for (uint j = 0u; j < M; ++j) {
    T dot = t_zero();
    for (uint kk = 0u; kk < j; ++kk) { T v = L(j, kk); dot = t_muladd(dot, v, t_conj(v)); }
    precise R d = t_re(H(j, j)) - t_re(dot);
    T pivot = t_real(hlo_sqrt(d));
    SetL(j, j, pivot);
    for (uint i = j + 1u; i < M; ++i) {
      T row_dot = t_zero();
      for (uint kk = 0u; kk < j; ++kk) row_dot = t_muladd(row_dot, L(i, kk), t_conj(L(j, kk)));
      precise T num = H(i, j) - row_dot;
      SetL(i, j, t_div(num, pivot));
    }
  }
}
#endif

#if CHOL_WRITE
// Element (i, j) of the result: l[i][j] (lower) or conj(l[j][i]) (upper) on its triangle, zero off it.
T x_at(uint l) {
  uint bi = l / (M * M), q = l - bi * (M * M), i = q / M, j = q - i * M;
  if (LOWER) return j <= i ? ws_ld(bi * (LD * M) + j * LD + i) : t_zero();
  return i <= j ? t_conj(ws_ld(bi * (LD * M) + i * LD + j)) : t_zero();
}
#include "linalg/linalg_write.glsl"
#endif
