// chlo.top_k: the k largest elements along the last dimension with their indices, as
// StableHLO's legalization builds it: a stable sort of (values, iota) in descending order
// (TOTALORDER for floats, so NaNs sort first and -0 after +0), then a slice of the first k.
// Ties keep the lower index first.
#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

Values TopK(OpBuilder& b, const Operation& op) {
  Value* x = op.operand(0);
  const ir::Type& type = x->type();
  const ir::Attribute* k_attr = op.attribute("k");
  auto k = k_attr != nullptr ? k_attr->AsInt() : std::nullopt;
  if (!k) return RewriteError(op, "has no integer `k`");
  const int64_t last = type.rank() - 1;
  Value* iota = b.Iota(type.WithElementType(ElementType::kS32), last);
  ir::Operation* sort = b.CreateWithTypes(OpCode::kSort, {x, iota}, {type, iota->type()},
                                          {{"dimension", ir::Attribute::Int(last)},
                                           {"is_stable", ir::Attribute::Bool(true)}},
                                          /*num_regions=*/1);
  if (!b.ok()) return b.status();
  const ir::Type scalar = ir::Type::Scalar(type.element_type());
  const ir::Type index = ir::Type::Scalar(ElementType::kS32);
  ir::Block* block = b.AddBlock(sort, 0, {scalar, scalar, index, index});
  OpBuilder body = OpBuilder::AtEnd(*block, op.location());
  const bool is_float = ir::IsFloat(type.element_type());
  body.Return({body.Compare("GT", block->argument(0), block->argument(1), is_float ? "TOTALORDER" : "")});
  if (!body.ok()) return body.status();
  std::vector<int64_t> start(static_cast<size_t>(type.rank()), 0);
  std::vector<int64_t> limit = type.dims();
  limit.back() = *k;
  return std::vector<Value*>{b.Slice(sort->result(0), start, limit), b.Slice(sort->result(1), start, limit)};
}

}  // namespace

void AddTopKRewrites(RewriteTable& t) { t[OpCode::kChloTopK] = TopK; }

}  // namespace vkhlo::passes::chlo
