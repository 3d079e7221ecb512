// The first K positions of every row of a stablehlo.sort (top_k's sort-then-slice; codegen/sort/
// top_k.cc decides when it applies and binds the results): a selection, O(n K) at worst, O(n)
// typically, instead of sorting whole rows. One workgroup per row. The comparator is generated
// before this file (sort_order.glsl).
//   scan   each invocation keeps the first K of its positions t, t + GROUP, ... in order. Most
//          elements are not before the list's last: one key load and one comparison (the last's
//          key is kept). K <= 16 (REGISTER_LIST): the list is K variables, and an element that
//          enters replaces the last and bubbles up (no dynamic indexing, which lavapipe and some
//          GPUs turn into per-lane memory accesses); larger K: an array with binary insertion.
//   merge  pairwise in shared memory: list t takes the first K of lists t and t + stride.
//   copy   invocation t < K copies the t-th position's elements into every result.
// Defines: K, LAST_SLOT (K - 1), REGISTER_LIST, GROUP, SIZE, INNER; COPY_RESULTS, the copy's
// statements (src and dst: linear indices).

#include "sort/sort_order.glsl"

#define PLANE (SIZE * INNER)
#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define Q_LAST CONCAT(q, LAST_SLOT)
#define KQ_LAST CONCAT(kq, LAST_SLOT)
#define SLOT(j) uint q##j = 0xffffffffu; VkhloSortKey kq##j = vkhlo_sort_key_at(row_base, 0xffffffffu);
#define BUBBLE(j, i) \
    if (vkhlo_sort_before_keys(q##j, kq##j, q##i, kq##i)) { \
      uint tp = q##j; q##j = q##i; q##i = tp; \
      VkhloSortKey tk = kq##j; kq##j = kq##i; kq##i = tk; \
    }

shared uint s[GROUP * K];
void main() {
  VKHLO_KEEP_BINDINGS
  uint row = vkhlo_workgroup_id(pc).x;
  uint row_base = (row / INNER) * PLANE + row % INNER;
  uint t = gl_LocalInvocationID.x;
  // This invocation's first K positions among p = t, t + G, ..., sorted.
#if REGISTER_LIST
  SLOT(0)
#if K > 1
  SLOT(1)
#endif
#if K > 2
  SLOT(2)
#endif
#if K > 3
  SLOT(3)
#endif
#if K > 4
  SLOT(4)
#endif
#if K > 5
  SLOT(5)
#endif
#if K > 6
  SLOT(6)
#endif
#if K > 7
  SLOT(7)
#endif
#if K > 8
  SLOT(8)
#endif
#if K > 9
  SLOT(9)
#endif
#if K > 10
  SLOT(10)
#endif
#if K > 11
  SLOT(11)
#endif
#if K > 12
  SLOT(12)
#endif
#if K > 13
  SLOT(13)
#endif
#if K > 14
  SLOT(14)
#endif
#if K > 15
  SLOT(15)
#endif
  for (uint p = t; p < SIZE; p += GROUP) {
    VkhloSortKey kp = vkhlo_sort_key(row_base + p * INNER);
    if (!vkhlo_sort_before_keys(p, kp, Q_LAST, KQ_LAST)) continue;
    Q_LAST = p;
    KQ_LAST = kp;
#if K > 15
    BUBBLE(15, 14)
#endif
#if K > 14
    BUBBLE(14, 13)
#endif
#if K > 13
    BUBBLE(13, 12)
#endif
#if K > 12
    BUBBLE(12, 11)
#endif
#if K > 11
    BUBBLE(11, 10)
#endif
#if K > 10
    BUBBLE(10, 9)
#endif
#if K > 9
    BUBBLE(9, 8)
#endif
#if K > 8
    BUBBLE(8, 7)
#endif
#if K > 7
    BUBBLE(7, 6)
#endif
#if K > 6
    BUBBLE(6, 5)
#endif
#if K > 5
    BUBBLE(5, 4)
#endif
#if K > 4
    BUBBLE(4, 3)
#endif
#if K > 3
    BUBBLE(3, 2)
#endif
#if K > 2
    BUBBLE(2, 1)
#endif
#if K > 1
    BUBBLE(1, 0)
#endif
  }
  uint best[K];
  best[0] = q0;
#if K > 1
  best[1] = q1;
#endif
#if K > 2
  best[2] = q2;
#endif
#if K > 3
  best[3] = q3;
#endif
#if K > 4
  best[4] = q4;
#endif
#if K > 5
  best[5] = q5;
#endif
#if K > 6
  best[6] = q6;
#endif
#if K > 7
  best[7] = q7;
#endif
#if K > 8
  best[8] = q8;
#endif
#if K > 9
  best[9] = q9;
#endif
#if K > 10
  best[10] = q10;
#endif
#if K > 11
  best[11] = q11;
#endif
#if K > 12
  best[12] = q12;
#endif
#if K > 13
  best[13] = q13;
#endif
#if K > 14
  best[14] = q14;
#endif
#if K > 15
  best[15] = q15;
#endif
#else
  uint best[K];
  for (uint j = 0u; j < K; ++j) best[j] = 0xffffffffu;
  VkhloSortKey last = vkhlo_sort_key_at(row_base, 0xffffffffu);
  for (uint p = t; p < SIZE; p += GROUP) {
    VkhloSortKey kp = vkhlo_sort_key(row_base + p * INNER);
    if (!vkhlo_sort_before_keys(p, kp, best[K - 1u], last)) continue;
    uint lo = 0u, hi = K - 1u;
    while (lo < hi) {
      uint m = (lo + hi) >> 1u;
      if (vkhlo_sort_before_keys(p, kp, best[m], vkhlo_sort_key_at(row_base, best[m]))) hi = m; else lo = m + 1u;
    }
    for (uint j = K - 1u; j > lo; --j) best[j] = best[j - 1u];
    best[lo] = p;
    last = vkhlo_sort_key_at(row_base, best[K - 1u]);
  }
#endif
  for (uint j = 0u; j < K; ++j) s[t * K + j] = best[j];
  barrier();
  // Pairwise merges: list t takes the first K of lists t and t + stride.
  for (uint stride = 1u; stride < GROUP; stride <<= 1u) {
    if ((t & (2u * stride - 1u)) == 0u) {
      uint a = t * K, b = (t + stride) * K, ia = 0u, ib = 0u;
      for (uint j = 0u; j < K; ++j) {
        uint x = s[a + ia], y = s[b + ib];
        if (vkhlo_sort_before(row_base, y, x)) { best[j] = y; ++ib; } else { best[j] = x; ++ia; }
      }
      for (uint j = 0u; j < K; ++j) s[a + j] = best[j];
    }
    barrier();
  }
  if (t < K) {
    uint src = row_base + s[t] * INNER, dst = row_base + t * INNER;
    COPY_RESULTS
  }
}
