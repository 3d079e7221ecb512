// hoist-loop-products: in a counted while (passes/trip_count.h), a dot_general of a
// loop-invariant operand with one slice of a loop-invariant tensor per iteration
//
//   body: %x = reshape(dynamic_slice(%X, %i, 0, ...)) : [1, s...] -> [s...]
//         %y = dot_general(%x, %W)                      (or dot_general(%W, %x))
//
// becomes one dot_general over every slice, before the loop, and a slice of its result in the
// body:
//
//   before: %P = dot_general(reshape(%X) : [T, s...], %W)   (T: a new free dimension)
//   body:   %y = reshape(dynamic_slice(%P, ..., %i, ...))
//
// Between the dynamic_slice and the product, reshapes, slices, transposes and converts of the
// slice alone are applied to every slice at once (lax.scan with unroll=2 takes each step's half
// of a pair of slices).
//
// This is the input projection of a recurrent network under lax.scan (x_t @ W_x of an LSTM or
// GRU): per step a skinny product (M = the batch) that no device runs near its peak, and one
// kernel launch each; hoisted, T skinny products are one large one. Every element of %y is the
// same sum of the same products as before (dot_general fixes no summation order), and the
// slice clamps its start exactly as the original did: dimension 0 of %P is %X's T, and the
// other slice dimensions are whole, so their starts clamp to 0 either way. The work done for
// slices no iteration reads is the only cost, so the loop must be counted and run at least
// half as many times as %X has slices; %P is bounded in size (kMaxHoistedBytes).
#include <algorithm>
#include <optional>

#include "ir/op_attributes.h"
#include "ir/walk.h"
#include "passes/op_builder.h"
#include "passes/passes.h"
#include "passes/trip_count.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using ir::Value;

// The hoisted product is a whole tensor kept for the loop's life: past this, computing each
// slice in its iteration keeps memory down (and stays below any device's storage buffer range).
constexpr uint64_t kMaxHoistedBytes = uint64_t{64} << 20;

// Whether `block` lies inside one of `op`'s regions (at any depth).
bool Inside(const ir::Block* block, const ir::Operation& op) {
  while (block != nullptr) {
    const ir::Operation* parent = block->parent_op();
    if (parent == &op) return true;
    block = parent != nullptr ? parent->parent_block() : nullptr;
  }
  return false;
}

class Hoister {
 public:
  explicit Hoister(ir::Operation& loop) : loop_(loop), body_(loop.region(1).front()) {}

  // Rewrites every hoistable product of the loop's body; returns how many.
  StatusOr<int> Run(int64_t trips) {
    trips_ = trips;
    ir::ValueMap replacements;
    // Collect first: rewriting inserts ops into the body.
    std::vector<ir::Operation*> dots;
    for (const auto& op : body_.operations()) {
      if (op->code() == OpCode::kDotGeneral) dots.push_back(op.get());
    }
    int hoisted = 0;
    for (ir::Operation* dot : dots) {
      for (int side = 0; side < 2; ++side) {
        VKHLO_ASSIGN_OR_RETURN(Value * replacement, TryHoist(*dot, side));
        if (replacement == nullptr) continue;
        replacements[dot->result(0)] = replacement;
        ++hoisted;
        break;
      }
    }
    if (!replacements.empty()) ir::ReplaceUses(loop_.region(1), replacements);
    return hoisted;
  }

 private:
  // The value outside the loop that `v` (used in the body) always equals: a value defined
  // outside, or a loop-state element the body returns unchanged (its initial value). Else null.
  Value* Invariant(Value* v) const {
    if (!Inside(v->owner_block(), loop_)) return v;
    if (!v->is_block_argument() || v->owner_block() != &body_) return nullptr;
    const size_t j = static_cast<size_t>(v->index());
    const ir::Operation* ret = body_.back();
    if (ret == nullptr || ret->code() != OpCode::kReturn || j >= ret->num_operands() || ret->operand(j) != v) {
      return nullptr;
    }
    return loop_.operand(j);
  }

