#include "codegen/sort/top_k.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/elemental/types.h"
#include "ir/walk.h"

namespace vkhlo::codegen {
namespace {

// The longest list an invocation keeps (a private array; longer k sort whole rows), and the
// longest kept in variables.
constexpr int64_t kMaxK = 64;
constexpr int64_t kMaxRegisterK = 16;

uint32_t FloorPow2(uint32_t v) {
  uint32_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

std::vector<int64_t> I64s(const ir::Operation& op, const char* name) {
  const ir::Attribute* a = op.attribute(name);
  if (a == nullptr) return {};
  return a->AsI64Vector().value_or(std::vector<int64_t>{});
}

// Invocations per workgroup: lists of k positions for each in shared memory. At most 64: the
// lists of fewer invocations each see more elements, so fewer of them enter a list (about
// G k (1 + ln(n / (G k))) of a row's n, in random order), and rows are many.
uint32_t GroupSize(int64_t k, const TargetInfo& target) {
  const uint32_t by_limits = FloorPow2(std::min({64u, target.max_workgroup_invocations, target.max_workgroup_size[0]}));
  const uint32_t by_shared = FloorPow2(std::max<uint32_t>(1, target.max_shared_memory_bytes / (4 * static_cast<uint32_t>(k))));
  return std::min(by_limits, by_shared);
}

}  // namespace

std::optional<int64_t> SortedPrefixNeeded(const ir::Operation& sort, int64_t dimension) {
  const ir::Function* function = sort.parent_function();
  if (function == nullptr) return std::nullopt;
  int64_t k = 0;
  bool ok = true;
  ir::WalkOps(function->body(), [&](ir::Operation& user) {
    for (size_t i = 0; i < user.num_operands(); ++i) {
      const ir::Value* v = user.operand(i);
      bool is_result = false;
      for (size_t r = 0; r < sort.num_results(); ++r) is_result |= v == sort.result(r);
      if (!is_result) continue;
      if (user.code() != ir::OpCode::kSlice) {
        ok = false;
        return;
      }
      const std::vector<int64_t>& dims = v->type().dims();
      const std::vector<int64_t> start = I64s(user, "start_indices"), limit = I64s(user, "limit_indices");
      std::vector<int64_t> strides = I64s(user, "strides");
      if (strides.empty()) strides.assign(dims.size(), 1);
      if (start.size() != dims.size() || limit.size() != dims.size() || strides.size() != dims.size()) {
        ok = false;
        return;
      }
      for (size_t d = 0; d < dims.size(); ++d) {
        const bool sorted = static_cast<int64_t>(d) == dimension;
        if (start[d] != 0 || strides[d] != 1 || (!sorted && limit[d] != dims[d])) ok = false;
      }
      if (ok) k = std::max(k, limit[static_cast<size_t>(dimension)]);
    }
  });
  if (!ok || k <= 0) return std::nullopt;
  return k;
}

bool TopKApplies(const ir::Operation& sort, const Fusion& fusion, const SortGeometry& geometry, int64_t k,
                 const TargetInfo& target) {
  if (k > kMaxK || k >= geometry.size || fusion.outputs.size() != sort.num_results()) return false;
  if (GroupSize(k, target) < static_cast<uint32_t>(k)) return false;
  if (fusion.inputs.size() + fusion.outputs.size() > target.max_storage_buffers_per_stage) return false;
  for (size_t r = 0; r < sort.num_operands(); ++r) {
    // Narrower elements share words between rows: whole-row sorting packs them safely.
    if (GetTypeFacts(sort.operand(r)->type().element_type(), target).storage_bits < 32) return false;
  }
  return true;
}

StatusOr<DeviceKernel> EmitTopK(const Fusion& fusion, const SortGeometry& g, int64_t k, const SortComparatorSource& cmp,
                                const TargetInfo& target) {
  const ir::Operation& op = *fusion.device_op;
  const uint32_t group = GroupSize(k, target);
  DeviceKernel kernel;
  kernel.summary = fmt::format("sort of {} rows of {} (stride {}), first {} only: per-invocation selection, "
                               "pairwise merge in shared memory ({} invocations per row)",
                               g.rows(), g.size, g.inner, k, group);
  KernelDispatch d;
  d.name = fusion.name + ".top_k";
  d.summary = kernel.summary;
  for (const ir::Value* v : fusion.inputs) d.bindings.push_back(KernelBuffer::Read(v));
  for (const ir::Value* v : fusion.outputs) d.bindings.push_back(KernelBuffer::Write(v));
  d.grid = {static_cast<uint32_t>(g.rows()), 1, 1};
  std::string defines;
  for (size_t i = 0; i < fusion.inputs.size(); ++i) defines += fmt::format("#define in{0} b{0}\n", i);
  std::string copy;
  for (size_t r = 0; r < op.num_results(); ++r) {
    const auto it = std::find(fusion.inputs.begin(), fusion.inputs.end(), op.operand(r));
    if (it == fusion.inputs.end()) return InternalError("sort: an operand is not among the kernel's inputs");
    const int words = GetTypeFacts(op.operand(r)->type().element_type(), target).storage_bits / 32;
    for (int w = 0; w < words; ++w) {
      copy += fmt::format("    b{0}[{1}u * dst + {2}u] = b{3}[{1}u * src + {2}u];\n", fusion.inputs.size() + r, words, w,
                          it - fusion.inputs.begin());
    }
  }
  // The scan. Most elements are not before the list's last: one key load and one comparison
  // (the last's key is kept). Small k: the list is k variables (registers), and an element that
  // enters replaces the last and bubbles up (k - 1 comparisons, no dynamic indexing, which
  // lavapipe and some GPUs would turn into per-lane memory accesses). Larger k: an array with
  // binary insertion.
  std::string scan;
  if (k <= kMaxRegisterK) {
    for (int64_t j = 0; j < k; ++j) {
      scan += fmt::format("  uint q{0} = 0xffffffffu;\n  VkhloSortKey kq{0} = vkhlo_sort_key_at(row_base, 0xffffffffu);\n", j);
    }
    scan += fmt::format(
        "  for (uint p = t; p < {size}u; p += {G}u) {{\n"
        "    VkhloSortKey kp = vkhlo_sort_key(row_base + p * {inner}u);\n"
        "    if (!vkhlo_sort_before_keys(p, kp, q{last}, kq{last})) continue;\n"
        "    q{last} = p;\n"
        "    kq{last} = kp;\n",
        fmt::arg("size", g.size), fmt::arg("G", group), fmt::arg("inner", g.inner), fmt::arg("last", k - 1));
    for (int64_t j = k - 1; j >= 1; --j) {
      scan += fmt::format(
          "    if (vkhlo_sort_before_keys(q{0}, kq{0}, q{1}, kq{1})) {{\n"
          "      uint tp = q{0}; q{0} = q{1}; q{1} = tp;\n"
          "      VkhloSortKey tk = kq{0}; kq{0} = kq{1}; kq{1} = tk;\n"
          "    }}\n",
          j, j - 1);
    }
    scan += fmt::format("  }}\n  uint best[{}];\n", k);
    for (int64_t j = 0; j < k; ++j) scan += fmt::format("  best[{0}] = q{0};\n", j);
  } else {
    scan = fmt::format(
        "  uint best[{K}];\n"
        "  for (uint j = 0u; j < {K}u; ++j) best[j] = 0xffffffffu;\n"
        "  VkhloSortKey last = vkhlo_sort_key_at(row_base, 0xffffffffu);\n"
        "  for (uint p = t; p < {size}u; p += {G}u) {{\n"
        "    VkhloSortKey kp = vkhlo_sort_key(row_base + p * {inner}u);\n"
        "    if (!vkhlo_sort_before_keys(p, kp, best[{K}u - 1u], last)) continue;\n"
        "    uint lo = 0u, hi = {K}u - 1u;\n"
        "    while (lo < hi) {{\n"
        "      uint m = (lo + hi) >> 1u;\n"
        "      if (vkhlo_sort_before_keys(p, kp, best[m], vkhlo_sort_key_at(row_base, best[m]))) hi = m; else lo = m + 1u;\n"
        "    }}\n"
        "    for (uint j = {K}u - 1u; j > lo; --j) best[j] = best[j - 1u];\n"
        "    best[lo] = p;\n"
        "    last = vkhlo_sort_key_at(row_base, best[{K}u - 1u]);\n"
        "  }}\n",
        fmt::arg("K", k), fmt::arg("size", g.size), fmt::arg("G", group), fmt::arg("inner", g.inner));
  }
  d.glsl = DeviceKernelHeader(d.bindings, {group, 1, 1}, "", cmp.extensions) + defines + cmp.globals +
           fmt::format(
               "shared uint s[{G}u * {K}u];\n"
               "void main() {{\n"
               "  {keep}\n"
               "  uint row = vkhlo_workgroup_id(pc).x;\n"
               "  uint row_base = (row / {inner}u) * {plane}u + row % {inner}u;\n"
               "  uint t = gl_LocalInvocationID.x;\n"
               "  // This invocation's first K positions among p = t, t + G, ..., sorted.\n"
               "{scan}"
               "  for (uint j = 0u; j < {K}u; ++j) s[t * {K}u + j] = best[j];\n"
               "  barrier();\n"
               "  // Pairwise merges: list t takes the first K of lists t and t + stride.\n"
               "  for (uint stride = 1u; stride < {G}u; stride <<= 1u) {{\n"
               "    if ((t & (2u * stride - 1u)) == 0u) {{\n"
               "      uint a = t * {K}u, b = (t + stride) * {K}u, ia = 0u, ib = 0u;\n"
               "      for (uint j = 0u; j < {K}u; ++j) {{\n"
               "        uint x = s[a + ia], y = s[b + ib];\n"
               "        if (vkhlo_sort_before(row_base, y, x)) {{ best[j] = y; ++ib; }} else {{ best[j] = x; ++ia; }}\n"
               "      }}\n"
               "      for (uint j = 0u; j < {K}u; ++j) s[a + j] = best[j];\n"
               "    }}\n"
               "    barrier();\n"
               "  }}\n"
               "  if (t < {K}u) {{\n"
               "    uint src = row_base + s[t] * {inner}u, dst = row_base + t * {inner}u;\n"
               "{copy}"
               "  }}\n"
               "}}\n",
               fmt::arg("G", group), fmt::arg("K", k), fmt::arg("keep", KeepBindingsStatement(d.bindings.size())),
               fmt::arg("inner", g.inner), fmt::arg("plane", g.size * g.inner), fmt::arg("size", g.size),
               fmt::arg("copy", copy), fmt::arg("scan", scan));
  kernel.dispatches.push_back(std::move(d));
  return kernel;
}

}  // namespace vkhlo::codegen
