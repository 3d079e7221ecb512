// split-long-reductions: a stablehlo.reduce whose rows (the elements reduced into one result)
// exceed 2^31 - 1 becomes two reduces, the first over the innermost reduced dimensions, the
// second over the remaining ones.
//
// The Vulkan reduce kernel counts a row's elements and the rows in uints (codegen/reduction,
// reduce_plan.h's kMaxWideRow), which a full sum of a fused tensor<65537x65537xi32> (2^32 + 2^17
// + 1 elements, never stored) would overflow. Reducing the inner 65537 first and then the 65537
// partials keeps every count below 2^31. The result is one the spec's schedule allows: a tree
// over the row in ascending order with init values interspersed (each partial is
// body(init, ...)); for a monoid (init the identity) it is the same value, and non-commutative
// reducers still combine neighbours left before right.
#include <algorithm>

#include "ir/walk.h"
#include "passes/passes.h"
#include "passes/rewrite_driver.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using ir::Value;

constexpr int64_t kMaxRow = 0x7fffffff;  // codegen/reduction/reduce_plan.h's kMaxWideRow

// One reduce of `operands` (inputs then inits) over `dimensions`, with `op`'s reducer region.
ir::Operation* Reduce(OpBuilder& b, const ir::Operation& op, std::vector<Value*> operands,
                      const std::vector<int64_t>& dimensions) {
  const size_t n = op.num_results();
  std::vector<int64_t> dims;
  const std::vector<int64_t>& in = operands[0]->type().dims();
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
    if (std::find(dimensions.begin(), dimensions.end(), d) == dimensions.end()) dims.push_back(in[static_cast<size_t>(d)]);
  }
  std::vector<ir::Type> types;
  for (size_t k = 0; k < n; ++k) types.push_back(ir::Type::Tensor(op.result(k)->type().element_type(), dims));
  ir::Operation* reduce = b.CreateWithTypes(OpCode::kReduce, std::move(operands), types,
                                            {{"dimensions", ir::Attribute::I64Array(dimensions)}}, /*num_regions=*/1);
  if (!b.ok()) return reduce;
  ir::ValueMap mapping;
  ir::CloneRegionInto(op.region(0), reduce->region(0), mapping);
  return reduce;
}

RewriteResult Rewrite(ir::Operation& op, OpBuilder& b) {
  if (op.code() != OpCode::kReduce || op.num_regions() != 1 || op.num_results() == 0 ||
      op.num_operands() != 2 * op.num_results()) {
    return std::nullopt;
  }
  const ir::Attribute* attribute = op.attribute("dimensions");
  std::optional<std::vector<int64_t>> dimensions = attribute ? attribute->AsI64Vector() : std::nullopt;
  const ir::Type& in = op.operand(0)->type();
  if (!dimensions || !in.is_tensor() || !in.is_static() || in.num_elements() == 0) return std::nullopt;
  std::vector<int64_t> reduced = *dimensions;
  std::sort(reduced.begin(), reduced.end());
  int64_t length = 1;
  for (int64_t d : reduced) {
    if (d < 0 || d >= in.rank()) return std::nullopt;
    length *= in.dim(d);
  }
  if (length <= kMaxRow) return std::nullopt;
  // The innermost reduced dimensions whose product stays within kMaxRow go first; the others
  // keep their numbers in the first reduce's result (they all lie before the inner ones).
  size_t split = reduced.size();
  int64_t inner = 1;
  while (split > 0 && inner * in.dim(reduced[split - 1]) <= kMaxRow) inner *= in.dim(reduced[--split]);
  if (split == reduced.size() || split == 0) return std::nullopt;  // one dimension alone is too long
  const std::vector<int64_t> first(reduced.begin() + static_cast<std::ptrdiff_t>(split), reduced.end());
  const std::vector<int64_t> second(reduced.begin(), reduced.begin() + static_cast<std::ptrdiff_t>(split));
  const size_t n = op.num_results();
  std::vector<Value*> operands(op.operands().begin(), op.operands().end());
  ir::Operation* partial = Reduce(b, op, operands, first);
  if (!b.ok()) return b.status();
  for (size_t k = 0; k < n; ++k) operands[k] = partial->result(k);
  ir::Operation* total = Reduce(b, op, operands, second);
  if (!b.ok()) return b.status();
  std::vector<Value*> results;
  for (size_t k = 0; k < n; ++k) results.push_back(total->result(k));
  return results;
}

class SplitLongReductions : public Pass {
 public:
  std::string_view name() const override { return "split-long-reductions"; }
  // To a fixpoint: the second reduce may itself still be too long.
  StatusOr<bool> Run(ir::Module& module) override { return RewriteToFixpoint(module, Rewrite); }
};

}  // namespace

std::unique_ptr<Pass> CreateSplitLongReductionsPass() { return std::make_unique<SplitLongReductions>(); }

}  // namespace vkhlo::passes
