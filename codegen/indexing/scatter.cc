// stablehlo.scatter as a device kernel: one invocation per result element (a few where narrow
// results pack several to a word) starts from the input's element and applies, in the
// interpreter's order (row-major over the update index space), every update element that lands
// on it, through the update computation evaluated by the elemental emitter. No two invocations
// touch one element, so repeated indices need no atomics and the result never depends on timing.
//
// Which update elements land on result index r: the update dimensions are walked in row-major
// order up to the last scatter dimension (loops); the window dimensions after it are derived
// from r (the offset r[d] - start[d], which must lie inside the window). An update element lands
// on r when every input dimension agrees: window dimensions start + offset == r[d], inserted
// dimensions start == r[d], batching dimensions the scatter position == r[d]. Since r is in
// bounds, this is also the spec's (and the interpreter's) rule that out-of-bounds update
// elements are skipped; indices are saturated to +-2^30 so 64-bit ones need no int64.
// Cost: results x scatter positions (times any window dimensions before the last scatter one).
// Integer add/min/max and unique indices take faster paths (scatter_by_updates.h), and so do
// row scatters (scatter_by_rows.h).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/indexing/element_dispatch.h"
#include "codegen/indexing/scatter_by_rows.h"
#include "codegen/indexing/scatter_by_updates.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }
int64_t Position(const std::vector<int64_t>& v, int64_t x) {
  return static_cast<int64_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

bool AcceptsScatter(const Operation& op) {
  return op.num_regions() == 1 && op.num_operands() >= 3 && op.num_operands() % 2 == 1 &&
         op.attribute("scatter_dimension_numbers") != nullptr && RegionIsElemental(op.region(0));
}

StatusOr<std::vector<Expr>> ScatterElement(ElementalEmitter& em, const Operation& op,
                                           const ir::ScatterDimensionNumbers& dn, const Index& index) {
  const size_t n = (op.num_operands() - 1) / 2;
  const ir::Value* indices = op.operand(n);
  const std::vector<int64_t>& od = op.operand(0)->type().dims();
  const std::vector<int64_t>& id = indices->type().dims();
  const std::vector<int64_t>& ud = op.operand(n + 1)->type().dims();
  const int64_t input_rank = static_cast<int64_t>(od.size());
  const int64_t indices_rank = static_cast<int64_t>(id.size());
  const int64_t update_rank = static_cast<int64_t>(ud.size());
  const int64_t ivd = dn.index_vector_dim;

  std::vector<int64_t> update_scatter_dims, window_input_dims;
  for (int64_t d = 0; d < update_rank; ++d) {
    if (!Contains(dn.update_window_dims, d)) update_scatter_dims.push_back(d);
  }
  for (int64_t d = 0; d < input_rank; ++d) {
    if (!Contains(dn.inserted_window_dims, d) && !Contains(dn.input_batching_dims, d)) window_input_dims.push_back(d);
  }
  if (window_input_dims.size() != dn.update_window_dims.size() ||
      static_cast<int64_t>(update_scatter_dims.size()) != indices_rank - (ivd < indices_rank ? 1 : 0)) {
    return em.OpError(op, "has dimension numbers inconsistent with its operands");
  }
  const int64_t loops = update_scatter_dims.empty() ? 0 : update_scatter_dims.back() + 1;

  std::vector<std::string> r = em.Multi(index);
  std::vector<Expr> acc;
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(Expr initial, em.Operand(op, k, index));
    const Expr raw = em.Raw(initial);
    acc.push_back(Expr{em.Var(em.Facts(raw.type).raw_glsl, raw.code), raw.type, true});
  }
  // The update index: loop variables for the leading dimensions, derived offsets after.
  std::vector<std::string> u(static_cast<size_t>(update_rank), "0");
  for (int64_t d = 0; d < loops; ++d) {
    u[static_cast<size_t>(d)] = fmt::format("u{}", d);
    em.Open(fmt::format("for (int u{0} = 0; u{0} < {1}; ++u{0})", d, ud[static_cast<size_t>(d)]));
  }
  // The start index's components at this scatter position.
  auto indices_index = [&](int64_t component) {
    std::vector<std::string> m;
    for (int64_t d = 0, b = 0; d < indices_rank; ++d) {
      m.push_back(d == ivd ? std::to_string(component) : u[static_cast<size_t>(update_scatter_dims[static_cast<size_t>(b++)])]);
    }
    return Index::Multi(id, m);
  };
  std::vector<std::string> conditions;
  for (int64_t d = 0; d < input_rank; ++d) {
    const std::string& rd = r[static_cast<size_t>(d)];
    std::string start = "0";
    if (Contains(dn.scatter_dims_to_operand_dims, d)) {
      VKHLO_ASSIGN_OR_RETURN(Expr value, em.Operand(op, n, indices_index(Position(dn.scatter_dims_to_operand_dims, d))));
      VKHLO_ASSIGN_OR_RETURN(start, SaturatedIndex(em, op, value));
    }
    if (Contains(dn.input_batching_dims, d)) {
      const int64_t s = dn.scatter_indices_batching_dims[static_cast<size_t>(Position(dn.input_batching_dims, d))];
      const int64_t b = s < ivd ? s : s - 1;
      conditions.push_back(fmt::format("{} == {}", u[static_cast<size_t>(update_scatter_dims[static_cast<size_t>(b)])], rd));
    } else if (Contains(dn.inserted_window_dims, d)) {
      conditions.push_back(fmt::format("{} == {}", start, rd));
    } else {
      const int64_t ud_index = dn.update_window_dims[static_cast<size_t>(Position(window_input_dims, d))];
      const std::string offset = start == "0" ? rd : em.Var("int", fmt::format("{} - {}", rd, start));
      if (ud_index < loops) {
        conditions.push_back(fmt::format("{} == {}", u[static_cast<size_t>(ud_index)], offset));
      } else {
        u[static_cast<size_t>(ud_index)] = offset;
        conditions.push_back(fmt::format("uint({}) < {}u", offset, ud[static_cast<size_t>(ud_index)]));
      }
    }
  }
  em.Open(fmt::format("if ({})", conditions.empty() ? "true" : fmt::format("{}", fmt::join(conditions, " && "))));
  std::vector<Expr> arguments = acc;
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(Expr update, em.Operand(op, n + 1 + k, Index::Multi(ud, u)));
    arguments.push_back(update);
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Expr> results, EvaluateRegion(em, op, op.region(0), arguments));
  if (results.size() != n) return em.OpError(op, "has an update computation that does not return one value per input");
  for (size_t k = 0; k < n; ++k) {
    if (results[k].type != acc[k].type) return em.OpError(op, "has an update computation of the wrong element type");
    em.Line(fmt::format("{} = {};", acc[k].code, results[k].code));
  }
  em.Close();
  for (int64_t d = 0; d < loops; ++d) em.Close();
  return acc;
}

