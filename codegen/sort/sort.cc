// stablehlo.sort as a device kernel: any number of operands, any comparator, any dimension.
// The algorithm is shaders/sort/sort.comp (runs of 8 sorted in registers, merge-path passes,
// a gather through the permutation; O(n log n) comparisons, rows of any length); this file
// chooses its passes, bindings, push words and grids. A sort whose results are only read through
// slices of their first k positions (top_k's sort-then-slice) takes the top-k kernel instead
// when k is small (top_k.h): a selection, O(n k) at worst, O(n) typically.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/device_kernel.h"
#include "codegen/fixed_kernel.h"
#include "codegen/elemental/types.h"
#include "codegen/sort/sort_comparator.h"
#include "codegen/sort/top_k.h"

namespace vkhlo::codegen {
namespace {

// Runs sorted in registers before the merge passes (sort.comp's RUN_LENGTH).
constexpr uint32_t kRun = 8;

uint32_t FloorPow2(uint32_t v) {
  uint32_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
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

  VKHLO_ASSIGN_OR_RETURN(SortComparatorSource cmp, EmitSortComparator(op, fusion.inputs, target, options));
  if (std::optional<int64_t> k = SortedPrefixNeeded(op, dimension); k && TopKApplies(op, fusion, g, *k, target)) {
    return EmitTopK(fusion, g, *k, cmp, target, options);
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

  // The sort's variant: its geometry; each pass adds its own. The passes that compare read the
  // inputs (as in<i>, the comparator's names) through the generated comparator.
  auto sort_source = [&](const char* pass, bool compares, const std::string& name) {
    FixedKernelSource src;
    src.file = "sort/sort.comp";
    src.Describe(name, op, options.source_name)
        .Config(k.summary)
        .Config(fmt::format("pass {}, workgroup {}", pass, group));
    src.DefineFlag(pass, true)
        .DefineUint("SIZE", static_cast<uint64_t>(g.size))
        .DefineUint("INNER", static_cast<uint64_t>(g.inner))
        .DefineUint("GROUP", group);
    if (compares) {
      for (size_t i = 0; i < num_inputs; ++i) src.NameBinding(fmt::format("in{}", i), i);
      src.generated = cmp.globals;
    }
    return src;
  };

  {  // 1. Runs of kRun positions sorted in registers.
    KernelDispatch d;
    d.name = fusion.name + ".sort_runs";
    d.summary = k.summary;
    d.bindings = compare_bindings(-1, 0);
    d.grid = {static_cast<uint32_t>((runs + group - 1) / group), 1, 1};
    FixedKernelSource src = sort_source("SORT_RUNS", true, d.name);
    src.DefineUint("RUNS", static_cast<uint64_t>(runs))
        .DefineUint("RUNS_PER_ROW", static_cast<uint64_t>(runs_per_row))
        .NameBinding("DST", num_inputs);
    VKHLO_ASSIGN_OR_RETURN(d.glsl, FixedKernelGlsl(d.bindings, {group, 1, 1}, "", cmp.extensions, src));
    k.dispatches.push_back(std::move(d));
  }

  // 2. Merge passes (merge path) while the runs are shorter than the row: run width w doubles
  // each pass; each invocation writes `chunk` consecutive outputs of a pair of runs.
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
      FixedKernelSource src = sort_source("SORT_MERGE", true, d.name);
      src.NameBinding("SRC", num_inputs).NameBinding("DST", num_inputs + 1);
      VKHLO_ASSIGN_OR_RETURN(merge_glsl, FixedKernelGlsl(d.bindings, {group, 1, 1}, "uint width; uint chunk; uint chunks; ",
                                                         cmp.extensions, src));
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
    FixedKernelSource src = sort_source("SORT_GATHER", false, d.name);
    src.DefineUint("ITEMS", static_cast<uint64_t>(items))
        .DefineUint("TOTAL", static_cast<uint64_t>(total))
        .DefineInt("STORAGE_BITS", storage);
    VKHLO_ASSIGN_OR_RETURN(d.glsl, FixedKernelGlsl(d.bindings, {group, 1, 1}, "", {}, src));
    k.dispatches.push_back(std::move(d));
  }
  return k;
}

}  // namespace

void RegisterSortKernels(DeviceKernelTable& table) { table.Register(ir::OpCode::kSort, {&EmitSort, &AcceptsSort}); }

}  // namespace vkhlo::codegen
