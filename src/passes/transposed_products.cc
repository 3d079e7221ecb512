// transposed-products: transpose(dot_general(a, b)) that swaps the product's free dimensions
// becomes dot_general(b, a), when the transpose is the product's only use.
//
// dot_general's result is [batch..., lhs free..., rhs free...]. A transpose to [batch...,
// rhs free..., lhs free...] (each block in its own order) is the product with the operands
// swapped: the same sums of the same products (a * b = b * a exactly, complex ones included),
// over the same contracting dimensions in the same order, so the interpreter gives the same
// bits. Backward passes are full of them (JAX writes the weight gradient of x @ w as
// transpose(dot_general(dy, x))); the transpose was a strided loop kernel over the whole
// gradient that also kept the optimizer's update out of the matmul's epilogue.
#include <algorithm>

#include "ir/op_attributes.h"
#include "ir/walk.h"
#include "passes/passes.h"
#include "passes/rewrite_driver.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using ir::Value;

// Whether `permutation` of a product with `batch` batch dims, `lhs_free` and `rhs_free` free
// dims is [batch..., rhs free..., lhs free...], both blocks non-empty.
bool SwapsFreeBlocks(const std::vector<int64_t>& permutation, int64_t batch, int64_t lhs_free, int64_t rhs_free) {
  if (lhs_free == 0 || rhs_free == 0 || static_cast<int64_t>(permutation.size()) != batch + lhs_free + rhs_free) {
    return false;
  }
  for (int64_t i = 0; i < static_cast<int64_t>(permutation.size()); ++i) {
    const int64_t expected = i < batch ? i : i < batch + rhs_free ? batch + lhs_free + (i - batch) : i - rhs_free;
    if (permutation[static_cast<size_t>(i)] != expected) return false;
  }
  return true;
}

class TransposedProducts : public Pass {
 public:
  std::string_view name() const override { return "transposed-products"; }

  StatusOr<bool> Run(ir::Module& module) override {
    for (const auto& function : module.functions()) {
      for (const auto& [value, count] : ir::CountUses(function->body())) uses_[value] += count;
    }
    return RewriteOnce(module, [this](ir::Operation& op, OpBuilder& builder) { return Rewrite(op, builder); });
  }

 private:
  RewriteResult Rewrite(ir::Operation& op, OpBuilder& builder) {
    if (op.code() != OpCode::kTranspose || op.num_operands() != 1) return std::nullopt;
    Value* product = op.operand(0);
    ir::Operation* dot = product->defining_op();
    if (dot == nullptr || dot->code() != OpCode::kDotGeneral || dot->num_operands() != 2 ||
        dot->attribute("algorithm") != nullptr || uses_[product] != 1) {
      return std::nullopt;
    }
    const ir::Attribute* numbers_attribute = dot->attribute("dot_dimension_numbers");
    const ir::DotDimensionNumbers* numbers =
        numbers_attribute ? numbers_attribute->as<ir::DotDimensionNumbers>() : nullptr;
    Value* lhs = dot->operand(0);
    Value* rhs = dot->operand(1);
    const ir::Type& result = op.result(0)->type();
    if (numbers == nullptr || !lhs->type().is_tensor() || !rhs->type().is_tensor() || !result.is_static() ||
        lhs->type().element_type() != rhs->type().element_type() || result.is_quantized() ||
        lhs->type().is_quantized() || rhs->type().is_quantized()) {
      return std::nullopt;
    }
    const int64_t batch = static_cast<int64_t>(numbers->lhs_batching_dimensions.size());
    const int64_t lhs_free = lhs->type().rank() - batch - static_cast<int64_t>(numbers->lhs_contracting_dimensions.size());
    const int64_t rhs_free = rhs->type().rank() - batch - static_cast<int64_t>(numbers->rhs_contracting_dimensions.size());
    if (!SwapsFreeBlocks(ir::AttrInts(op, "permutation"), batch, lhs_free, rhs_free)) return std::nullopt;

    ir::DotDimensionNumbers swapped;
    swapped.lhs_batching_dimensions = numbers->rhs_batching_dimensions;
    swapped.rhs_batching_dimensions = numbers->lhs_batching_dimensions;
    swapped.lhs_contracting_dimensions = numbers->rhs_contracting_dimensions;
    swapped.rhs_contracting_dimensions = numbers->lhs_contracting_dimensions;
    std::vector<ir::NamedAttribute> attributes;
    for (const ir::NamedAttribute& a : dot->attributes()) {
      if (a.first == "dot_dimension_numbers") {
        attributes.emplace_back(a.first, ir::Attribute(swapped));
      } else if (const auto* list = a.first == "precision_config" ? a.second.as<ir::Attribute::Array>() : nullptr;
                 list != nullptr && list->size() == 2) {
        attributes.emplace_back(a.first, ir::Attribute(ir::Attribute::Array{(*list)[1], (*list)[0]}));
      } else {
        attributes.push_back(a);
      }
    }
    ir::Operation* swapped_dot =
        builder.CreateWithTypes(OpCode::kDotGeneral, {rhs, lhs}, {result}, std::move(attributes));
    if (!builder.ok()) return builder.status();
    return std::optional<std::vector<Value*>>(std::vector<Value*>{swapped_dot->result(0)});
  }

  std::unordered_map<const Value*, int> uses_;
};

}  // namespace

std::unique_ptr<Pass> CreateTransposedProductsPass() { return std::make_unique<TransposedProducts>(); }

}  // namespace vkhlo::passes
