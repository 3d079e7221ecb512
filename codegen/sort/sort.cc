// stablehlo.sort as a device kernel: any number of operands, any comparator, any dimension.
//
// The kernels sort a permutation: for every row (the elements along the sorted dimension at
// one position of the others) a scratch array of positions 0..size-1, ordered by
// vkhlo_sort_before (sort_comparator.h: the comparator, ties broken by position, so the sort
// is stable). Then every result is gathered through the permutation. Sorting positions rather
// than values makes one kernel serve any number and type of operands; the comparator reads the
// operands' elements where they are.
//   1. runs: each invocation sorts 8 consecutive positions of a row in registers (an optimal
//      sorting network with the keys loaded once, padding the row's end with "after
//      everything"). No shared memory and no barriers, which cost much on lavapipe; a bitonic
//      network over 512 positions in shared memory took about 4x the CPU time there of these
//      runs plus the six extra merge passes they need.
//   2. merge passes while the sorted runs are shorter than the row: run width w doubles each
//      pass (push words, so every pass shares one pipeline); each invocation writes a chunk of
//      up to 32 consecutive outputs of a pair of runs: a binary search on the merge path's
//      diagonal finds where the chunk starts in each run, then a sequential merge that keeps
//      both heads' keys in registers (O(n + n/32 log w) comparisons per pass), ping-ponging
//      between two scratch arrays.
//   3. gather: each result element (or each word of packed narrow elements, so no two
//      invocations write one word) copies the storage bits of its source element.
// In all O(n log n) comparisons. Rows of any length work. A sort whose results are only read through slices of their first k
// positions (top_k's sort-then-slice) takes the top-k kernel instead when k is small
// (top_k.h): a selection, O(n k) at worst, O(n) typically.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/device_kernel.h"
#include "codegen/elemental/types.h"
#include "codegen/sort/sort_comparator.h"
#include "codegen/sort/top_k.h"

namespace vkhlo::codegen {
namespace {

// Runs sorted in registers before the merge passes, by an optimal 8-input sorting network (19
// compare-exchanges, depth 6; checked on all 0-1 inputs): constant indices only.
constexpr uint32_t kRun = 8;
constexpr std::pair<uint32_t, uint32_t> kRunNetwork[] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6},
                                                         {3, 7}, {0, 1}, {2, 3}, {4, 5}, {6, 7}, {2, 4}, {3, 5},
                                                         {1, 4}, {3, 6}, {1, 2}, {3, 4}, {5, 6}};

