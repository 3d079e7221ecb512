// The body of a GEMM-like tile dispatch of triangular_solve.comp (remainder and apply): out(i, j)
// for i < OUT_ROWS, j < OUT_COLS of the dot over K0 <= k < K1 of LHS(i, k) * RHS(k, j) in index
// order (t_fma chains), handed to STORE(i, j, v). Each invocation of a 16 x 4 workgroup computes
// a 4 x 4 tile, as straight-line code with one variable per accumulator (llvmpipe keeps private
// arrays in memory): rows 4 apart (the same for neighbouring invocations: LHS reads are
// uniform), columns 16 apart, or with TILE_VEC (T float) 4 consecutive ones read as one uvec4
// RHS_VEC(k, j) (RHS rows are padded to 4 elements). With TILE_SPLIT, even and odd k go to two
// partial sums added at the end (XLA's last product). Included inside main().

#if TILE_VEC
#define TILE_COL(b) (b)
#else
#define TILE_COL(b) (16u * (b))
#endif
#define TILE_ZERO_ROW(lane, a) \
  T acc##lane##_##a##_0 = t_zero(); T acc##lane##_##a##_1 = t_zero(); \
  T acc##lane##_##a##_2 = t_zero(); T acc##lane##_##a##_3 = t_zero();
#define TILE_FMA_ROW(lane, a) \
  acc##lane##_##a##_0 = t_fma(acc##lane##_##a##_0, l##a, r0); acc##lane##_##a##_1 = t_fma(acc##lane##_##a##_1, l##a, r1); \
  acc##lane##_##a##_2 = t_fma(acc##lane##_##a##_2, l##a, r2); acc##lane##_##a##_3 = t_fma(acc##lane##_##a##_3, l##a, r3);
#if TILE_VEC
#define TILE_RHS(k) \
  uvec4 rv = RHS_VEC(k, cv); \
  T r0 = uintBitsToFloat(rv[0]); T r1 = uintBitsToFloat(rv[1]); T r2 = uintBitsToFloat(rv[2]); T r3 = uintBitsToFloat(rv[3]);
#else
#define TILE_RHS(k) T r0 = RHS(k, tj0); T r1 = RHS(k, tj1); T r2 = RHS(k, tj2); T r3 = RHS(k, tj3);
#endif
// One k of every accumulator of `lane`.
#define TILE_STEP(lane, k) \
  T l0 = LHS(ti0, k); T l1 = LHS(ti1, k); T l2 = LHS(ti2, k); T l3 = LHS(ti3, k); \
  TILE_RHS(k) \
  TILE_FMA_ROW(lane, 0) TILE_FMA_ROW(lane, 1) TILE_FMA_ROW(lane, 2) TILE_FMA_ROW(lane, 3)
#if TILE_SPLIT
#define TILE_STORE(a, b) \
  if (r0 + 4u * (a) < OUT_ROWS && c0 + TILE_COL(b) < OUT_COLS) { \
    precise T sum = acc0_##a##_##b + acc1_##a##_##b; \
    STORE(r0 + 4u * (a), c0 + TILE_COL(b), sum); \
  }
#else
#define TILE_STORE(a, b) \
  if (r0 + 4u * (a) < OUT_ROWS && c0 + TILE_COL(b) < OUT_COLS) { \
    STORE(r0 + 4u * (a), c0 + TILE_COL(b), acc0_##a##_##b); \
  }
#endif

  uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
  uint r0 = vkhlo_workgroup_id(pc).y * 16u + y;
#if TILE_VEC
  uint c0 = (vkhlo_workgroup_id(pc).x * 16u + x) * 4u, cv = min(c0, (OUT_COLS - 1u) & ~3u);
#else
  uint c0 = vkhlo_workgroup_id(pc).x * 64u + x;
#endif
  uint ti0 = min(r0 + 0u, OUT_ROWS - 1u), ti1 = min(r0 + 4u, OUT_ROWS - 1u);
  uint ti2 = min(r0 + 8u, OUT_ROWS - 1u), ti3 = min(r0 + 12u, OUT_ROWS - 1u);
#if !TILE_VEC
  uint tj0 = min(c0 + 0u, OUT_COLS - 1u), tj1 = min(c0 + 16u, OUT_COLS - 1u);
  uint tj2 = min(c0 + 32u, OUT_COLS - 1u), tj3 = min(c0 + 48u, OUT_COLS - 1u);
#endif
  TILE_ZERO_ROW(0, 0) TILE_ZERO_ROW(0, 1) TILE_ZERO_ROW(0, 2) TILE_ZERO_ROW(0, 3)
#if TILE_SPLIT
  TILE_ZERO_ROW(1, 0) TILE_ZERO_ROW(1, 1) TILE_ZERO_ROW(1, 2) TILE_ZERO_ROW(1, 3)
  for (uint k = K0; k < K1; k += 2u) {
    { TILE_STEP(0, k) }
    if (k + 1u < K1) { TILE_STEP(1, k + 1u) }
  }
#else
  for (uint k = K0; k < K1; ++k) {
    TILE_STEP(0, k)
  }
#endif
  TILE_STORE(0, 0) TILE_STORE(0, 1) TILE_STORE(0, 2) TILE_STORE(0, 3)
  TILE_STORE(1, 0) TILE_STORE(1, 1) TILE_STORE(1, 2) TILE_STORE(1, 3)
  TILE_STORE(2, 0) TILE_STORE(2, 1) TILE_STORE(2, 2) TILE_STORE(2, 3)
  TILE_STORE(3, 0) TILE_STORE(3, 1) TILE_STORE(3, 2) TILE_STORE(3, 3)
