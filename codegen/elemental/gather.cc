// gather and dynamic_gather as index arithmetic (so gather fuses like slice): the result index
// splits into a batch position (the non-offset result dimensions) and a window offset (the
// offset dimensions); the operand index is the start index read from start_indices at the batch
// position, clamped to [0, dim - slice_size] as the spec says, plus the window offset; operand
// batching dimensions take the batch position's index along the matching start_indices
// batching dimension. dynamic_gather is gather with its slice sizes in a constant operand.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/index_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

StatusOr<Expr> GatherAt(ElementalEmitter& em, const Operation& op, const Index& index,
                        const std::vector<int64_t>& slice_sizes) {
  const ir::Attribute* attr = op.attribute("dimension_numbers");
  const ir::GatherDimensionNumbers* dn = attr ? attr->as<ir::GatherDimensionNumbers>() : nullptr;
  if (dn == nullptr) return em.OpError(op, "has no dimension_numbers");
  const std::vector<int64_t>& od = op.operand(0)->type().dims();
  const std::vector<int64_t>& id = op.operand(1)->type().dims();
  const int64_t operand_rank = static_cast<int64_t>(od.size());
  const int64_t indices_rank = static_cast<int64_t>(id.size());
  const int64_t ivd = dn->index_vector_dim;
  if (static_cast<int64_t>(slice_sizes.size()) != operand_rank || ivd < 0 || ivd > indices_rank) {
    return em.OpError(op, "has slice_sizes or index_vector_dim inconsistent with its operands");
  }
  // Result dimensions: offset dimensions (window offsets, in operand order of the window
  // dimensions) and batch dimensions (start_indices dimensions without index_vector_dim).
  std::vector<std::string> multi = em.Multi(index);
  std::vector<std::string> batch, offsets;
  for (size_t r = 0; r < multi.size(); ++r) {
    (Contains(dn->offset_dims, static_cast<int64_t>(r)) ? offsets : batch).push_back(multi[r]);
  }
  if (static_cast<int64_t>(batch.size()) != indices_rank - (ivd < indices_rank ? 1 : 0)) {
    return em.OpError(op, "has a result rank inconsistent with its dimension numbers");
  }
  // start_indices dimension d's index at the batch position (index_vector_dim: `component`).
  auto indices_index = [&](int64_t component) {
    std::vector<std::string> m;
    for (int64_t d = 0, b = 0; d < indices_rank; ++d) {
      m.push_back(d == ivd ? std::to_string(component) : batch[static_cast<size_t>(b++)]);
    }
    return Index::Multi(id, m);
  };
  std::vector<std::string> operand(static_cast<size_t>(operand_rank), "0");
  for (size_t k = 0; k < dn->start_index_map.size(); ++k) {
    const int64_t d = dn->start_index_map[k];
    if (d < 0 || d >= operand_rank) return em.OpError(op, "has start_index_map out of range");
    VKHLO_ASSIGN_OR_RETURN(Expr start, em.Operand(op, 1, indices_index(static_cast<int64_t>(k))));
    VKHLO_ASSIGN_OR_RETURN(operand[static_cast<size_t>(d)],
                           ClampedIndex(em, op, start, od[static_cast<size_t>(d)] - slice_sizes[static_cast<size_t>(d)]));
  }
  for (size_t i = 0; i < dn->operand_batching_dims.size() && i < dn->start_indices_batching_dims.size(); ++i) {
    const int64_t s = dn->start_indices_batching_dims[i];
    operand[static_cast<size_t>(dn->operand_batching_dims[i])] = batch[static_cast<size_t>(s < ivd ? s : s - 1)];
  }
  size_t w = 0;
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (Contains(dn->collapsed_slice_dims, d) || Contains(dn->operand_batching_dims, d)) continue;
    if (w >= offsets.size()) return em.OpError(op, "has fewer offset_dims than window dimensions");
    std::string& o = operand[static_cast<size_t>(d)];
    o = o == "0" ? offsets[w] : em.Var("int", fmt::format("{} + {}", o, offsets[w]));
    ++w;
  }
  return em.Operand(op, 0, Index::Multi(od, operand));
}

StatusOr<Expr> EmitGather(ElementalEmitter& em, const Operation& op, const Index& index) {
  const ir::Attribute* sizes = op.attribute("slice_sizes");
  std::optional<std::vector<int64_t>> slice_sizes = sizes ? sizes->AsI64Vector() : std::nullopt;
  if (!slice_sizes) return em.OpError(op, "has no slice_sizes");
  return GatherAt(em, op, index, *slice_sizes);
}

StatusOr<Expr> EmitDynamicGather(ElementalEmitter& em, const Operation& op, const Index& index) {
  std::optional<std::vector<int64_t>> slice_sizes = ConstantIntegers(op, 2);
  if (!slice_sizes) {
    return em.OpError(op, "needs constant slice_sizes on the Vulkan backend (a size known only at run time is "
                          "not supported)");
  }
  return GatherAt(em, op, index, *slice_sizes);
}

}  // namespace

void RegisterGatherEmitters(OpEmitterTable& t) {
  t.Register(ir::OpCode::kGather, EmitGather);
  t.Register(ir::OpCode::kDynamicGather, EmitDynamicGather);
}

}  // namespace vkhlo::codegen