  size_t Position(const ir::Operation& op) const {
    const auto& ops = op.parent_block()->operations();
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].get() == &op) return i;
    }
    return ops.size();
  }

  // The replacement of `dot`'s result when operand `side` is a slice of a loop-invariant tensor
  // and the other operand is loop-invariant; null when the pattern does not hold.
  StatusOr<Value*> TryHoist(ir::Operation& dot, int side) {
    const ir::Attribute* numbers_attribute = dot.attribute("dot_dimension_numbers");
    const ir::DotDimensionNumbers* numbers = numbers_attribute ? numbers_attribute->as<ir::DotDimensionNumbers>() : nullptr;
    if (numbers == nullptr || !numbers->lhs_batching_dimensions.empty() || !numbers->rhs_batching_dimensions.empty()) {
      return nullptr;
    }
    Value* sliced = dot.operand(static_cast<size_t>(side));
    Value* other = Invariant(dot.operand(static_cast<size_t>(1 - side)));
    if (other == nullptr) return nullptr;
    // The sliced operand: a dynamic_slice, then ops of it alone that the stacked operand can
    // apply to every slice at once (lax.scan with unroll=2 reshapes xs to [T/2, 2, ...] and
    // slices each step's half out of the pair).
    std::vector<ir::Operation*> chain;
    ir::Operation* slice = sliced->defining_op();
    while (slice != nullptr && slice->parent_block() == &body_ && Liftable(*slice)) {
      chain.push_back(slice);
      slice = slice->operand(0)->defining_op();
    }
    std::reverse(chain.begin(), chain.end());
    if (slice == nullptr || slice->code() != OpCode::kDynamicSlice || slice->parent_block() != &body_) return nullptr;
    Value* whole = Invariant(slice->operand(0));
    const ir::Type& whole_type = slice->operand(0)->type();
    if (whole == nullptr || !whole_type.is_tensor() || !whole_type.is_static() || whole_type.rank() < 1) return nullptr;
    const std::vector<int64_t> sizes = ir::AttrInts(*slice, "slice_sizes");
    if (sizes.size() != static_cast<size_t>(whole_type.rank()) || sizes[0] != 1) return nullptr;
    for (size_t d = 1; d < sizes.size(); ++d) {
      if (sizes[d] != whole_type.dim(static_cast<int64_t>(d))) return nullptr;
    }
    const int64_t slices = whole_type.dim(0);
    const ir::Type& result_type = dot.result(0)->type();
    if (!sliced->type().is_static() || !result_type.is_static() || slices < 2 || trips_ * 2 < slices) return nullptr;
    const uint64_t bytes = static_cast<uint64_t>(slices) * static_cast<uint64_t>(result_type.num_elements()) *
                           std::max<uint64_t>(1, ir::BitWidth(result_type.element_type()) / 8);
    if (bytes > kMaxHoistedBytes) return nullptr;

    // Before the loop: every slice as a new leading free dimension of that operand.
    ir::Block& outer = *loop_.parent_block();
    OpBuilder before(outer, Position(loop_), dot.location());
    Value* stacked = Lift(before, whole, slice->result(0)->type(), chain, slices);
    ir::DotDimensionNumbers stacked_numbers = *numbers;
    for (int64_t& d : side == 0 ? stacked_numbers.lhs_contracting_dimensions : stacked_numbers.rhs_contracting_dimensions) ++d;
    std::vector<ir::NamedAttribute> attributes;
    for (const ir::NamedAttribute& a : dot.attributes()) {
      attributes.push_back(a.first == "dot_dimension_numbers" ? ir::NamedAttribute{a.first, ir::Attribute(stacked_numbers)} : a);
    }
    // dot_general's result: batch dims (none), lhs free dims, rhs free dims. The new
    // dimension is the first free one of its operand.
    const int64_t at = side == 0 ? 0
                                 : other->type().rank() - static_cast<int64_t>(numbers->lhs_contracting_dimensions.size());
    std::vector<int64_t> product_dims = result_type.dims();
    product_dims.insert(product_dims.begin() + at, slices);
    ir::Operation* product = before.CreateWithTypes(
        OpCode::kDotGeneral, side == 0 ? std::vector<Value*>{stacked, other} : std::vector<Value*>{other, stacked},
        {ir::Type::Tensor(result_type.element_type(), product_dims)}, std::move(attributes));
    if (!before.ok()) return before.status();

    // In the body: this iteration's slice of it, where the product was.
    OpBuilder in_body(body_, Position(dot), dot.location());
    Value* index = slice->operand(1);
    Value* zero = in_body.ScalarLike(index, 0);
    std::vector<Value*> starts(product_dims.size(), zero);
    starts[static_cast<size_t>(at)] = index;
    std::vector<int64_t> one_slice = product_dims;
    one_slice[static_cast<size_t>(at)] = 1;
    Value* piece = in_body.DynamicSlice(product->result(0), std::move(starts), std::move(one_slice));
    Value* replacement = in_body.Reshape(piece, result_type);
    if (!in_body.ok()) return in_body.status();
    return replacement;
  }

  // Ops between the dynamic_slice and the product that apply to each slice alone.
  static bool Liftable(const ir::Operation& op) {
    switch (op.code()) {
      case OpCode::kReshape:
      case OpCode::kSlice:
      case OpCode::kTranspose:
      case OpCode::kConvert: return op.num_operands() == 1 && op.num_results() == 1 && op.result(0)->type().is_static();
      default: return false;
    }
  }

  // `chain` applied to every slice of `whole` at once: the result's dimension 0 runs over the
  // `slices` slices, the others are the chain's result's. Reshapes in a row become one.
  static Value* Lift(OpBuilder& b, Value* whole, const ir::Type& slice_type, const std::vector<ir::Operation*>& chain,
                     int64_t slices) {
    auto stacked = [slices](const ir::Type& t) {
      std::vector<int64_t> dims = {slices};
      for (int64_t d : t.dims()) dims.push_back(d);
      return ir::Type::Tensor(t.element_type(), dims);
    };
    Value* v = whole;
    std::optional<ir::Type> reshape_to = stacked(slice_type);  // [T, 1, ...]: the slices as they come
    auto settle = [&] {
      if (reshape_to && reshape_to->dims() != v->type().dims()) v = b.Reshape(v, *reshape_to);
      reshape_to.reset();
    };
    for (const ir::Operation* op : chain) {
      const ir::Type& out = op->result(0)->type();
      if (op->code() == OpCode::kReshape) {
        reshape_to = stacked(out);
        continue;
      }
      settle();
      if (op->code() == OpCode::kConvert) {
        v = b.Convert(v, out.element_type());
      } else if (op->code() == OpCode::kSlice) {
        std::vector<int64_t> start = ir::AttrInts(*op, "start_indices"), limit = ir::AttrInts(*op, "limit_indices"),
                             strides = ir::AttrInts(*op, "strides");
        start.insert(start.begin(), 0);
        limit.insert(limit.begin(), slices);
        if (!strides.empty()) strides.insert(strides.begin(), 1);
        v = b.Slice(v, start, limit, strides);
      } else {  // transpose
        std::vector<int64_t> permutation = {0};
        for (int64_t p : ir::AttrInts(*op, "permutation")) permutation.push_back(p + 1);
        v = b.Create(OpCode::kTranspose, {v}, {{"permutation", ir::Attribute::I64Array(permutation)}})->result(0);
      }
    }
    settle();
    return v;
  }

  ir::Operation& loop_;
  ir::Block& body_;
  int64_t trips_ = 0;
};

class HoistLoopProducts : public Pass {
 public:
  std::string_view name() const override { return "hoist-loop-products"; }
  StatusOr<bool> Run(ir::Module& module) override {
    std::vector<ir::Operation*> loops;
    ir::WalkOps(module, [&](ir::Operation& op) {
      if (op.code() == OpCode::kWhile && op.num_regions() == 2 && op.region(1).blocks().size() == 1 &&
          op.parent_block() != nullptr) {
        loops.push_back(&op);
      }
    });
    bool changed = false;
    for (ir::Operation* loop : loops) {
      const std::optional<int64_t> trips = StaticTripCount(*loop);
      if (!trips) continue;
      VKHLO_ASSIGN_OR_RETURN(int hoisted, Hoister(*loop).Run(*trips));
      changed = changed || hoisted > 0;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateHoistLoopProductsPass() { return std::make_unique<HoistLoopProducts>(); }

}  // namespace vkhlo::passes
