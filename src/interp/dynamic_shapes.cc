#include "interp/dynamic_shapes.h"

#include <fmt/format.h>

#include "ir/walk.h"
#include "verify/diagnostic.h"
#include "verify/static_forms.h"
#include "verify/verifier.h"

namespace vkhlo::interp {
namespace {

using ir::OpCode;
using ir::Type;

// Ops whose results are whatever their regions, callees or operands produce: they build no
// value from their declared result types.
bool PassesValuesThrough(OpCode code) {
  switch (code) {
    case OpCode::kWhile:
    case OpCode::kIf:
    case OpCode::kCase:
    case OpCode::kCall:
    case OpCode::kOptimizationBarrier:
    case OpCode::kTuple:
    case OpCode::kGetTupleElement:
      return true;
    default:
      return false;
  }
}

// The "prefix" of the verifier's messages for `op` in this context's module.
std::string Prefix(const EvalContext& context, const ir::Operation& op) {
  return verify::LocationPrefix(context.module().source_name(), op.location());
}

// Error from the verifier's check of the concrete types: already located and naming the op.
Status AtRunTime(const Status& status) {
  return Status(status.code(), std::string(status.message()) + " (with the sizes the program runs with)");
}

StatusOr<std::vector<Type>> ConcreteResultTypes(EvalContext& context, const ir::Operation& op,
                                                const InterpValues& operands) {
  std::vector<Type> operand_types;
  for (const InterpValue& v : operands) operand_types.push_back(v.type());
  const std::string prefix = Prefix(context, op);
  const std::span<const size_t> shape_operands = verify::ShapeOperandIndices(op.code());
  if (!shape_operands.empty()) {
    std::vector<std::vector<int64_t>> values;
    for (size_t i : shape_operands) {
      if (i >= operands.size() || !operands[i].is_tensor()) return context.OpError(op, "has a missing shape operand");
      const ir::Literal& literal = operands[i].literal();
      if (!ir::IsInteger(literal.element_type())) {
        return context.OpError(op, "shape operands must be integer tensors, found " + literal.type().ToString());
      }
      std::vector<int64_t> v(static_cast<size_t>(literal.num_elements()));
      for (int64_t k = 0; k < literal.num_elements(); ++k) v[static_cast<size_t>(k)] = literal.GetInt(k);
      values.push_back(std::move(v));
    }
    VKHLO_ASSIGN_OR_RETURN(verify::StaticForm form,
                           verify::StaticFormOf(op.code(), op.attributes(), operand_types, values,
                                                op.result(0)->type(), prefix));
    return std::vector<Type>{form.result};
  }
  std::vector<const ir::Region*> regions;
  for (size_t r = 0; r < op.num_regions(); ++r) regions.push_back(&op.region(r));
  StatusOr<std::vector<Type>> inferred =
      verify::InferResultTypes(op.code(), operand_types, op.attributes(), regions);
  if (inferred.ok()) {
    std::vector<Type> results;
    for (size_t i = 0; i < op.num_results() && i < inferred->size(); ++i) {
      // The inferred shape with the declared element type (results whose element type is
      // given, as dot_general's preferred type, keep it).
      const Type& declared = op.result(i)->type();
      results.push_back(declared.is_tensor() && (*inferred)[i].is_tensor()
                            ? declared.WithDims((*inferred)[i].dims())
                            : (*inferred)[i]);
    }
    if (results.size() != op.num_results()) return context.OpError(op, "has an unexpected number of results");
    return results;
  }
  if (inferred.status().code() != StatusCode::kUnimplemented) {
    // A constraint the verifier deferred fails with the actual sizes ("operand types must match").
    return AtRunTime(Status(inferred.status().code(), prefix + std::string(inferred.status().message())));
  }
  // Results that are given, not implied: element-wise ops keep their operand's shape.
  if (op.info().kind == ir::OpKind::kElementwise && op.num_results() == 1 && !operand_types.empty() &&
      operand_types[0].is_tensor()) {
    const Type& declared = op.result(0)->type();
    if (op.code() != OpCode::kBitcastConvert ||
        ir::BitWidth(declared.element_type()) == ir::BitWidth(operand_types[0].element_type())) {
      return std::vector<Type>{declared.WithDims(operand_types[0].dims())};
    }
  }
  return context.Unimplemented(op, fmt::format("a dynamic result type ({}) that its operands do not imply",
                                               op.result(0)->type().ToString()));
}

Status CheckResults(EvalContext& context, const ir::Operation& op, const InterpValues& results) {
  for (size_t i = 0; i < results.size() && i < op.num_results(); ++i) {
    const Type actual = results[i].type();
    if (!FitsType(actual, op.result(i)->type())) {
      return context.OpError(op, fmt::format("result {} is {} at run time, which does not fit its type {}", i,
                                             actual.ToString(), op.result(i)->type().ToString()));
    }
  }
  return OkStatus();
}

}  // namespace

bool FitsType(const Type& actual, const Type& declared) {
  if (actual.kind() != declared.kind()) return false;
  if (declared.is_tuple()) {
    const auto& a = actual.tuple_elements();
    const auto& d = declared.tuple_elements();
    if (a.size() != d.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!FitsType(a[i], d[i])) return false;
    }
    return true;
  }
  if (!declared.is_tensor()) return true;
  if (actual.rank() != declared.rank() || actual.WithDims(declared.dims()) != declared.WithBounds({})) return false;
  const std::vector<int64_t>& bounds = declared.bounds();
  for (int64_t d = 0; d < declared.rank(); ++d) {
    if (!declared.is_dynamic_dim(d)) {
      if (actual.dim(d) != declared.dim(d)) return false;
    } else if (!bounds.empty() && !ir::IsDynamicDim(bounds[static_cast<size_t>(d)]) &&
               actual.dim(d) > bounds[static_cast<size_t>(d)]) {
      return false;
    }
  }
  return true;
}

bool HasDynamicResults(const ir::Operation& op) {
  for (size_t i = 0; i < op.num_results(); ++i) {
    if (!op.result(i)->type().is_static()) return true;
  }
  return false;
}

StatusOr<InterpValues> EvaluateDynamicOp(EvalContext& context, const ir::Operation& op, const InterpValues& operands,
                                         OpEvaluator evaluate) {
  if (PassesValuesThrough(op.code())) {
    VKHLO_ASSIGN_OR_RETURN(InterpValues results, evaluate(context, op, operands));
    VKHLO_RETURN_IF_ERROR(CheckResults(context, op, results));
    return results;
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Type> types, ConcreteResultTypes(context, op, operands));
  // The evaluators read the op's result types: they run on a copy whose results are concrete
  // (its operands are the original's values; its regions, copied, see the same outer values).
  ir::ValueMap mapping;
  std::unique_ptr<ir::Operation> concrete = ir::CloneOp(op, mapping);
  for (size_t i = 0; i < types.size(); ++i) concrete->result(i)->set_type(types[i]);
  VKHLO_ASSIGN_OR_RETURN(InterpValues results, evaluate(context, *concrete, operands));
  VKHLO_RETURN_IF_ERROR(CheckResults(context, op, results));
  return results;
}

}  // namespace vkhlo::interp