StatusOr<DeviceKernel> EmitScatter(const Fusion& fusion, const TargetInfo& target, const KernelOptions& options) {
  const Operation& op = *fusion.device_op;
  const ir::Attribute* attr = op.attribute("scatter_dimension_numbers");
  const ir::ScatterDimensionNumbers* dn = attr ? attr->as<ir::ScatterDimensionNumbers>() : nullptr;
  if (dn == nullptr) return InvalidArgumentError("stablehlo.scatter has no scatter_dimension_numbers");
  VKHLO_ASSIGN_OR_RETURN(std::optional<DeviceKernel> fast, EmitScatterByUpdates(fusion, target, options));
  if (fast) return std::move(*fast);
  VKHLO_ASSIGN_OR_RETURN(std::optional<DeviceKernel> by_rows, EmitScatterByRows(fusion, target, options));
  if (by_rows) return std::move(*by_rows);
  DeviceKernel kernel;
  kernel.summary = "scatter: one invocation per result element applies its updates in update order";
  VKHLO_ASSIGN_OR_RETURN(KernelDispatch dispatch,
                         EmitElementDispatch(fusion, target, options, "scatter",
                                             [&](ElementalEmitter& em, const Index& index) {
                                               return ScatterElement(em, op, *dn, index);
                                             }));
  kernel.dispatches.push_back(std::move(dispatch));
  return kernel;
}

}  // namespace

void RegisterScatterKernels(DeviceKernelTable& table) { table.Register(ir::OpCode::kScatter, {&EmitScatter, &AcceptsScatter}); }

}  // namespace vkhlo::codegen
