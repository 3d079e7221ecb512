// stablehlo.triangular_solve: every option (LEFT side, LOWER, UNIT diagonal, TRANS / CONJ for
// transpose_a TRANSPOSE / ADJOINT), batch dimensions, f32/f64/narrow floats/complex
// (codegen/linalg/triangular_solve.cc chooses the pass, workspaces and grids).
//
// The algorithm is the interpreter's (src/interp/library_linalg.cc, which is XLA's
// TriangularSolveExpander): the diagonal blocks of a (SB x SB) are inverted row by row, then x is
// solved block by block, each block's remainder b - (coupling) x_solved multiplied by the
// inverted block with the last product in two interleaved partial sums; the same operations in
// the same order, so results round as the interpreter's do (bit for bit where the device's fma
// is fused). Passes:
//   TRSM_INVERT     one workgroup per diagonal block (all blocks at once): XLA's
//                   InvertDiagonalBlocks row by row, the workgroup's invocations sharing each row;
//   TRSM_PREPARE    op(a)'s read triangle into the workspace, once;
//   TRSM_REMAINDER  per block step (push word `step`), a GEMM-like dispatch of register tiles
//                   (register_tile.glsl): the block's rows (left side) or columns (right side)
//                   of b minus the coupling product with the part of x solved before;
//   TRSM_APPLY      per block step, likewise: x's block = the inverted block times the remainder;
//   TRSM_WRITE      x in the result type (linalg_write.glsl).
// Workspaces, in T units per batch item: inv_buf (per block its inverse, s x s, then op(inverse)
// in rows of SP), tmp_buf (the inversion's temporaries per block: scaled block, diagonal, row
// update), rem_buf (one step's remainder, rows of REM_LD), ws (x, rows of XLD), opa_buf (op(a),
// M rows of LDA). Rows that a tile reads as vectors (TILE_VEC: T float, through the uvec4 views
// inv_vec, rem_vec, x_vec, opa_vec) are padded to multiples of 4 elements and start 4-aligned.
// Defines (sizes as uint): M, ROWS, COLS (b is ROWS x COLS), SB (the block), SBS = min(M, SB),
// BLOCKS, BATCH, the *_PER sizes and strides above, INV_SLOT, OPINV_OFF, WG; load_a / load_b
// (generated loads of a and b).

#include "linalg/linalg_types.glsl"

#if !TRSM_WRITE
LINALG_ACCESSORS(inv, inv_buf)
LINALG_ACCESSORS(tmp, tmp_buf)
LINALG_ACCESSORS(rem, rem_buf)
LINALG_ACCESSORS(opa, opa_buf)

uint bi;  // the batch item
// a's triangle that is read, with the unit diagonal when asked (the interpreter's copy of a).
T A(uint i, uint j) {
  if (LOWER ? j > i : j < i) return t_zero();
  return (i == j && UNIT) ? t_one() : load_a(bi * M * M + i * M + j);
}
T opA_in(uint r, uint c) {
  if (!TRANS) return A(r, c);
  T v = A(c, r);
  return CONJ ? t_conj(v) : v;
}
// op(a), copied once into the workspace (rows of LDA).
uint opa_row(uint r) { return bi * OPA_PER + r * LDA; }
T opA(uint r, uint c) { return opa_ld(opa_row(r) + c); }
uint x_row(uint r) { return bi * X_PER + r * XLD; }
T X(uint r, uint c) { return ws_ld(x_row(r) + c); }
void SetX(uint r, uint c, T v) { ws_st(x_row(r) + c, v); }
bool backward() { return LEFT ? (LOWER == TRANS) : (LOWER != TRANS); }
// Block jb's rows/columns [j0, j1) and the part solved before it, [solved0, solved1).
void BlockRange(uint step, out uint jb, out uint j0, out uint j1, out uint solved0, out uint solved1) {
  jb = backward() ? BLOCKS - 1u - step : step;
  j0 = jb * SB; j1 = min(M, j0 + SB);
  solved0 = backward() ? j1 : 0u; solved1 = backward() ? M : j0;
}
#endif

