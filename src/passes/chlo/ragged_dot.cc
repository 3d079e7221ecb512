// chlo.ragged_dot: a dot whose lhs ragged dimension is split into consecutive groups of
// `group_sizes` rows. Three modes, by where the ragged dimension is:
// - non-contracting (rhs has a group dimension): row m uses the rhs slice of its group. Built as
//   one dot_general against every group, a mask keeping each row's own group, and a sum over
//   the group dimension (masked terms are -0, so the sum is exactly the kept term).
// - contracting: result[g] = the dot over the contracting positions of group g (the lhs is
//   broadcast over the groups and masked to zero outside each group).
// - batch: the plain batched dot, zero for batch positions past the last group.
// A row's group is the number of groups ending at or before it (a sum over cumulative sizes),
// so everything stays static-shaped StableHLO.
#include <fmt/format.h>

#include <algorithm>

#include "passes/chlo/rewrites.h"
#include "verify/verifier.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

struct RaggedDims {
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_contract, rhs_contract, lhs_ragged, rhs_group;
};

// The #chlo.ragged_dot<name = [..], ...> attribute is kept as text by the parser.
StatusOr<std::vector<int64_t>> ListAfter(const std::string& text, const std::string& name) {
  size_t at = text.find(name);
  if (at == std::string::npos) return std::vector<int64_t>{};
  at = text.find('[', at);
  const size_t end = text.find(']', at);
  if (at == std::string::npos || end == std::string::npos) {
    return InvalidArgumentError("malformed `" + name + "` in " + text);
  }
  std::vector<int64_t> values;
  std::string item;
  for (size_t i = at + 1; i <= end; ++i) {
    const char ch = text[i];
    if (ch == ',' || ch == ']') {
      if (item.find_first_not_of(' ') != std::string::npos) values.push_back(std::stoll(item));
      item.clear();
    } else if ((ch >= '0' && ch <= '9') || ch == '-' || ch == ' ' || ch == '\n') {
      item += ch == '\n' ? ' ' : ch;
    } else {
      return InvalidArgumentError("malformed `" + name + "` in " + text);
    }
  }
  return values;
}

StatusOr<RaggedDims> ParseDims(const Operation& op) {
  const ir::Attribute* attribute = op.attribute("ragged_dot_dimension_numbers");
  if (attribute == nullptr) return RewriteError(op, "has no ragged_dot_dimension_numbers");
  const std::string text = attribute->ToString();
  RaggedDims d;
  VKHLO_ASSIGN_OR_RETURN(d.lhs_batch, ListAfter(text, "lhs_batching_dimensions"));
  VKHLO_ASSIGN_OR_RETURN(d.rhs_batch, ListAfter(text, "rhs_batching_dimensions"));
  VKHLO_ASSIGN_OR_RETURN(d.lhs_contract, ListAfter(text, "lhs_contracting_dimensions"));
  VKHLO_ASSIGN_OR_RETURN(d.rhs_contract, ListAfter(text, "rhs_contracting_dimensions"));
  VKHLO_ASSIGN_OR_RETURN(d.lhs_ragged, ListAfter(text, "lhs_ragged_dimensions"));
  VKHLO_ASSIGN_OR_RETURN(d.rhs_group, ListAfter(text, "rhs_group_dimensions"));
  return d;
}

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }
int64_t IndexOf(const std::vector<int64_t>& v, int64_t x) {
  return static_cast<int64_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

std::vector<int64_t> FreeDims(int64_t rank, const std::vector<int64_t>& batch, const std::vector<int64_t>& contract) {
  std::vector<int64_t> free;
  for (int64_t i = 0; i < rank; ++i) {
    if (!Contains(batch, i) && !Contains(contract, i)) free.push_back(i);
  }
  return free;
}

// dot_general with the result element type of the chlo op.
Value* DotGeneral(OpBuilder& b, Value* lhs, Value* rhs, const RaggedDims& d, ElementType result_element) {
  std::vector<int64_t> dims;
  for (int64_t i : d.lhs_batch) dims.push_back(lhs->type().dim(i));
  for (int64_t i : FreeDims(lhs->type().rank(), d.lhs_batch, d.lhs_contract)) dims.push_back(lhs->type().dim(i));
  for (int64_t i : FreeDims(rhs->type().rank(), d.rhs_batch, d.rhs_contract)) dims.push_back(rhs->type().dim(i));
  ir::DotDimensionNumbers numbers{d.lhs_batch, d.rhs_batch, d.lhs_contract, d.rhs_contract};
  ir::Operation* dot = b.CreateWithTypes(OpCode::kDotGeneral, {lhs, rhs}, {ir::Type::Tensor(result_element, dims)},
                                         {{"dot_dimension_numbers", numbers}});
  if (b.ok()) {
    if (Status verified = verify::VerifyOperation(*dot); !verified.ok()) b.Fail(verified);
  }
  return dot->result(0);
}

// Sum over `dimension` (reduce with add).
Value* SumOver(OpBuilder& b, Value* x, int64_t dimension, double init_value) {
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < x->type().rank(); ++i) {
    if (i != dimension) dims.push_back(x->type().dim(i));
  }
  const ir::Type scalar = ir::Type::Scalar(x->type().element_type());
  Value* init = b.Splat(scalar, init_value);
  ir::Operation* reduce = b.CreateWithTypes(OpCode::kReduce, {x, init}, {x->type().WithDims(dims)},
                                            {{"dimensions", ir::Attribute::I64Array({dimension})}}, 1);
  if (!b.ok()) return reduce->result(0);
  ir::Block* block = b.AddBlock(reduce, 0, {scalar, scalar});
  OpBuilder body = OpBuilder::AtEnd(*block);
  body.Return({body.Add(block->argument(0), block->argument(1))});
  if (!body.ok()) b.Fail(body.status());
  return reduce->result(0);
}

