#include "codegen/library/epilogue_match.h"

#include <numeric>
#include <optional>

#include "ir/requantize.h"
#include "ir/walk.h"

namespace vkhlo::codegen::library {
namespace {

// The value of a splat constant operand (floats and integers), if `v` is one.
std::optional<double> SplatValue(const ir::Value* v) {
  const ir::Operation* def = v->defining_op();
  if (def == nullptr || def->code() != ir::OpCode::kConstant || def->attribute("value") == nullptr) return std::nullopt;
  const ir::Literal* lit = def->attribute("value")->AsDenseElements();
  if (lit == nullptr || lit->num_elements() == 0) return std::nullopt;
  const ir::ElementType t = lit->element_type();
  if (ir::IsComplex(t) || t == ir::ElementType::kI1) return std::nullopt;
  const double first = ir::IsFloat(t) ? lit->GetFloat(0) : static_cast<double>(lit->GetInt(0));
  if (!lit->is_splat()) {
    for (int64_t i = 1; i < lit->num_elements(); ++i) {
      const double x = ir::IsFloat(t) ? lit->GetFloat(i) : static_cast<double>(lit->GetInt(i));
      if (!(x == first)) return std::nullopt;
    }
  }
  return first;
}

// `other` as an epilogue input: the operand of a broadcast_in_dim, or the value itself.
EpilogueInput InputOf(const ir::Value* other, const ir::Value** source) {
  const ir::Operation* def = other->defining_op();
  EpilogueInput in;
  if (def != nullptr && def->code() == ir::OpCode::kBroadcastInDim && def->num_operands() == 1) {
    const ir::Attribute* dims = def->attribute("broadcast_dimensions");
    auto list = dims ? dims->AsI64Vector() : std::nullopt;
    if (list && list->size() == static_cast<size_t>(def->operand(0)->type().rank())) {
      *source = def->operand(0);
      in.type = def->operand(0)->type().element_type();
      in.dims = def->operand(0)->type().dims();
      in.broadcast_dimensions = *list;
      return in;
    }
  }
  *source = other;
  in.type = other->type().element_type();
  in.dims = other->type().dims();
  in.broadcast_dimensions.resize(in.dims.size());
  std::iota(in.broadcast_dimensions.begin(), in.broadcast_dimensions.end(), 0);
  return in;
}

}  // namespace

FusedEpilogue MatchEpilogue(const ir::Block& block, const ir::Operation& op) {
  FusedEpilogue out;
  out.result = op.result(0);
  const ir::Region* region = block.parent_region();
  if (region == nullptr) return out;
  // A quantized contraction's integer result is requantized by its kernel: element-wise ops on
  // the stored values stay separate kernels. (A hybrid one's float result takes an epilogue as
  // any float dot.)
  if (op.attribute(ir::kQuantizedTypesAttribute) != nullptr && !ir::IsFloat(op.result(0)->type().element_type())) {
    return out;
  }
  const auto uses = ir::CountUses(*region);
  const ir::Type result_type = op.result(0)->type();
  const ir::ElementType t = result_type.element_type();
  const bool complex = ir::IsComplex(t);
  // Ops of the block after `op`, in order.
  const auto& ops = block.operations();
  size_t next = 0;
  while (next < ops.size() && ops[next].get() != &op) ++next;
  ++next;
  const ir::Value* current = op.result(0);
  for (size_t i = next; i < ops.size(); ++i) {
    auto count = uses.find(current);
    if (count == uses.end() || count->second != 1) break;
    const ir::Operation& user = *ops[i];
    bool uses_current = false;
    for (const ir::Value* v : user.operands()) uses_current = uses_current || v == current;
    if (!uses_current) continue;  // not the user yet
    if (user.num_results() != 1 || user.result(0)->type().dims() != result_type.dims()) break;
    if (user.code() == ir::OpCode::kConvert) {
      if (complex || ir::IsComplex(user.result(0)->type().element_type())) break;
      out.epilogue.convert_to = user.result(0)->type().element_type();
      out.fused.push_back(&user);
      out.result = user.result(0);
      break;  // steps after a convert would be in another type
    }
    if (user.num_operands() != 2 || user.result(0)->type().element_type() != t) break;
    const bool lhs = user.operand(0) == current;
    const ir::Value* other = lhs ? user.operand(1) : user.operand(0);
    if (other == current) break;
    std::optional<EpilogueOp> binary;
    switch (user.code()) {
      case ir::OpCode::kAdd: binary = EpilogueOp::kAdd; break;
      case ir::OpCode::kMultiply: binary = EpilogueOp::kMultiply; break;
      case ir::OpCode::kSubtract:
        if (lhs) binary = EpilogueOp::kSubtract;
        break;
      case ir::OpCode::kMaximum:
        if (!complex) binary = EpilogueOp::kMaximum;
        break;
      case ir::OpCode::kMinimum:
        if (!complex) binary = EpilogueOp::kMinimum;
        break;
      default: break;
    }
    if (!binary) break;
    const std::optional<double> splat = complex ? std::nullopt : SplatValue(other);
    if (splat && *binary == EpilogueOp::kMaximum && *splat == 0 && ir::IsFloat(t)) {
      out.epilogue.steps.push_back({EpilogueOp::kRelu});
    } else if (splat && *binary == EpilogueOp::kMultiply && ir::IsFloat(t)) {
      out.epilogue.steps.push_back({EpilogueOp::kScale, -1, *splat});
    } else {
      const ir::Value* source = nullptr;
      EpilogueInput in = InputOf(other, &source);
      out.epilogue.steps.push_back({*binary, static_cast<int>(out.epilogue.inputs.size())});
      out.epilogue.inputs.push_back(std::move(in));
      out.inputs.push_back(source);
    }
    out.fused.push_back(&user);
    out.result = user.result(0);
    current = user.result(0);
  }
  return out;
}

}  // namespace vkhlo::codegen::library
