// quantized-decompose: programs on uniform-quantized tensors become programs on plain integer
// and float tensors, so that codegen never sees a quantized type. The reference interpreter is
// the oracle (the spec text in shared/ does not define quantization yet); its rules are:
//   - uniform_quantize / uniform_dequantize are the formulas of quantized_math.h; quantizing a
//     quantized operand dequantizes it first (requantization);
//   - other element-wise ops on quantized tensors dequantize their quantized operands, compute
//     in the expressed type, and quantize a quantized result;
//   - select, bitcast_convert, data movement, reductions (their regions then compute on
//     quantized scalars, decomposed like any other op), control flow, collectives, constants and
//     function signatures move the stored values as they are.
// So the pass works in two steps:
//   1. Rewrite the ops that compute (the first two kinds) into ops on storage and expressed
//      tensors, joined to the rest of the still-quantized program by bitcast_convert (same bits).
//   2. Retype every remaining quantized value (op results, block and function arguments,
//      function types, constants) to its storage tensor type; the bitcast_converts of step 1
//      then convert a type to itself and are dropped.
// dot_general / dot / convolution with quantized weights (all quantized, or hybrid: float lhs
// and result) stay one op on storage tensors carrying `vkhlo.quantized_types` (the types they
// had), for the library's integer kernels and dequantize-on-load; the interpreter evaluates that
// form as it does the quantized one (src/interp/library_quantized.h). Any other op that would
// need more (custom_call, rng, ...) on quantized tensors is an error naming the op.
#include <fmt/format.h>

#include <algorithm>

#include "ir/requantize.h"
#include "ir/walk.h"
#include "passes/op_properties.h"
#include "passes/passes.h"
#include "passes/quantized_math.h"
#include "passes/rewrite_driver.h"

