// stablehlo.sort: any number of operands, any comparator, any dimension (codegen/sort/sort.cc
// chooses the pass, the bindings and the grid; the comparator is generated before this file, see
// sort_order.glsl).
//
// The passes sort a permutation: for every row (the elements along the sorted dimension at one
// position of the others) a scratch array of positions 0..SIZE-1, ordered by vkhlo_sort_before.
// Then every result is gathered through it. Sorting positions rather than values makes one
// kernel serve any number and type of operands; the comparator reads the operands where they are.
//   SORT_RUNS    each invocation sorts 8 consecutive positions of a row in registers (an optimal
//                sorting network, 19 compare-exchanges of depth 6, with the keys loaded once; the
//                row's end padded with "after everything"). No shared memory and no barriers,
//                which cost much on lavapipe: a bitonic network over 512 positions in shared
//                memory took about 4x the CPU time there of these runs plus the six extra merge
//                passes they need.
//   SORT_MERGE   while the sorted runs are shorter than the row: run width w doubles each pass
//                (push words, so every pass shares one pipeline). Each invocation writes a chunk
//                of up to 32 consecutive outputs of a pair of runs: a binary search on the merge
//                path's diagonal finds where the chunk starts in each run, then a sequential
//                merge keeps both heads' keys in registers (one comparison per output),
//                ping-ponging between two scratch arrays. Pair boundaries (multiples of 2w) are
//                multiples of the chunk (at most 2w), so a chunk never straddles two pairs.
//   SORT_GATHER  each result element (or each word of packed narrow elements, so no two
//                invocations write one word) copies the storage bits of its source element.
//
// Defines: SIZE (elements per row), INNER (the row's stride), GROUP; SORT_RUNS: RUNS,
// RUNS_PER_ROW, DST (the permutation written); SORT_MERGE: SRC, DST; SORT_GATHER: ITEMS, TOTAL,
// STORAGE_BITS (b0 the operand, b1 the permutation, b2 the result).

#define RUN_LENGTH 8u
#define PLANE (SIZE * INNER)
#define ROW_BASE(row) (((row) / INNER) * PLANE + (row) % INNER)
#define STORAGE_WORDS (uint(STORAGE_BITS) / 32u)

#if SORT_RUNS || SORT_MERGE
#include "sort/sort_order.glsl"
#endif