#if TRSM_INVERT
void main() {
  VKHLO_KEEP_BINDINGS
  uint jb = vkhlo_workgroup_id(pc).x, t = gl_LocalInvocationID.x;
  bi = vkhlo_workgroup_id(pc).y;
  uint j0 = jb * SB, j1 = min(M, j0 + SB), s = j1 - j0;
  // Workspace slots are SBS = min(M, SB) on a side.
  uint inv = bi * INV_PER + jb * INV_SLOT;  // this block's inverse, s x s, then op(inverse)
  uint sc = bi * TMP_PER + jb * (SBS * SBS + 2u * SBS), dg = sc + SBS * SBS, upd = dg + SBS;
  for (uint c = t; c < s; c += WG) {
    T d = A(j0 + c, j0 + c);
    tmp_st(dg + c, d == t_zero() ? t_one() : d);
  }
  memoryBarrierBuffer();
  barrier();
  uint corner = LOWER ? 0u : s - 1u;
  for (uint q = t; q < s * s; q += WG) {
    uint r = q / s, c = q % s;
    T v = t_zero();
    if (!(LOWER ? c > r : c < r)) v = t_div(A(j0 + r, j0 + c), tmp_ld(dg + c));
    tmp_st(sc + q, v);
    inv_st(inv + q, r == c ? (r == corner ? t_one() : -t_one()) : t_zero());
  }
  memoryBarrierBuffer();
  barrier();
  for (uint i = 1u; i < s; ++i) {
    uint j = LOWER ? i : s - 1u - i;
    for (uint c = t; c < s; c += WG) {
      T dot = t_zero();
      for (uint kk = 0u; kk < s; ++kk) dot = t_fma(dot, tmp_ld(sc + j * s + kk), inv_ld(inv + kk * s + c));
      tmp_st(upd + c, -dot);
    }
    memoryBarrierBuffer();
    barrier();
    for (uint c = t; c < s; c += WG) inv_st(inv + j * s + c, tmp_ld(upd + c));
    memoryBarrierBuffer();
    barrier();
  }
  for (uint q = t; q < s * s; q += WG) inv_st(inv + q, t_div(inv_ld(inv + q), tmp_ld(dg + q / s)));
  memoryBarrierBuffer();
  barrier();
  // op(inverse) in rows of SP, for the apply step's (vector) reads.
  for (uint q = t; q < s * s; q += WG) {
    uint r = q / s, c = q % s;
    T v = TRANS ? inv_ld(inv + c * s + r) : inv_ld(inv + q);
    inv_st(inv + OPINV_OFF + r * SP + c, CONJ ? t_conj(v) : v);
  }
}
#endif

#if TRSM_PREPARE
void main() {
  VKHLO_KEEP_BINDINGS
  uint l = vkhlo_workgroup_id(pc).x * WG + gl_LocalInvocationID.x;
  bi = l / OPA_PER;
  uint q = l - bi * OPA_PER, r = q / LDA, c = q - r * LDA;
  if (bi >= BATCH) return;
  opa_st(l, c < M ? opA_in(r, c) : t_zero());
}
#endif

#if TRSM_REMAINDER || TRSM_APPLY
void main() {
  VKHLO_KEEP_BINDINGS
  bi = vkhlo_workgroup_id(pc).z;
  uint jb, j0, j1, solved0, solved1;
  BlockRange(pc.step, jb, j0, j1, solved0, solved1);
  uint s = j1 - j0;
#if TRSM_REMAINDER
  // One step's remainder: b's block minus the coupling product with x's solved part.
  // Left: rows j0 + i of op(a) x = b, columns j of x. Right: row i of x op(a) = b, columns j0 + j.
  #define OUT_ROWS (LEFT ? s : ROWS)
  #define OUT_COLS (LEFT ? COLS : s)
  #define K0 solved0
  #define K1 solved1
  #define LHS(i, k) (LEFT ? opA(j0 + (i), (k)) : X((i), (k)))
  #define RHS(k, j) (LEFT ? X((k), (j)) : opA((k), j0 + (j)))
  #define B_AT(i, j) (LEFT ? load_b(bi * ROWS * COLS + (j0 + (i)) * COLS + (j)) : load_b(bi * ROWS * COLS + (i) * COLS + j0 + (j)))
  #define RHS_VEC(k, j) (LEFT ? x_vec[(x_row(k) + (j)) >> 2u] : opa_vec[(opa_row(k) + j0 + (j)) >> 2u])
  #define STORE(i, j, v) rem_st(bi * REM_PER + (i) * REM_LD + (j), pc.step == 0u ? B_AT(i, j) : B_AT(i, j) - (v))
  #define TILE_SPLIT 0
#else
  // One step's solution: the inverted block times the remainder (two interleaved partial sums).
  uint inv = bi * INV_PER + jb * INV_SLOT;
  #define OUT_ROWS (LEFT ? s : ROWS)
  #define OUT_COLS (LEFT ? COLS : s)
  #define K0 0u
  #define K1 s
  #define OPINV(r, c) inv_ld(inv + OPINV_OFF + (r) * SP + (c))
  #define REM(r, c) rem_ld(bi * REM_PER + (r) * REM_LD + (c))
  #define RHS_VEC(k, j) (LEFT ? rem_vec[(bi * REM_PER + (k) * REM_LD + (j)) >> 2u] : inv_vec[(inv + OPINV_OFF + (k) * SP + (j)) >> 2u])
  #define LHS(i, k) (LEFT ? OPINV((i), (k)) : REM((i), (k)))
  #define RHS(k, j) (LEFT ? REM((k), (j)) : OPINV((k), (j)))
  #define STORE(i, j, v) if (LEFT) SetX(j0 + (i), (j), (v)); else SetX((i), j0 + (j), (v))
  #define TILE_SPLIT 1
#endif
#include "linalg/register_tile.glsl"
}
#endif

#if TRSM_WRITE
// x's element l (row-major over the batch) from the workspace's rows of XLD.
T x_at(uint l) { uint bi = l / (ROWS * COLS), q = l - bi * (ROWS * COLS), r = q / COLS;
  return ws_ld(bi * X_PER + r * XLD + (q - r * COLS)); }
#include "linalg/linalg_write.glsl"
#endif
