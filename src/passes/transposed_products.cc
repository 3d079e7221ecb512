// transposed-products: transposes around dot_general folded into it.
//
// A transpose of the product: transpose(dot_general(a, b)) that swaps the product's free
// dimensions becomes dot_general(b, a), when the transpose is the product's only use.
// dot_general's result is [batch..., lhs free..., rhs free...]. A transpose to [batch...,
// rhs free..., lhs free...] (each block in its own order) is the product with the operands
// swapped: the same sums of the same products (a * b = b * a exactly, complex ones included),
// over the same contracting dimensions in the same order, so the interpreter gives the same
// bits. Backward passes are full of them (JAX writes the weight gradient of x @ w as
// transpose(dot_general(dy, x))); the transpose was a strided loop kernel over the whole
// gradient that also kept the optimizer's update out of the matmul's epilogue.
//
// A transpose of an operand: dot_general(transpose(x, p), b) reads x itself, its batching and
// contracting dimensions renumbered through p, when p keeps the operand's free dimensions in
// their order (the result's order is theirs). Attention writes q, k and v as
// transpose(reshape(x @ w), [0, 2, 1, 3]); each transpose was a loop kernel of its own, and
// the library reads any dimension order in place (codegen/library/index_map.h). The same
// products in the same order: the same bits. (XLA's TransposeFolding does the same.)
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

constexpr int kMaxSweeps = 8;

class TransposedProducts : public Pass {
 public:
  std::string_view name() const override { return "transposed-products"; }

  // Sweeps until nothing folds (a product made by one fold may have another to make), the use
  // counts taken afresh before each.
  StatusOr<bool> Run(ir::Module& module) override {
    bool any = false;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      uses_.clear();
      for (const auto& function : module.functions()) {
        for (const auto& [value, count] : ir::CountUses(function->body())) uses_[value] += count;
      }
      VKHLO_ASSIGN_OR_RETURN(bool changed, RewriteOnce(module, [this](ir::Operation& op, OpBuilder& builder) {
                               return Rewrite(op, builder);
                             }));
      any = any || changed;
      if (!changed) break;
    }
    return any;
  }

 private:
  RewriteResult Rewrite(ir::Operation& op, OpBuilder& builder) {
    if (op.code() == OpCode::kDotGeneral) return FoldOperandTransposes(op, builder);
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

  // dot_general(transpose(x, p), ...) as dot_general(x, ...) (either side).
  RewriteResult FoldOperandTransposes(ir::Operation& dot, OpBuilder& builder) {
    const ir::Attribute* numbers_attribute = dot.attribute("dot_dimension_numbers");
    const ir::DotDimensionNumbers* numbers =
        numbers_attribute ? numbers_attribute->as<ir::DotDimensionNumbers>() : nullptr;
    if (numbers == nullptr || dot.num_operands() != 2 || dot.result(0)->type().is_quantized()) return std::nullopt;
    ir::DotDimensionNumbers folded = *numbers;
    std::vector<Value*> operands = {dot.operand(0), dot.operand(1)};
    bool changed = false;
    for (int side = 0; side < 2; ++side) {
      ir::Operation* transpose = operands[static_cast<size_t>(side)]->defining_op();
      if (transpose == nullptr || transpose->code() != OpCode::kTranspose || transpose->num_operands() != 1 ||
          transpose->operand(0)->type().is_quantized()) {
        continue;
      }
      const std::vector<int64_t> permutation = ir::AttrInts(*transpose, "permutation");
      std::vector<int64_t>& batching = side == 0 ? folded.lhs_batching_dimensions : folded.rhs_batching_dimensions;
      std::vector<int64_t>& contracting = side == 0 ? folded.lhs_contracting_dimensions : folded.rhs_contracting_dimensions;
      const int64_t rank = static_cast<int64_t>(permutation.size());
      std::vector<bool> bound(permutation.size(), false);
      bool valid = rank == transpose->operand(0)->type().rank();
      for (const std::vector<int64_t>* dims : {&batching, &contracting}) {
        for (int64_t d : *dims) {
          valid = valid && d >= 0 && d < rank && !bound[static_cast<size_t>(d)];
          if (valid) bound[static_cast<size_t>(d)] = true;
        }
      }
      // The free dimensions, in the transposed operand's order, must come from x in x's order.
      int64_t last_free = -1;
      for (int64_t i = 0; valid && i < rank; ++i) {
        if (bound[static_cast<size_t>(i)]) continue;
        valid = permutation[static_cast<size_t>(i)] > last_free;
        last_free = permutation[static_cast<size_t>(i)];
      }
      if (!valid) continue;
      for (int64_t& d : batching) d = permutation[static_cast<size_t>(d)];
      for (int64_t& d : contracting) d = permutation[static_cast<size_t>(d)];
      operands[static_cast<size_t>(side)] = transpose->operand(0);
      changed = true;
    }
    if (!changed) return std::nullopt;
    std::vector<ir::NamedAttribute> attributes;
    for (const ir::NamedAttribute& a : dot.attributes()) {
      attributes.push_back(a.first == "dot_dimension_numbers" ? ir::NamedAttribute{a.first, ir::Attribute(folded)} : a);
    }
    ir::Operation* product =
        builder.CreateWithTypes(OpCode::kDotGeneral, std::move(operands), {dot.result(0)->type()}, std::move(attributes));
    if (!builder.ok()) return builder.status();
    return std::optional<std::vector<Value*>>(std::vector<Value*>{product->result(0)});
  }

  std::unordered_map<const Value*, int> uses_;
};

}  // namespace

std::unique_ptr<Pass> CreateTransposedProductsPass() { return std::make_unique<TransposedProducts>(); }

}  // namespace vkhlo::passes