namespace vkhlo::passes {
namespace {

using ir::OpCode;
using ir::Value;

bool HasQuantizedType(const ir::Operation& op) {
  for (const Value* v : op.operands()) {
    if (v->type().is_quantized()) return true;
  }
  for (size_t i = 0; i < op.num_results(); ++i) {
    if (op.result(i)->type().is_quantized()) return true;
  }
  return false;
}

// Element-wise ops whose meaning on quantized tensors is dequantize-op-quantize.
bool ComputesOnValues(const ir::Operation& op) {
  if (op.info().kind != ir::OpKind::kElementwise) return false;
  switch (op.code()) {
    case OpCode::kSelect:
    case OpCode::kBitcastConvert:
    case OpCode::kMap:
    case OpCode::kUniformQuantize:
    case OpCode::kUniformDequantize:
      return false;
    default:
      return true;
  }
}

// Ops that only move, choose or pass on stored values (regions included: their bodies are
// rewritten on their own), so retyping them to the storage type keeps their meaning.
bool MovesStorage(const ir::Operation& op) {
  switch (op.info().kind) {
    case ir::OpKind::kDataMovement:
    case ir::OpKind::kReduction:
    case ir::OpKind::kConstant:
    case ir::OpKind::kStructural:
    case ir::OpKind::kTest:
    case ir::OpKind::kCollective:
      return true;
    case ir::OpKind::kControlFlow:
      return op.code() != OpCode::kComposite;
    case ir::OpKind::kElementwise:
      return op.code() == OpCode::kSelect || op.code() == OpCode::kBitcastConvert || op.code() == OpCode::kMap;
    case ir::OpKind::kOther:
      return op.code() == OpCode::kInfeed || op.code() == OpCode::kOutfeed || op.code() == OpCode::kAfterAll;
    default:
      return false;
  }
}

Status CheckTypes(const ir::Operation& op) {
  for (const Value* v : op.operands()) {
    if (v->type().is_quantized()) VKHLO_RETURN_IF_ERROR(quantized::CheckQuantizedType(op, v->type()));
  }
  for (size_t i = 0; i < op.num_results(); ++i) {
    const ir::Type& t = op.result(i)->type();
    if (t.is_quantized()) VKHLO_RETURN_IF_ERROR(quantized::CheckQuantizedType(op, t));
  }
  return OkStatus();
}

// A quantized operand in its expressed type; other operands as they are.
Value* Expressed(OpBuilder& b, Value* v) {
  if (!v->type().is_quantized()) return v;
  return quantized::Dequantize(b, quantized::ToStorage(b, v), v->type());
}

// Float values `x` as a value of `type` (quantized: quantized, then rejoined to the program).
Value* Requantize(OpBuilder& b, Value* x, const ir::Type& type) {
  if (!type.is_quantized()) return x;
  return quantized::FromStorage(b, quantized::Quantize(b, x, type), type);
}

bool IsContraction(const ir::Operation& op) {
  return op.code() == OpCode::kDotGeneral || op.code() == OpCode::kDot || op.code() == OpCode::kConvolution ||
         op.code() == OpCode::kDynamicConv;
}

ir::ElementType ExpressedOf(const ir::Type& t) {
  return t.is_quantized() ? t.quantization()->expressed : t.element_type();
}

// The interpreter's constraints on a quantized contraction (src/interp/library_quantized.cc):
// a quantized rhs; lhs and result both quantized (lhs per tensor) or both float (hybrid); one
// expressed type; per-axis weights along an output dimension; a per-axis result only along the
// output feature dimension (convolution) with per-axis weights.
Status CheckContraction(const ir::Operation& op) {
  const ir::Type& lhs = op.operand(0)->type();
  const ir::Type& rhs = op.operand(1)->type();
  const ir::Type& result = op.result(0)->type();
  if (lhs.is_quantized() != result.is_quantized()) {
    return OpError(op, lhs.is_quantized() ? "with quantized operands needs a quantized result"
                                          : "with a float lhs (hybrid) needs a float result");
  }
  const ir::QuantizedElement& q = *rhs.quantization();
  if (ExpressedOf(lhs) != q.expressed || ExpressedOf(result) != q.expressed) {
    return OpError(op, "needs one expressed type for lhs, rhs and result");
  }
  if (lhs.is_quantized() && lhs.quantization()->quantized_dimension) return OpError(op, "needs a per-tensor quantized lhs");
  const bool convolution = op.code() == OpCode::kConvolution || op.code() == OpCode::kDynamicConv;
  const ir::ConvDimensionNumbers* conv = nullptr;
  if (convolution) {
    const ir::Attribute* a = op.attribute("dimension_numbers");
    conv = a ? a->as<ir::ConvDimensionNumbers>() : nullptr;
    if (conv == nullptr) return OpError(op, "has no `dimension_numbers`");
  }
  if (result.is_quantized() && result.quantization()->quantized_dimension) {
    if (!q.quantized_dimension) return OpError(op, "has a per-axis result but a per-tensor rhs");
    if (conv != nullptr && conv->output_feature_dimension != *result.quantization()->quantized_dimension) {
      return OpError(op, "result is quantized per axis along another dimension than the output feature dimension");
    }
  }
  if (!q.quantized_dimension) return OkStatus();
  const int64_t d = *q.quantized_dimension;
  if (conv != nullptr) {
    if (conv->kernel_output_feature_dimension != d) {
      return OpError(op, "rhs is quantized per axis along another dimension than the kernel output feature dimension");
    }
    return OkStatus();
  }
  std::vector<int64_t> contracting = {0};
  if (op.code() == OpCode::kDotGeneral) {
    const ir::Attribute* a = op.attribute("dot_dimension_numbers");
    const ir::DotDimensionNumbers* dn = a ? a->as<ir::DotDimensionNumbers>() : nullptr;
    if (dn == nullptr) return OpError(op, "has no `dot_dimension_numbers`");
    contracting = dn->rhs_contracting_dimensions;
  }
  if (std::find(contracting.begin(), contracting.end(), d) != contracting.end()) {
    return OpError(op, fmt::format("rhs is quantized per axis along contracting dimension {}", d));
  }
  return OkStatus();
}

// A contraction with quantized weights stays one op, on storage tensors, with the types it had
// in `vkhlo.quantized_types`: the library kernels compute it on the stored integers (the
// definition in src/ir/requantize.h; hybrid ops dequantize the weights as they load them).
Value* KeepContraction(ir::Operation& op, OpBuilder& b) {
  std::vector<Value*> operands;
  for (Value* v : op.operands()) operands.push_back(v->type().is_quantized() ? quantized::ToStorage(b, v) : v);
  const ir::Type& result_type = op.result(0)->type();
  std::vector<ir::NamedAttribute> attributes = op.attributes();
  attributes.emplace_back(ir::kQuantizedTypesAttribute,
                          ir::Attribute(ir::Attribute::Array{ir::Attribute(op.operand(0)->type()),
                                                             ir::Attribute(op.operand(1)->type()),
                                                             ir::Attribute(result_type)}));
  const ir::Type stored = result_type.is_quantized() ? quantized::StorageType(result_type) : result_type;
  Value* r = b.CreateWithTypes(op.code(), operands, {stored}, std::move(attributes))->result(0);
  return result_type.is_quantized() ? quantized::FromStorage(b, r, result_type) : r;
}

RewriteResult Rewrite(ir::Operation& op, OpBuilder& b) {
  if (!HasQuantizedType(op)) return std::optional<std::vector<Value*>>();
  VKHLO_RETURN_IF_ERROR(CheckTypes(op));
  const ir::Type& result_type = op.num_results() == 1 ? op.result(0)->type() : ir::Type();
  switch (op.code()) {
    case OpCode::kUniformQuantize: {
      if (!result_type.is_quantized()) return OpError(op, "must have a quantized result");
      Value* values = Expressed(b, op.operand(0));
      return std::optional(std::vector<Value*>{Requantize(b, values, result_type)});
    }
    case OpCode::kUniformDequantize: {
      Value* operand = op.operand(0);
      if (!operand->type().is_quantized()) return OpError(op, "must have a quantized operand");
      if (result_type.is_quantized() || !ir::IsFloat(result_type.element_type())) {
        return OpError(op, "must have a float result, found " + result_type.ToString());
      }
      Value* values = Expressed(b, operand);
      if (values->type().element_type() != result_type.element_type()) {
        values = b.Convert(values, result_type.element_type());
      }
      return std::optional(std::vector<Value*>{values});
    }
    default:
      break;
  }
  if (ComputesOnValues(op)) {
    std::vector<Value*> operands;
    for (Value* v : op.operands()) operands.push_back(Expressed(b, v));
    const ir::Type compute_type = result_type.is_quantized() ? quantized::ExpressedType(result_type) : result_type;
    Value* computed = b.CreateWithTypes(op.code(), operands, {compute_type}, op.attributes())->result(0);
    return std::optional(std::vector<Value*>{Requantize(b, computed, result_type)});
  }
  if (IsContraction(op) && op.num_operands() >= 2 && op.num_results() == 1 && op.operand(1)->type().is_quantized() &&
      op.attribute(ir::kQuantizedTypesAttribute) == nullptr) {
    VKHLO_RETURN_IF_ERROR(CheckContraction(op));
    return std::optional(std::vector<Value*>{KeepContraction(op, b)});
  }
  if (MovesStorage(op)) return std::optional<std::vector<Value*>>();
  return OpError(op, "on quantized tensors cannot be lowered by quantized-decompose (element-wise "
                     "ops, uniform_quantize/uniform_dequantize, data movement, reductions and "
                     "control flow can)");
}

// --- step 2: quantized values become their storage tensors ---

ir::Type Storage(const ir::Type& type) {
  if (type.is_quantized()) return quantized::StorageType(type);
  if (!type.is_tuple()) return type;
  std::vector<ir::Type> elements;
  for (const ir::Type& t : type.tuple_elements()) elements.push_back(Storage(t));
  return ir::Type::Tuple(std::move(elements));
}

void RetypeValue(Value* v, bool& changed) {
  ir::Type t = Storage(v->type());
  if (t != v->type()) {
    v->set_type(std::move(t));
    changed = true;
  }
}

// A quantized `value` attribute (a constant's, or a check op's expected value) as its storage.
Status RetypeValueAttribute(ir::Operation& op) {
  const ir::Attribute* value = op.attribute("value");
  const ir::Literal* literal = value ? value->AsDenseElements() : nullptr;
  if (literal == nullptr || !literal->type().is_quantized()) return OkStatus();
  const ir::Type storage = quantized::StorageType(literal->type());
  auto retyped = literal->is_splat() ? ir::Literal::CreateSplat(storage, literal->raw())
                                     : ir::Literal::FromBytes(storage, {literal->raw().begin(), literal->raw().end()});
  if (!retyped.ok()) return OpError(op, retyped.status().message());
  op.SetAttribute("value", ir::Attribute::Dense(std::move(*retyped)));
  return OkStatus();
}

Status RetypeBlock(ir::Block& block, bool& changed) {
  for (size_t i = 0; i < block.num_arguments(); ++i) RetypeValue(block.argument(i), changed);
  for (const auto& op : block.operations()) {
    for (size_t i = 0; i < op->num_results(); ++i) RetypeValue(op->result(i), changed);
    VKHLO_RETURN_IF_ERROR(RetypeValueAttribute(*op));
    for (size_t r = 0; r < op->num_regions(); ++r) {
      for (const auto& inner : op->region(r).blocks()) VKHLO_RETURN_IF_ERROR(RetypeBlock(*inner, changed));
    }
  }
  return OkStatus();
}

bool IsIdentityBitcast(const ir::Operation& op) {
  return op.code() == OpCode::kBitcastConvert && op.operand(0)->type() == op.result(0)->type();
}

void RemoveIdentityBitcasts(ir::Block& block) {
  for (size_t i = 0; i < block.operations().size();) {
    ir::Operation& op = *block.operations()[i];
    for (size_t r = 0; r < op.num_regions(); ++r) {
      for (const auto& inner : op.region(r).blocks()) RemoveIdentityBitcasts(*inner);
    }
    if (IsIdentityBitcast(op)) {
      block.Remove(i);
    } else {
      ++i;
    }
  }
}

// bitcast_converts from a type to itself (left by step 1) are dropped, their uses redirected.
void DropIdentityBitcasts(ir::Region& body, bool& changed) {
  ir::ValueMap replacements;
  ir::WalkOps(body, [&](ir::Operation& op) {
    if (IsIdentityBitcast(op)) replacements[op.result(0)] = op.operand(0);
  });
  if (replacements.empty()) return;
  ir::ReplaceUses(body, replacements);
  for (const auto& block : body.blocks()) RemoveIdentityBitcasts(*block);
  changed = true;
}

class QuantizedDecompose : public Pass {
 public:
  std::string_view name() const override { return "quantized-decompose"; }
  StatusOr<bool> Run(ir::Module& module) override {
    VKHLO_ASSIGN_OR_RETURN(const bool rewritten, RewriteOnce(module, Rewrite));
    bool changed = rewritten;
    for (const auto& function : module.functions()) {
      ir::FunctionType type = function->type();
      for (ir::Type& t : type.inputs) t = Storage(t);
      for (ir::Type& t : type.results) t = Storage(t);
      if (!(type == function->type())) {
        function->set_type(std::move(type));
        changed = true;
      }
      ir::Region& body = function->body();
      for (const auto& block : body.blocks()) VKHLO_RETURN_IF_ERROR(RetypeBlock(*block, changed));
      // Only where quantized types were: other identity bitcasts are not this pass's business.
      if (changed) DropIdentityBitcasts(body, changed);
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateQuantizedDecomposePass() { return std::make_unique<QuantizedDecompose>(); }

}  // namespace vkhlo::passes