uint32_t FloorPow2(uint32_t v) {
  uint32_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

// `#define in<i> b<i>`: the elemental emitter reads inputs as in<i>, the header names b<i>.
std::string InputNames(size_t count) {
  std::string s;
  for (size_t i = 0; i < count; ++i) s += fmt::format("#define in{0} b{0}\n", i);
  return s;
}

std::string RowBase(const SortGeometry& g, const std::string& row) {
  return fmt::format("(({0}) / {1}u) * {2}u + ({0}) % {1}u", row, g.inner, g.size * g.inner);
}

// Any size: a sort beyond the kernel's positions is the compile's index-space error (or the
// one below), which names the count, rather than "not supported".
bool AcceptsSort(const ir::Operation& op) { return op.num_operands() != 0 && op.num_regions() == 1; }

StatusOr<DeviceKernel> EmitSort(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  const ir::Operation& op = *fusion.device_op;
  const ir::Type& type = op.operand(0)->type();
  const int64_t rank = type.rank();
  int64_t dimension = 0;
  if (const ir::Attribute* a = op.attribute("dimension")) {
    if (auto v = a->AsInt()) dimension = *v;
  }
  if (dimension < 0) dimension += rank;
  if (dimension < 0 || dimension >= rank) {
    return InvalidArgumentError(fmt::format("'{}' sorts dimension {} of a rank-{} tensor", op.name(), dimension, rank));
  }
  if (type.num_elements() >= 0xffffffffll) {  // positions are uint, 0xffffffff is padding
    return UnimplementedError(fmt::format("'{}' sorts {} ({} elements): the sort kernel positions at most 4294967294",
                                          op.name(), type.ToString(), type.num_elements()));
  }
  SortGeometry g;
  g.size = type.dims()[static_cast<size_t>(dimension)];
  for (int64_t d = 0; d < dimension; ++d) g.outer *= type.dims()[static_cast<size_t>(d)];
  for (int64_t d = dimension + 1; d < rank; ++d) g.inner *= type.dims()[static_cast<size_t>(d)];
  const int64_t total = g.rows() * g.size;

  VKHLO_ASSIGN_OR_RETURN(SortComparatorSource cmp, EmitSortComparator(op, g, fusion.inputs, target, options));
  if (std::optional<int64_t> k = SortedPrefixNeeded(op, dimension); k && TopKApplies(op, fusion, g, *k, target)) {
    return EmitTopK(fusion, g, *k, cmp, target);
  }

  // Workgroups of up to 256 invocations.
  const uint32_t group = FloorPow2(std::min({256u, target.max_workgroup_invocations, target.max_workgroup_size[0]}));
  const int64_t runs_per_row = (g.size + kRun - 1) / kRun;
  const int64_t runs = g.rows() * runs_per_row;

  DeviceKernel k;
  k.summary = fmt::format("sort of {} rows of {} (stride {}): runs of {} in registers, merge passes, gather",
                          g.rows(), g.size, g.inner, kRun);
  const uint64_t perm_bytes = std::max<uint64_t>(4, static_cast<uint64_t>(total) * 4);
  k.scratch_bytes = {perm_bytes, perm_bytes};
  const size_t num_inputs = fusion.inputs.size();
  auto compare_bindings = [&](int src, int dst) {
    std::vector<KernelBuffer> b;
    for (const ir::Value* v : fusion.inputs) b.push_back(KernelBuffer::Read(v));
    if (src >= 0) b.push_back(KernelBuffer::Scratch(src, false));
    b.push_back(KernelBuffer::Scratch(dst, true));
    return b;
  };

  {  // 1. Runs of kRun positions sorted in registers.
    KernelDispatch d;
    d.name = fusion.name + ".sort_runs";
    d.summary = k.summary;
    d.bindings = compare_bindings(-1, 0);
    d.grid = {static_cast<uint32_t>((runs + group - 1) / group), 1, 1};
    std::string body;
    for (uint32_t i = 0; i < kRun; ++i) {
      body += fmt::format(
          "  uint r{0} = start + {0}u < {1}u ? start + {0}u : 0xffffffffu;\n"
          "  VkhloSortKey rk{0} = vkhlo_sort_key_at(row_base, r{0});\n",
          i, g.size);
    }
    for (const auto& [i, j] : kRunNetwork) {
      body += fmt::format(
          "  if (vkhlo_sort_before_keys(r{1}, rk{1}, r{0}, rk{0})) {{\n"
          "    uint tp = r{0}; r{0} = r{1}; r{1} = tp;\n"
          "    VkhloSortKey tk = rk{0}; rk{0} = rk{1}; rk{1} = tk;\n"
          "  }}\n",
          i, j);
    }
    for (uint32_t i = 0; i < kRun; ++i) {
      body += fmt::format("  if (start + {0}u < {1}u) b{2}[row * {1}u + start + {0}u] = r{0};\n", i, g.size, num_inputs);
    }
    d.glsl = DeviceKernelHeader(d.bindings, {group, 1, 1}, "", cmp.extensions) + InputNames(num_inputs) + cmp.globals +
             fmt::format(
                 "void main() {{\n"
                 "  {keep}\n"
                 "  uint id = vkhlo_workgroup_id(pc).x * {wg}u + gl_LocalInvocationID.x;\n"
                 "  if (id >= {runs}u) return;\n"
                 "  uint row = id / {rpr}u, start = (id % {rpr}u) * {run}u;\n"
                 "  uint row_base = {row_base};\n"
                 "{body}"
                 "}}\n",
                 fmt::arg("keep", KeepBindingsStatement(d.bindings.size())), fmt::arg("wg", group),
                 fmt::arg("runs", runs), fmt::arg("rpr", runs_per_row), fmt::arg("run", kRun),
                 fmt::arg("row_base", RowBase(g, "row")), fmt::arg("body", body));
    k.dispatches.push_back(std::move(d));
  }

  // 2. Merge passes (merge path): each invocation writes `chunk` consecutive outputs of a pair
  // of runs: one binary search finds how many of them come from each run (the split of the
  // diagonal), then a sequential merge: one comparison per output instead of a binary search
  // per element. Pair boundaries (multiples of 2w) are multiples of the chunk (at most 2w), so
  // a chunk never straddles two pairs.
  int current = 0;
  std::string merge_glsl;
  for (uint64_t width = kRun; width < static_cast<uint64_t>(g.size); width *= 2) {
    const uint32_t chunk = static_cast<uint32_t>(std::min<uint64_t>(32, 2 * width));
    const int64_t chunks = g.rows() * ((g.size + chunk - 1) / chunk);
    KernelDispatch d;
    d.name = fusion.name + ".merge";
    d.summary = k.summary;
    d.bindings = compare_bindings(current, 1 - current);
    d.grid = {static_cast<uint32_t>((chunks + group - 1) / group), 1, 1};
    d.push_words = {static_cast<uint32_t>(width), chunk, static_cast<uint32_t>(chunks)};
    if (merge_glsl.empty()) {
      const std::string src = fmt::format("b{}", num_inputs), dst = fmt::format("b{}", num_inputs + 1);
      merge_glsl = DeviceKernelHeader(d.bindings, {group, 1, 1}, "uint width; uint chunk; uint chunks; ", cmp.extensions) +
                   InputNames(num_inputs) + cmp.globals +
                   fmt::format(
                       "void main() {{\n"
                       "  {keep}\n"
                       "  uint id = vkhlo_workgroup_id(pc).x * {wg}u + gl_LocalInvocationID.x;\n"
                       "  if (id >= pc.chunks) return;\n"
                       "  uint cpr = ({size}u + pc.chunk - 1u) / pc.chunk;\n"
                       "  uint row = id / cpr, o = (id % cpr) * pc.chunk, w = pc.width;\n"
                       "  uint start = o - o % (2u * w);\n"
                       "  uint mid = min(start + w, {size}u), end = min(start + 2u * w, {size}u);\n"
                       "  uint base = row * {size}u, row_base = {row_base};\n"
                       "  uint na = mid - start, nb = end - mid, diagonal = o - start;\n"
                       "  // The first `diagonal` outputs take ia from run A: the least ia whose A[ia]\n"
                       "  // is not before B[diagonal - 1 - ia].\n"
                       "  uint lo = diagonal > nb ? diagonal - nb : 0u, hi = min(diagonal, na);\n"
                       "  while (lo < hi) {{\n"
                       "    uint m = (lo + hi) >> 1u;\n"
                       "    if (vkhlo_sort_before(row_base, {src}[base + start + m], {src}[base + mid + diagonal - 1u - m])) lo = m + 1u;\n"
                       "    else hi = m;\n"
                       "  }}\n"
                       "  uint ia = lo, ib = diagonal - lo, count = min(pc.chunk, end - o);\n"
                       "  // 0xffffffff: an exhausted run (after everything).\n"
                       "  // The two heads with their keys: each output loads one new key.\n"
                       "  uint x = ia < na ? {src}[base + start + ia] : 0xffffffffu;\n"
                       "  uint y = ib < nb ? {src}[base + mid + ib] : 0xffffffffu;\n"
                       "  VkhloSortKey kx = vkhlo_sort_key_at(row_base, x), ky = vkhlo_sort_key_at(row_base, y);\n"
                       "  for (uint j = 0u; j < count; ++j) {{\n"
                       "    if (vkhlo_sort_before_keys(y, ky, x, kx)) {{\n"
                       "      {dst}[base + o + j] = y;\n"
                       "      ++ib;\n"
                       "      y = ib < nb ? {src}[base + mid + ib] : 0xffffffffu;\n"
                       "      ky = vkhlo_sort_key_at(row_base, y);\n"
                       "    }} else {{\n"
                       "      {dst}[base + o + j] = x;\n"
                       "      ++ia;\n"
                       "      x = ia < na ? {src}[base + start + ia] : 0xffffffffu;\n"
                       "      kx = vkhlo_sort_key_at(row_base, x);\n"
                       "    }}\n"
                       "  }}\n"
                       "}}\n",
                       fmt::arg("keep", KeepBindingsStatement(d.bindings.size())), fmt::arg("wg", group),
                       fmt::arg("size", g.size), fmt::arg("row_base", RowBase(g, "row")), fmt::arg("src", src),
                       fmt::arg("dst", dst));
    }
    d.glsl = merge_glsl;
    k.dispatches.push_back(std::move(d));
    current = 1 - current;
  }

  // 3. Gather every result through the permutation.
  for (size_t r = 0; r < op.num_results(); ++r) {
    const ir::Value* input = op.operand(r);
    const ir::Value* output = fusion.outputs.at(r);
    const int storage = GetTypeFacts(input->type().element_type(), target).storage_bits;
    const uint32_t per = storage < 32 ? static_cast<uint32_t>(32 / storage) : 1;
    const int64_t items = (total + per - 1) / per;
    KernelDispatch d;
    d.name = fmt::format("{}.gather{}", fusion.name, r);
    d.summary = k.summary;
    d.bindings = {KernelBuffer::Read(input), KernelBuffer::Scratch(current, false), KernelBuffer::Write(output)};
    d.grid = {static_cast<uint32_t>((items + group - 1) / group), 1, 1};
    std::string body;
    if (storage < 32) {
      const uint32_t mask = (1u << storage) - 1u;
      const int shift = storage == 8 ? 2 : 1;
      body = fmt::format(
          "  uint acc = 0u;\n"
          "  for (uint e = 0u; e < {per}u; ++e) {{\n"
          "    uint l = id * {per}u + e;\n"
          "    if (l >= {total}u) break;\n"
          "    uint s = source(l);\n"
          "    acc |= ((b0[s >> {shift}u] >> ((s & {lowmask}u) * {bits}u)) & {mask}u) << (e * {bits}u);\n"
          "  }}\n"
          "  b2[id] = acc;\n",
          fmt::arg("per", per), fmt::arg("total", total), fmt::arg("shift", shift), fmt::arg("lowmask", per - 1),
          fmt::arg("bits", storage), fmt::arg("mask", mask));
    } else {
      const int words = storage / 32;
      body = "  uint s = source(id);\n";
      for (int w = 0; w < words; ++w) body += fmt::format("  b2[{0}u * id + {1}u] = b0[{0}u * s + {1}u];\n", words, w);
    }
    d.glsl = DeviceKernelHeader(d.bindings, {group, 1, 1}) +
             fmt::format(
                 "uint source(uint l) {{\n"
                 "  uint o = l / {plane}u, rem = l % {plane}u;\n"
                 "  uint i = rem / {inner}u, ri = rem % {inner}u;\n"
                 "  uint p = b1[(o * {inner}u + ri) * {size}u + i];\n"
                 "  return o * {plane}u + p * {inner}u + ri;\n"
                 "}}\n"
                 "void main() {{\n"
                 "  {keep}\n"
                 "  uint id = vkhlo_workgroup_id(pc).x * {wg}u + gl_LocalInvocationID.x;\n"
                 "  if (id >= {items}u) return;\n"
                 "{body}"
                 "}}\n",
                 fmt::arg("plane", g.size * g.inner), fmt::arg("inner", g.inner), fmt::arg("size", g.size),
                 fmt::arg("keep", KeepBindingsStatement(d.bindings.size())), fmt::arg("wg", group),
                 fmt::arg("items", items), fmt::arg("body", body));
    k.dispatches.push_back(std::move(d));
  }
  return k;
}

}  // namespace

void RegisterSortKernels(DeviceKernelTable& table) { table.Register(ir::OpCode::kSort, {&EmitSort, &AcceptsSort}); }

}  // namespace vkhlo::codegen