// group[i] for i in [0, length): the number of groups that end at or before i (G for rows
// past the last group). `sizes` is [G] of any integer type.
Value* GroupOfPosition(OpBuilder& b, Value* sizes, int64_t length) {
  Math m(b);
  const int64_t groups = sizes->type().dim(0);
  Value* sizes64 = b.Convert(sizes, ElementType::kS64);
  // ends[g] = sum_{g' <= g} sizes[g'].
  const ir::Type square = ir::Type::Tensor(ElementType::kS64, {groups, groups});
  Value* upto = m.Le(b.Iota(square, 1), b.Iota(square, 0));
  Value* terms = m.Select(upto, b.BroadcastInDim(sizes64, square, {1}), b.Splat(square, 0));
  Value* ends = SumOver(b, terms, 1, 0);
  const ir::Type grid = ir::Type::Tensor(ElementType::kS64, {length, groups});
  Value* ended = m.Ge(b.Iota(grid, 0), b.BroadcastInDim(ends, grid, {1}));
  return SumOver(b, b.Convert(ended, ElementType::kS64), 1, 0);
}

Values RaggedDot(OpBuilder& b, const Operation& op) {
  Math m(b);
  VKHLO_ASSIGN_OR_RETURN(RaggedDims d, ParseDims(op));
  Value* lhs = op.operand(0);
  Value* rhs = op.operand(1);
  Value* sizes = op.operand(2);
  const ir::Type& result = op.result(0)->type();
  const ElementType element = result.element_type();
  if (d.lhs_ragged.size() != 1) return RewriteError(op, "needs exactly one lhs ragged dimension");
  if (sizes->type().rank() != 1) {
    return RewriteError(op, "group_sizes of rank " + std::to_string(sizes->type().rank()) +
                                " (per-batch group sizes) are not supported; expected rank 1");
  }
  const int64_t ragged = d.lhs_ragged[0];
  const int64_t groups = sizes->type().dim(0);
  const int64_t ragged_size = lhs->type().dim(ragged);
  const double zero = ir::IsFloat(element) || ir::IsComplex(element) ? -0.0 : 0.0;

  if (Contains(d.lhs_batch, ragged)) {
    Value* full = DotGeneral(b, lhs, rhs, d, element);
    const int64_t position = IndexOf(d.lhs_batch, ragged);
    Value* group = b.BroadcastInDim(GroupOfPosition(b, sizes, ragged_size), full->type().WithElementType(ElementType::kS64),
                                    {position});
    Value* valid = m.Lt(group, b.Splat(group->type(), static_cast<double>(groups)));
    return std::vector<Value*>{m.Select(valid, full, b.Splat(full->type(), 0))};
  }

  if (Contains(d.lhs_contract, ragged)) {
    // [G, lhs...] masked to each group's contracting positions, against [G, rhs...].
    std::vector<int64_t> lhs_dims = {groups}, rhs_dims = {groups}, lhs_map, rhs_map;
    for (int64_t i = 0; i < lhs->type().rank(); ++i) {
      lhs_dims.push_back(lhs->type().dim(i));
      lhs_map.push_back(i + 1);
    }
    for (int64_t i = 0; i < rhs->type().rank(); ++i) {
      rhs_dims.push_back(rhs->type().dim(i));
      rhs_map.push_back(i + 1);
    }
    Value* lhs_g = b.BroadcastInDim(lhs, lhs->type().WithDims(lhs_dims), lhs_map);
    Value* rhs_g = b.BroadcastInDim(rhs, rhs->type().WithDims(rhs_dims), rhs_map);
    const ir::Type index_type = ir::Type::Tensor(ElementType::kS64, lhs_dims);
    Value* group = b.BroadcastInDim(GroupOfPosition(b, sizes, ragged_size), index_type, {ragged + 1});
    Value* mask = m.Eq(group, b.Iota(index_type, 0));
    lhs_g = m.Select(mask, lhs_g, b.Splat(lhs_g->type(), 0));
    RaggedDims shifted;
    shifted.lhs_batch = {0};
    shifted.rhs_batch = {0};
    for (int64_t i : d.lhs_batch) shifted.lhs_batch.push_back(i + 1);
    for (int64_t i : d.rhs_batch) shifted.rhs_batch.push_back(i + 1);
    for (int64_t i : d.lhs_contract) shifted.lhs_contract.push_back(i + 1);
    for (int64_t i : d.rhs_contract) shifted.rhs_contract.push_back(i + 1);
    return std::vector<Value*>{DotGeneral(b, lhs_g, rhs_g, shifted, element)};
  }

  // Non-contracting ragged dimension: dot against every group, keep each row's own.
  if (d.rhs_group.size() != 1) return RewriteError(op, "needs one rhs group dimension for a non-contracting ragged dimension");
  Value* full = DotGeneral(b, lhs, rhs, d, element);
  const std::vector<int64_t> lhs_free = FreeDims(lhs->type().rank(), d.lhs_batch, d.lhs_contract);
  const std::vector<int64_t> rhs_free = FreeDims(rhs->type().rank(), d.rhs_batch, d.rhs_contract);
  const int64_t nb = static_cast<int64_t>(d.lhs_batch.size());
  const int64_t row_position = nb + IndexOf(lhs_free, ragged);
  const int64_t group_position = nb + static_cast<int64_t>(lhs_free.size()) + IndexOf(rhs_free, d.rhs_group[0]);
  const ir::Type index_type = full->type().WithElementType(ElementType::kS64);
  Value* group = b.BroadcastInDim(GroupOfPosition(b, sizes, ragged_size), index_type, {row_position});
  Value* mask = m.Eq(group, b.Iota(index_type, group_position));
  Value* kept = m.Select(mask, full, b.Splat(full->type(), zero));
  Value* out = SumOver(b, kept, group_position, zero);
  if (b.ok() && out->type() != result) {
    return RewriteError(op, fmt::format("the result type {} does not match the decomposition's {}", result.ToString(),
                                        out->type().ToString()));
  }
  return std::vector<Value*>{out};
}

}  // namespace

void AddRaggedDotRewrites(RewriteTable& t) { t[OpCode::kChloRaggedDot] = RaggedDot; }

}  // namespace vkhlo::passes::chlo
