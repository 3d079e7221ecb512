// The last dispatch of the linear-algebra kernels: result element l = x_at(l) (defined by the
// including kernel, in T), rounded to the result's type by store_out (generated from the
// elemental emitter: OUT_RAW storage bits) into binding result_words. One invocation per output
// word (packing OUT_STORAGE_BITS < 32 elements, so no two invocations write one word), or per
// element of 32 bits and more. Defines: TOTAL (elements), GROUP.

#define OUT_WORDS (uint(OUT_STORAGE_BITS) / 32u)

void main() {
  VKHLO_KEEP_BINDINGS
  uint id = vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x;
#if OUT_STORAGE_BITS < 32
  const uint per = 32u / OUT_STORAGE_BITS;
  if (id >= (TOTAL + per - 1u) / per) return;
  uint acc = 0u;
  for (uint e = 0u; e < per; ++e) {
    uint l = id * per + e;
    if (l >= TOTAL) break;
    acc |= (store_out(x_at(l)) & ((1u << OUT_STORAGE_BITS) - 1u)) << (e * OUT_STORAGE_BITS);
  }
  result_words[id] = acc;
#else
  if (id >= TOTAL) return;
  OUT_RAW r = store_out(x_at(id));
#if OUT_STORAGE_BITS == 32
  result_words[id] = r;
#else
  // The element's words (two, or four for complex<f64>).
  result_words[OUT_WORDS * id + 0u] = r[0];
  result_words[OUT_WORDS * id + 1u] = r[1];
#if OUT_STORAGE_BITS == 128
  result_words[OUT_WORDS * id + 2u] = r[2];
  result_words[OUT_WORDS * id + 3u] = r[3];
#endif
#endif
#endif
}
