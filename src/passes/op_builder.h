// OpBuilder: creates ops at an insertion point, inferring result types through the verifier's
// shape functions. Errors are sticky, as in XlaBuilder: a failed step records the first error
// and returns a placeholder value, so rewrite code can read like the math it builds
//   Value* y = b.Add(b.Mul(x, x), b.ScalarLike(x, 1.0));
// and check `b.status()` once at the end (a pass must then return that error and not keep the
// partial rewrite).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::passes {

class OpBuilder {
 public:
  // Inserts before the op at `position` in `block` (block.operations().size(): at the end).
  OpBuilder(ir::Block& block, size_t position, ir::Location location = {});
  static OpBuilder AtEnd(ir::Block& block, ir::Location location = {});

  ir::Block& block() const { return *block_; }
  size_t position() const { return position_; }
  void set_location(ir::Location location) { location_ = location; }
  const Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }

  // An op with result types inferred from operands and attributes (VerifyOperation is run).
  ir::Operation* Create(ir::OpCode code, std::vector<ir::Value*> operands,
                        std::vector<ir::NamedAttribute> attributes = {});
  // An op with the given result types and `num_regions` empty regions (for region ops the
  // caller fills them); not verified here.
  ir::Operation* CreateWithTypes(ir::OpCode code, std::vector<ir::Value*> operands,
                                 const std::vector<ir::Type>& result_types,
                                 std::vector<ir::NamedAttribute> attributes = {},
                                 int num_regions = 0);
  // Inserts an already built op (e.g. a clone).
  ir::Operation* Insert(std::unique_ptr<ir::Operation> op);

  // Single-result conveniences.
  ir::Value* Unary(ir::OpCode code, ir::Value* x);
  ir::Value* Binary(ir::OpCode code, ir::Value* lhs, ir::Value* rhs);
  ir::Value* Add(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kAdd, a, b); }
  ir::Value* Sub(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kSubtract, a, b); }
  ir::Value* Mul(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kMultiply, a, b); }
  ir::Value* Div(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kDivide, a, b); }
  ir::Value* Max(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kMaximum, a, b); }
  ir::Value* Min(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kMinimum, a, b); }
  ir::Value* And(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kAnd, a, b); }
  ir::Value* Or(ir::Value* a, ir::Value* b) { return Binary(ir::OpCode::kOr, a, b); }
  ir::Value* Neg(ir::Value* x) { return Unary(ir::OpCode::kNegate, x); }
  ir::Value* Abs(ir::Value* x) { return Unary(ir::OpCode::kAbs, x); }
  ir::Value* Not(ir::Value* x) { return Unary(ir::OpCode::kNot, x); }
  ir::Value* Select(ir::Value* pred, ir::Value* on_true, ir::Value* on_false);
  // `direction`: EQ NE LT LE GT GE. The comparison type follows the element type (FLOAT,
  // SIGNED, UNSIGNED; TOTALORDER only when asked).
  ir::Value* Compare(std::string_view direction, ir::Value* lhs, ir::Value* rhs,
                     std::string_view compare_type = "");
  ir::Value* Convert(ir::Value* x, ir::ElementType to);
  ir::Value* BroadcastInDim(ir::Value* x, const ir::Type& result_type,
                            std::vector<int64_t> broadcast_dimensions);
  ir::Value* Reshape(ir::Value* x, const ir::Type& result_type);

  // A constant of `type` (a tensor type) holding `literal`.
  ir::Value* Constant(ir::Literal literal);
  // A splat constant with `x`'s type (for complex types: real part `value`, imaginary 0).
  // Floats are rounded to the type (RNE); integers converted with wraparound.
  ir::Value* ScalarLike(ir::Value* x, double value);
  ir::Value* Splat(const ir::Type& type, double value);
  // Splat of a raw bit pattern (e.g. a float's NaN payload or an integer's extreme).
  ir::Value* SplatBits(const ir::Type& type, uint64_t bits);

  // Data movement and type conversion.
  ir::Value* BitcastConvert(ir::Value* x, ir::ElementType to);
  ir::Value* Iota(const ir::Type& type, int64_t dimension);
  ir::Value* Slice(ir::Value* x, std::vector<int64_t> start, std::vector<int64_t> limit,
                   std::vector<int64_t> strides = {});
  ir::Value* DynamicSlice(ir::Value* x, std::vector<ir::Value*> start_indices,
                          std::vector<int64_t> sizes);
  ir::Value* DynamicUpdateSlice(ir::Value* x, ir::Value* update,
                                std::vector<ir::Value*> start_indices);

  // Region ops: the op comes back with `num_regions` regions, each with one block whose
  // arguments have the given types; fill a block with `OpBuilder::AtEnd(*block)` and end it
  // with Return. Not verified here (the pipeline verifies after the pass).
  ir::Block* AddBlock(ir::Operation* op, size_t region, const std::vector<ir::Type>& argument_types);
  // stablehlo.return of `values` (the terminator of reduce/sort/while/... regions).
  void Return(std::vector<ir::Value*> values);

  // Records `error` as the builder's error when none is recorded yet.
  void Fail(Status error);

 private:
  ir::Value* Placeholder(const std::vector<ir::Value*>& operands);
  ir::Block* block_;
  size_t position_;
  ir::Location location_;
  Status status_;
  // Values handed out after an error, so callers never see nullptr.
  std::vector<std::unique_ptr<ir::Operation>> placeholders_;
};

// The comparison type an element type compares with by default: FLOAT, SIGNED or UNSIGNED.
std::string_view DefaultCompareType(ir::ElementType type);

}  // namespace vkhlo::passes