#if SORT_RUNS
// Position i of the run (padding beyond the row's end) and its key.
#define LOAD(i) uint r##i = start + i < SIZE ? start + i : 0xffffffffu; VkhloSortKey rk##i = vkhlo_sort_key_at(row_base, r##i);
#define COMPARE_EXCHANGE(i, j) \
  if (vkhlo_sort_before_keys(r##j, rk##j, r##i, rk##i)) { \
    uint tp = r##i; r##i = r##j; r##j = tp; \
    VkhloSortKey tk = rk##i; rk##i = rk##j; rk##j = tk; \
  }

void main() {
  VKHLO_KEEP_BINDINGS
  uint id = vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x;
  if (id >= RUNS) return;
  uint row = id / RUNS_PER_ROW, start = (id % RUNS_PER_ROW) * RUN_LENGTH;
  uint row_base = ROW_BASE(row);
  LOAD(0) LOAD(1) LOAD(2) LOAD(3) LOAD(4) LOAD(5) LOAD(6) LOAD(7)
  COMPARE_EXCHANGE(0, 2) COMPARE_EXCHANGE(1, 3) COMPARE_EXCHANGE(4, 6) COMPARE_EXCHANGE(5, 7)
  COMPARE_EXCHANGE(0, 4) COMPARE_EXCHANGE(1, 5) COMPARE_EXCHANGE(2, 6) COMPARE_EXCHANGE(3, 7)
  COMPARE_EXCHANGE(0, 1) COMPARE_EXCHANGE(2, 3) COMPARE_EXCHANGE(4, 5) COMPARE_EXCHANGE(6, 7)
  COMPARE_EXCHANGE(2, 4) COMPARE_EXCHANGE(3, 5)
  COMPARE_EXCHANGE(1, 4) COMPARE_EXCHANGE(3, 6)
  COMPARE_EXCHANGE(1, 2) COMPARE_EXCHANGE(3, 4) COMPARE_EXCHANGE(5, 6)
  // Written out rather than a macro: a tensor bound through several descriptors has its
  // stores rewritten (codegen/big_bindings.h), which follows statements, not preprocessor lines.
  if (start + 0u < SIZE) DST[row * SIZE + start + 0u] = r0;
  if (start + 1u < SIZE) DST[row * SIZE + start + 1u] = r1;
  if (start + 2u < SIZE) DST[row * SIZE + start + 2u] = r2;
  if (start + 3u < SIZE) DST[row * SIZE + start + 3u] = r3;
  if (start + 4u < SIZE) DST[row * SIZE + start + 4u] = r4;
  if (start + 5u < SIZE) DST[row * SIZE + start + 5u] = r5;
  if (start + 6u < SIZE) DST[row * SIZE + start + 6u] = r6;
  if (start + 7u < SIZE) DST[row * SIZE + start + 7u] = r7;
}
#endif

#if SORT_MERGE
void main() {
  VKHLO_KEEP_BINDINGS
  uint id = vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x;
  if (id >= pc.chunks) return;
  uint cpr = (SIZE + pc.chunk - 1u) / pc.chunk;
  uint row = id / cpr, o = (id % cpr) * pc.chunk, w = pc.width;
  uint start = o - o % (2u * w);
  uint mid = min(start + w, SIZE), end = min(start + 2u * w, SIZE);
  uint base = row * SIZE, row_base = ROW_BASE(row);
  uint na = mid - start, nb = end - mid, diagonal = o - start;
  // The first `diagonal` outputs take ia from run A: the least ia whose A[ia]
  // is not before B[diagonal - 1 - ia].
  uint lo = diagonal > nb ? diagonal - nb : 0u, hi = min(diagonal, na);
  while (lo < hi) {
    uint m = (lo + hi) >> 1u;
    if (vkhlo_sort_before(row_base, SRC[base + start + m], SRC[base + mid + diagonal - 1u - m])) lo = m + 1u;
    else hi = m;
  }
  uint ia = lo, ib = diagonal - lo, count = min(pc.chunk, end - o);
  // 0xffffffff: an exhausted run (after everything).
  // The two heads with their keys: each output loads one new key.
  uint x = ia < na ? SRC[base + start + ia] : 0xffffffffu;
  uint y = ib < nb ? SRC[base + mid + ib] : 0xffffffffu;
  VkhloSortKey kx = vkhlo_sort_key_at(row_base, x), ky = vkhlo_sort_key_at(row_base, y);
  for (uint j = 0u; j < count; ++j) {
    if (vkhlo_sort_before_keys(y, ky, x, kx)) {
      DST[base + o + j] = y;
      ++ib;
      y = ib < nb ? SRC[base + mid + ib] : 0xffffffffu;
      ky = vkhlo_sort_key_at(row_base, y);
    } else {
      DST[base + o + j] = x;
      ++ia;
      x = ia < na ? SRC[base + start + ia] : 0xffffffffu;
      kx = vkhlo_sort_key_at(row_base, x);
    }
  }
}
#endif

#if SORT_GATHER
// The linear index of result element l's source: its row's permutation at l's position.
uint source(uint l) {
  uint o = l / PLANE, rem = l % PLANE;
  uint i = rem / INNER, ri = rem % INNER;
  uint p = b1[(o * INNER + ri) * SIZE + i];
  return o * PLANE + p * INNER + ri;
}
void main() {
  VKHLO_KEEP_BINDINGS
  uint id = vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x;
  if (id >= ITEMS) return;
#if STORAGE_BITS < 32
  // Every element of one result word (8- or 16-bit storage).
  const uint per = 32u / STORAGE_BITS;
  uint acc = 0u;
  for (uint e = 0u; e < per; ++e) {
    uint l = id * per + e;
    if (l >= TOTAL) break;
    uint s = source(l);
    acc |= ((b0[s >> (STORAGE_BITS == 8 ? 2u : 1u)] >> ((s & (per - 1u)) * STORAGE_BITS)) & ((1u << STORAGE_BITS) - 1u)) << (e * STORAGE_BITS);
  }
  b2[id] = acc;
#else
  // The element's words (one, two, or four for complex<f64>).
  uint s = source(id);
  b2[STORAGE_WORDS * id + 0u] = b0[STORAGE_WORDS * s + 0u];
#if STORAGE_BITS >= 64
  b2[STORAGE_WORDS * id + 1u] = b0[STORAGE_WORDS * s + 1u];
#endif
#if STORAGE_BITS >= 128
  b2[STORAGE_WORDS * id + 2u] = b0[STORAGE_WORDS * s + 2u];
  b2[STORAGE_WORDS * id + 3u] = b0[STORAGE_WORDS * s + 3u];
#endif
#endif
}
#endif
