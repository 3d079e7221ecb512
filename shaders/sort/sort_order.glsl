// The order the sort kernels sort positions by (sort.comp, top_k.comp), on top of the
// comparator that codegen/sort/sort_comparator.cc generates before the kernel:
//   struct VkhloSortKey                        the raw elements the comparator reads
//   VkhloSortKey vkhlo_sort_key(uint l)        the key of linear element l
//   bool vkhlo_sort_cmp_keys(ka, kb)           the comparator region
//   VKHLO_SORT_PADDING_KEY                     a key for padding (any)
// Positions of a row: element p is at row_base + p * INNER; 0xffffffff is padding, after
// everything. vkhlo_sort_before is a strict total order: the comparator, equal elements (neither
// before the other) by position, so sorting by it is stable. One comparator call decides it: for
// a < b, a is before b unless b is strictly before a; for a > b, only when a is strictly before
// b (the interpreter's merge rule, at half the cost of asking both ways).

bool vkhlo_sort_cmp(uint la, uint lb) { return vkhlo_sort_cmp_keys(vkhlo_sort_key(la), vkhlo_sort_key(lb)); }
bool vkhlo_sort_before(uint row_base, uint a, uint b) {
  if (a == 0xffffffffu) return false;
  if (b == 0xffffffffu) return true;
  uint la = row_base + a * INNER, lb = row_base + b * INNER;
  return a < b ? !vkhlo_sort_cmp(lb, la) : vkhlo_sort_cmp(la, lb);
}
VkhloSortKey vkhlo_sort_key_at(uint row_base, uint p) {
  return p == 0xffffffffu ? VKHLO_SORT_PADDING_KEY : vkhlo_sort_key(row_base + p * INNER);
}
bool vkhlo_sort_before_keys(uint a, VkhloSortKey ka, uint b, VkhloSortKey kb) {
  if (a == 0xffffffffu) return false;
  if (b == 0xffffffffu) return true;
  return a < b ? !vkhlo_sort_cmp_keys(kb, ka) : vkhlo_sort_cmp_keys(ka, kb);
}
