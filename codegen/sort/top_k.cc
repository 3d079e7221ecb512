#include "codegen/sort/top_k.h"

#include <fmt/format.h>

#include <algorithm>

#include "codegen/elemental/types.h"
#include "codegen/fixed_kernel.h"
#include "ir/walk.h"

namespace vkhlo::codegen {
namespace {

// The longest list an invocation keeps (a private array; longer k sort whole rows), and the
// longest kept in variables (shaders/sort/top_k.comp's REGISTER_LIST, written for up to 16).
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
                                const TargetInfo& target, const KernelOptions& options) {
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
  // Result r's words at dst from its operand's at src (top_k.comp's COPY_RESULTS).
  std::string copy;
  for (size_t r = 0; r < op.num_results(); ++r) {
    const auto it = std::find(fusion.inputs.begin(), fusion.inputs.end(), op.operand(r));
    if (it == fusion.inputs.end()) return InternalError("sort: an operand is not among the kernel's inputs");
    const int words = GetTypeFacts(op.operand(r)->type().element_type(), target).storage_bits / 32;
    for (int w = 0; w < words; ++w) {
      copy += fmt::format("{}b{}[{}u * dst + {}u] = b{}[{}u * src + {}u];", copy.empty() ? "" : " ",
                          fusion.inputs.size() + r, words, w, it - fusion.inputs.begin(), words, w);
    }
  }
  FixedKernelSource src;
  src.file = "sort/top_k.comp";
  src.Describe(d.name, op, options.source_name)
      .Config(kernel.summary)
      .Why(fmt::format("the sort's results are only read through slices of the first {} of {} positions", k, g.size));
  src.DefineInt("K", k)
      .DefineInt("LAST_SLOT", k - 1)
      .DefineFlag("REGISTER_LIST", k <= kMaxRegisterK)
      .DefineUint("GROUP", group)
      .DefineUint("SIZE", static_cast<uint64_t>(g.size))
      .DefineUint("INNER", static_cast<uint64_t>(g.inner))
      .Define("COPY_RESULTS", copy);
  for (size_t i = 0; i < fusion.inputs.size(); ++i) src.NameBinding(fmt::format("in{}", i), i);
  src.generated = cmp.globals;
  VKHLO_ASSIGN_OR_RETURN(d.glsl, FixedKernelGlsl(d.bindings, {group, 1, 1}, "", cmp.extensions, src));
  kernel.dispatches.push_back(std::move(d));
  return kernel;
}

}  // namespace vkhlo::codegen
